import { z } from 'zod';

/**
 * A record identifier: a UUID string (any version, case-insensitive hex).
 *
 * @example
 * ```ts
 * Uuid.parse('3f0c2a9e-4b1d-4c1e-9a7b-2d5e8f6a1b3c');
 * ```
 */
export const Uuid = z.guid();

/**
 * An ISO 8601 date-time string. The API sends UTC (`Z`); an explicit offset is accepted too.
 *
 * @example
 * ```ts
 * DateTime.parse('2026-01-31T09:30:00Z');
 * ```
 */
export const DateTime = z.iso.datetime({ offset: true });

/**
 * A phone number in E.164 format: `+`, country code, subscriber number, at most 15 digits.
 *
 * @example
 * ```ts
 * E164Phone.parse('+14155550123');
 * ```
 */
export const E164Phone = z.string().regex(/^\+[1-9]\d{1,14}$/, 'Expected an E.164 phone number');

/**
 * The TypeScript type of an open enumeration: the known values autocomplete, any other string
 * is still accepted so a value the server adds later never breaks a caller.
 *
 * @typeParam Known - the values listed in the spec as "values seen".
 */
export type OpenEnum<Known extends string> = Known | (string & {});

/**
 * Builds the schema of an open enumeration (the spec says "values seen"): the listed values are
 * documented, and any other string parses.
 *
 * @param values - the values the spec lists.
 * @returns a schema whose inferred type is {@link OpenEnum} of `values`.
 * @example
 * ```ts
 * const Direction = openEnum(['inbound']);
 * Direction.parse('outbound'); // accepted: the enumeration is open
 * ```
 */
export function openEnum<const Known extends readonly [string, ...string[]]>(
  values: Known,
): z.ZodType<OpenEnum<Known[number]>> {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<OpenEnum<Known[number]>>;
}

/**
 * Free key-value pairs (`custom_fields` of audience members and leads).
 *
 * @example
 * ```ts
 * CustomFieldsMap.parse({ plan: 'gold', visits: 3 });
 * ```
 */
export const CustomFieldsMap = z.record(z.string(), z.unknown());
