/**
 * Derives, from a contract schema, the same shapes with plain (strip-mode) objects instead of loose ones.
 * Figure 1 uses it as a reference: how much of the validation cost is the loose objects' pass-through of
 * unknown keys, rather than the checks themselves.
 */
import { z } from 'zod';

/** The same schema with every `looseObject` replaced by a strip-mode `object` (recursively). */
export function stripMode(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, value]) => [
        key,
        stripMode(value),
      ]),
    );
    return z.object(shape);
  }
  if (schema instanceof z.ZodArray) return z.array(stripMode(schema.element as z.ZodType));
  if (schema instanceof z.ZodNullable) return stripMode(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodOptional) return stripMode(schema.unwrap() as z.ZodType).optional();
  return schema;
}
