import type { z } from 'zod';
import { ConfigurationError, ValidationError, type ValidationIssue } from '../errors.js';
import { toValidationIssues } from './issues.js';
import { type CompiledOptions, formatProblems, optionProblems, unknownName } from './messages.js';
import { loadZod } from './zod-on-demand.js';

/**
 * What a checked object's keys are (a refused option is a {@link ConfigurationError}), where it was given
 * (`client.calls.list()`), where each name it does not take goes (a function is called only for a refusal),
 * and how to send a name the SDK does not know yet (the last sentence of an unknown-name message).
 */
export interface InputRules {
  readonly noun: 'parameter' | 'field' | 'option';
  readonly of: string;
  readonly elsewhere?: Hints | undefined;
  readonly escapeHatch?: string | undefined;
}
type Hints = Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>);

/**
 * Checks the SDK's own options by their compiled check: without zod, which a client built on every start
 * must not load. Throws a ConfigurationError naming an unknown option, else every problem.
 */
export function checkOptions(options: CompiledOptions, value: unknown, of: string, elsewhere?: Hints): void {
  refuseUnknownKeys(value, options.names, { noun: 'option', of, elsewhere });
  if (options.check(value)) return;
  const problems = optionProblems(options, value);
  const issues = problems.map(({ message, path = [] }) => ({ code: 'custom', message, path: [...path] }));
  throw inputError('option', `Invalid options for ${of}: ${formatProblems(problems)}`, issues);
}

/** Parses caller input by a schema of the contract (zod loaded on first need), or throws as checkOptions. */
export async function parseInput<Schema extends z.ZodObject>(
  schema: Schema,
  value: unknown,
  rules: InputRules,
): Promise<z.output<Schema>> {
  refuseUnknownKeys(value, Object.keys(schema.shape), rules);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { z } = await loadZod();
  const message = `Invalid ${rules.noun}s for ${rules.of}: ${z.prettifyError(result.error)}`;
  throw inputError(rules.noun, message, toValidationIssues(result.error.issues));
}

/** Refuses the keys of an object not in `known`, each with where it goes or the closest known name. */
export function refuseUnknownKeys(value: unknown, known: readonly string[], rules: InputRules): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const { noun, elsewhere } = rules;
  const hints = typeof elsewhere === 'function' ? elsewhere() : (elsewhere ?? {});
  const hinted = unknown.map((key) => {
    if (Object.hasOwn(hints, key)) return `\`${key}\` (${hints[key]})`;
    return unknownName(key, known);
  });
  const message = [
    `Unknown ${noun}${unknown.length === 1 ? '' : 's'} for ${rules.of}: ${hinted.join(', ')}.`,
    known.length > 0 ? `Known ${noun}s: ${known.join(', ')}.` : `It takes no ${noun}s.`,
    rules.escapeHatch ?? [],
  ];
  const issues = unknown.map((key, at) => ({
    code: 'unrecognized_keys',
    path: [key],
    message: `Unknown ${noun} ${hinted[at]}`,
  }));
  throw inputError(noun, message.flat().join(' '), issues);
}

/** A refusal: of options a {@link ConfigurationError}, of anything else a {@link ValidationError}. */
export function inputError(noun: InputRules['noun'], message: string, issues: readonly ValidationIssue[]) {
  return noun === 'option'
    ? new ConfigurationError('invalid_option', message, issues)
    : new ValidationError(message, issues);
}
