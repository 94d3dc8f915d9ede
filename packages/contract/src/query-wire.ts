import { z } from 'zod';

/**
 * What a query string of an endpoint reads as: the typed values (defaults filled in), or why it is refused.
 *
 * @example
 * ```ts
 * const read: WireQueryResult = compileWireQuery(endpoints.listCalls.query).parse('page=2');
 * if (read.ok) console.log(read.values.page); // 2
 * ```
 */
export type WireQueryResult =
  | { readonly ok: true; readonly values: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly detail: string };

/**
 * The wire rules of one query parameter, derived from its schema.
 *
 * @example
 * ```ts
 * const rule: WireParamRule | undefined = compileWireQuery(endpoints.listUsers.query).params.get('is_active');
 * rule?.expected; // 'true or false (also True, False, 1 or 0)'
 * ```
 */
export interface WireParamRule {
  readonly name: string;
  /** What a valid value looks like, for error texts, e.g. `an integer from 1 to 100`. */
  readonly expected: string;
  /** The value when the parameter is absent (undefined when it has no default). */
  readonly defaultValue: unknown;
  /**
   * Reads a raw value.
   *
   * @param raw - the decoded query value.
   * @returns the typed value, or {@link INVALID_PARAM} when it breaks the rule.
   */
  decode(raw: string): unknown;
}

/**
 * The query-string reader of an endpoint, compiled once from its query schema.
 *
 * @example
 * ```ts
 * const wire: WireQuery = compileWireQuery(endpoints.listUsers.query);
 * wire.parse('is_active=true&page_size=5');
 * ```
 */
export interface WireQuery {
  /** The rules, by parameter name. */
  readonly params: ReadonlyMap<string, WireParamRule>;
  /**
   * Reads a query string. An unknown or repeated parameter and a value that breaks its rule are refused
   * with a detail naming the parameter and what is expected; nothing is clamped.
   *
   * @param search - the query string without `?` (empty when none).
   * @returns the values, defaults filled in, or the detail of the first problem.
   */
  parse(search: string): WireQueryResult;
}

/**
 * Returned by {@link WireParamRule.decode} for a value that breaks the rule.
 *
 * @example
 * ```ts
 * if (rule.decode('abc') === INVALID_PARAM) console.log(`expected ${rule.expected}`);
 * ```
 */
export const INVALID_PARAM: unique symbol = Symbol('invalid query parameter');

/** JSON Schema of one parameter, as zod writes it (the same the OpenAPI document shows). */
interface ParamJsonSchema {
  type?: string;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

/**
 * Compiles the wire rules of a query schema. The rules come from each parameter's JSON Schema, the one
 * the OpenAPI document publishes, so the mock server, the SDK (which checks queries before sending with
 * the check compiled from the same schema, `QUERY_CHECKS`) and the document cannot disagree: integers are decimal digits within the schema's bounds,
 * booleans are `true`/`false` (also `True`/`False`/`1`/`0`, as the API's filter library reads them),
 * enumerations are exact.
 *
 * @param schema - a query schema of the endpoint table (a zod object of optional parameters).
 * @returns the compiled reader.
 * @throws Error for a parameter whose schema has no wire rule yet (a new kind of parameter needs one).
 * @example
 * ```ts
 * compileWireQuery(endpoints.listCalls.query).parse('source=voice_agent').ok; // true
 * ```
 */
export function compileWireQuery(schema: z.ZodObject): WireQuery {
  const params = new Map<string, WireParamRule>();
  const defaults: [string, unknown][] = [];
  for (const [name, param] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const json = z.toJSONSchema(param, { io: 'input', unrepresentable: 'any' }) as ParamJsonSchema;
    const rule = ruleOf(name, json);
    params.set(name, rule);
    if (rule.defaultValue !== undefined) defaults.push([name, rule.defaultValue]);
  }
  const none: WireQueryResult = { ok: true, values: Object.freeze(Object.fromEntries(defaults)) };
  return {
    params,
    // Runs for every list request: no spread, no Set; the values object doubles as the record of what was seen.
    parse(search) {
      if (search === '') return none;
      const values: Record<string, unknown> = {};
      for (const [name, raw] of new URLSearchParams(search)) {
        const rule = params.get(name);
        if (!rule) return refuse(`Unknown query parameter "${name}".`);
        if (Object.hasOwn(values, name)) return refuse(`Query parameter "${name}" was given more than once.`);
        const value = rule.decode(raw);
        if (value === INVALID_PARAM) return refuse(`Invalid ${name} "${raw}": expected ${rule.expected}.`);
        values[name] = value;
      }
      for (const [name, value] of defaults) if (!Object.hasOwn(values, name)) values[name] = value;
      return { ok: true, values };
    },
  };
}

function refuse(detail: string): WireQueryResult {
  return { ok: false, detail };
}

const INTEGER = /^-?[0-9]+$/;
// A Map, not an object: a raw value such as "constructor" must not find Object.prototype's.
const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['false', false],
  ['True', true],
  ['False', false],
  ['1', true],
  ['0', false],
]);

/**
 * What a boolean query parameter accepts on the wire, in words: `true` and `false`, and the other spellings
 * the API's filter library reads. One text for the 400 message and the OpenAPI document's parameter
 * description, so both say what the mock does.
 *
 * @example
 * ```ts
 * import { BOOLEAN_QUERY_VALUES } from '@company-data/contract';
 *
 * console.log(`is_active: ${BOOLEAN_QUERY_VALUES}`); // is_active: true or false (also True, False, 1 or 0)
 * ```
 */
export const BOOLEAN_QUERY_VALUES = `true or false (also ${[...BOOLEANS.keys()]
  .slice(2)
  .join(', ')
  .replace(/, (?=[^,]*$)/, ' or ')})`;

function ruleOf(name: string, json: ParamJsonSchema): WireParamRule {
  const defaultValue = json.default;
  if (json.enum !== undefined) {
    const values = json.enum.map(String);
    return {
      name,
      expected: `one of ${values.join(', ')}`,
      defaultValue,
      decode: (raw) => (values.includes(raw) ? raw : INVALID_PARAM),
    };
  }
  switch (json.type) {
    case 'integer': {
      const min = json.minimum ?? Number.MIN_SAFE_INTEGER;
      const max = json.maximum ?? Number.MAX_SAFE_INTEGER;
      return {
        name,
        expected: `an integer from ${min} to ${max}`,
        defaultValue,
        decode: (raw) => {
          if (!INTEGER.test(raw)) return INVALID_PARAM;
          // Digits beyond what a double holds round, but never back inside the bounds (at most 2^53 − 1).
          const value = Number(raw);
          return value >= min && value <= max ? value : INVALID_PARAM;
        },
      };
    }
    case 'boolean':
      return {
        name,
        expected: BOOLEAN_QUERY_VALUES,
        defaultValue,
        decode: (raw) => BOOLEANS.get(raw) ?? INVALID_PARAM,
      };
    case 'string':
      return { name, expected: 'a string', defaultValue, decode: (raw) => raw };
    default:
      throw new Error(`Query parameter "${name}" has no wire rule for the schema ${JSON.stringify(json)}`);
  }
}
