import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  formatProblems,
  optionProblems,
  type Problem,
  valueTypeName,
} from '../../src/internal/value-rules.js';

// The SDK checks its options without zod (zod loads only when a refusal must be described), yet its
// messages must read as zod's do for parameters: these tests hold the two formats equal.

const zodProblems = (error: z.ZodError): Problem[] =>
  error.issues.map((issue) => ({ message: issue.message, path: issue.path as (string | number)[] }));

describe('formatProblems', () => {
  it('writes problems as zod prettifyError does: shallowest first, quoted keys, indexes', () => {
    const schema = z.object({
      headers: z.record(z.string(), z.string()),
      timeout: z.number(),
      items: z.array(z.string()),
    });
    const result = schema.safeParse({ headers: { 'x-id': 1, plain: 2 }, timeout: 'x', items: ['a', 3] });
    const error = (result as { error: z.ZodError }).error;
    const written = formatProblems(zodProblems(error));
    expect(written).toBe(z.prettifyError(error));
    expect(written.startsWith('✖ Invalid input: expected number, received string\n  → at timeout\n')).toBe(
      true,
    );
    expect(written).toContain('→ at headers["x-id"]');
    expect(written).toContain('→ at items[1]');
  });

  it('writes a problem of the value itself without a path line', () => {
    const result = z.object({}).safeParse(7);
    const error = (result as { error: z.ZodError }).error;
    expect(formatProblems(zodProblems(error))).toBe(z.prettifyError(error));
  });
});

describe('optionProblems', () => {
  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'fast'],
    ['NaN', Number.NaN],
    ['a function', () => 1],
    ['a bigint', 1n],
  ])('names %s as zod does when options are not an object', (_, value) => {
    const result = z.object({}).safeParse(value);
    const zodMessage = (result as { error: z.ZodError }).error.issues[0]?.message;
    expect(optionProblems({}, value)).toEqual([{ message: zodMessage }]);
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'fast'],
    ['NaN', Number.NaN],
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    ['a function', () => 1],
    ['a bigint', 1n],
  ])('names %s as zod does where a number is expected', (_, value) => {
    const result = z.number().safeParse(value);
    const zodMessage = (result as { error: z.ZodError }).error.issues[0]?.message;
    expect(`Invalid input: expected number, received ${valueTypeName(value)}`).toBe(zodMessage);
  });

  it('prefixes each rule problem with the option name, skipping undefined and unknown options', () => {
    const rules = {
      headers: (value: unknown) =>
        typeof value === 'object' ? [{ message: 'bad header', path: ['x-id'] }] : [],
      timeout: () => [{ message: 'bad timeout' }],
    };
    expect(optionProblems(rules, { headers: {}, timeout: undefined, other: 1 })).toEqual([
      { message: 'bad header', path: ['headers', 'x-id'] },
    ]);
  });
});
