import { z } from 'zod';
import { ConfigurationError, ValidationError } from './errors.js';
import { closestName } from './suggest.js';

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
 * Checks caller input against an object schema before anything is sent: first that every key is one the
 * schema declares (an unknown key is refused, naming the closest known one), then the values.
 *
 * @param schema - the object schema.
 * @param value - what the caller passed.
 * @param rules - how to name things in the message (built only when the input is refused).
 * @returns the parsed value.
 * @throws ValidationError (ConfigurationError for options) listing every problem.
 */
export function parseInput<Schema extends z.ZodObject>(
  schema: Schema,
  value: unknown,
  rules: InputRules | (() => InputRules),
): z.output<Schema> {
  const named = typeof rules === 'function' ? rules() : rules;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    refuseUnknownKeys(value, Object.keys(schema.shape), named);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = `Invalid ${named.noun}s for ${named.of}: ${z.prettifyError(result.error)}`;
  throw inputError(named, message, result.error.issues);
}

/**
 * {@link parseInput} with a compiled check of the same schema first: input it passes is returned as given
 * (for schemas whose parsing changes nothing), and zod runs only to describe a refusal.
 *
 * @param check - the schema's compiled check, from `@company-data/contract/runtime`.
 * @param schema - the schema itself.
 * @param value - what the caller passed.
 * @param rules - how to name things in the message (built only when the input is refused).
 * @throws ValidationError (ConfigurationError for options) listing every problem.
 */
export function checkInput(
  check: ((value: unknown) => boolean) | undefined,
  schema: z.ZodObject,
  value: unknown,
  rules: () => InputRules,
): void {
  if (check?.(value)) return;
  parseInput(schema, value, rules);
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
    (key): z.core.$ZodIssue => ({
      code: 'unrecognized_keys',
      keys: [key],
      path: [],
      message: `Unknown ${rules.noun} \`${key}\`${hintFor(key, known, rules)}`,
      input: value as Record<string, unknown>,
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

function inputError(rules: InputRules, message: string, issues: readonly z.core.$ZodIssue[]) {
  return rules.noun === 'option'
    ? new ConfigurationError('invalid_option', message, issues)
    : new ValidationError(message, issues);
}
