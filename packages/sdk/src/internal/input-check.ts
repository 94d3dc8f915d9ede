import { closestName } from '@company-data/contract/runtime';
import type { z } from 'zod';
import { ConfigurationError, ValidationError, type ValidationIssue } from '../core/errors.js';
import { loadZod } from './lazy-contract.js';
import { toValidationIssues } from './validation-issues.js';
import { type CompiledOptions, formatProblems, optionProblems } from './value-rules.js';

/** What a checked object is, so that a refusal says how to fix it. */
export interface InputRules {
  /** What one of its keys is. Problems with options are {@link ConfigurationError}s, others {@link ValidationError}s. */
  readonly noun: 'parameter' | 'field' | 'option';
  /** Where it was given, e.g. `client.calls.list()`. */
  readonly of: string;
  /** Names this object does not take but another argument does, each with where it goes. */
  readonly elsewhere?: Readonly<Record<string, string>> | undefined;
  /** How to send a name the SDK does not know yet: the last sentence of an unknown-name message. */
  readonly escapeHatch?: string | undefined;
}

/**
 * Checks the SDK's own options before anything is sent: first that every key is a known option (an
 * unknown one is refused, naming the closest known one), then the values, by the options' compiled check.
 * No zod: a client is built on every start, and these checks must not load it.
 *
 * @param options - the compiled check of the options (`OPTION_CHECKS`).
 * @param value - what the caller passed.
 * @param named - how to name things in the message.
 * @throws ConfigurationError listing every problem.
 */
export function checkOptions(options: CompiledOptions, value: unknown, named: InputRules): void {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    refuseUnknownKeys(value, options.names, named);
  }
  if (options.check(value)) return;
  const problems = optionProblems(options, value);
  const message = `Invalid ${named.noun}s for ${named.of}: ${formatProblems(problems)}`;
  const issues = problems.map(
    (problem): ValidationIssue => ({
      code: 'custom',
      message: problem.message,
      path: [...(problem.path ?? [])],
    }),
  );
  throw inputError(named, message, issues);
}

/**
 * Checks caller input against a schema of the contract: first that every key is one the schema declares
 * (an unknown key is refused, naming the closest known one), then the values. Asynchronous because zod is
 * loaded on first need.
 *
 * @param schema - the object schema.
 * @param value - what the caller passed.
 * @param rules - how to name things in the message.
 * @returns the parsed value.
 * @throws ValidationError listing every problem.
 */
export async function parseInput<Schema extends z.ZodObject>(
  schema: Schema,
  value: unknown,
  rules: InputRules,
): Promise<z.output<Schema>> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    refuseUnknownKeys(value, Object.keys(schema.shape), rules);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { z } = await loadZod();
  const message = `Invalid ${rules.noun}s for ${rules.of}: ${z.prettifyError(result.error)}`;
  throw inputError(rules, message, toValidationIssues(result.error.issues));
}

/**
 * Refuses the keys of `value` that are not in `known`, naming for each the closest known one (or the
 * argument where it belongs).
 *
 * @param value - the caller's object.
 * @param known - the keys it may have.
 * @param rules - how to name things in the message.
 * @throws ValidationError (ConfigurationError for options) when a key is unknown.
 */
export function refuseUnknownKeys(value: object, known: readonly string[], rules: InputRules): void {
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const plural = unknown.length === 1 ? '' : 's';
  const described = unknown.map((key) => `\`${key}\`${hintFor(key, known, rules)}`);
  const message = [
    `Unknown ${rules.noun}${plural} for ${rules.of}: ${described.join(', ')}.`,
    known.length > 0 ? `Known ${rules.noun}s: ${known.join(', ')}.` : `It takes no ${rules.noun}s.`,
    rules.escapeHatch,
  ]
    .filter((sentence) => sentence !== undefined)
    .join(' ');
  const issues = unknown.map(
    (key): ValidationIssue => ({
      code: 'unrecognized_keys',
      path: [key],
      message: `Unknown ${rules.noun} \`${key}\`${hintFor(key, known, rules)}`,
    }),
  );
  throw inputError(rules, message, issues);
}

function hintFor(key: string, known: readonly string[], rules: InputRules): string {
  const elsewhere = rules.elsewhere !== undefined && Object.hasOwn(rules.elsewhere, key);
  if (elsewhere) return ` (${rules.elsewhere?.[key]})`;
  const closest = closestName(key, known);
  return closest === undefined ? '' : ` (did you mean \`${closest}\`?)`;
}

function inputError(rules: InputRules, message: string, issues: readonly ValidationIssue[]) {
  return rules.noun === 'option'
    ? new ConfigurationError('invalid_option', message, issues)
    : new ValidationError(message, issues);
}
