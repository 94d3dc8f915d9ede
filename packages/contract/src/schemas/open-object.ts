import { z } from 'zod';

/**
 * Builds an object schema that is closed in its type and open at run time. Its TypeScript type lists
 * exactly the declared fields, so a misspelt field (`user.emial`) is a compile error, as with the closed
 * interfaces of openai-node or stripe-node. At run time it parses like `z.looseObject`: a field the server
 * adds later is kept in the parsed object (read it with the SDK's `extraField()`), never an error, and the
 * JSON Schema allows additional properties.
 *
 * @param shape - the declared fields.
 * @returns a schema whose inferred type has no index signature, and which passes unknown fields through.
 * @example
 * ```ts
 * const Team = openObject({ id: z.string(), name: z.string() });
 * const team = Team.parse({ id: 't1', name: 'Ops', region: 'eu' }); // region is kept at run time
 * team.name; // typed
 * // team.region would not compile: read it with extraField(team, 'region')
 * ```
 */
export function openObject<const Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
): z.ZodObject<Shape, z.core.$strip> {
  // The type of a non-strict, non-loose object: what the inferred types need. The behaviour of a loose one.
  return z.looseObject(shape) as unknown as z.ZodObject<Shape, z.core.$strip>;
}
