// Writes src/core/checks/schemas.generated.ts: a compiled, zod-free check of every set of the SDK's own
// options (src/core/checks/schemas.ts), each problem with its schema node's message, compiled the way the
// contract's checks are (build/standalone-checks.ts, ajv's standalone code). Written by `npm run generate`;
// `npm run build` fails when the committed file is not what the schemas generate now. A test holds every
// compiled check equal to its schema.
import { _, type KeywordDefinition, type Name } from 'ajv';
import { z } from 'zod';
import { emitGenerated } from '../../../build/generated-file.js';
import { type JsonSchema, standaloneChecks } from '../../../build/standalone-checks.js';
import { OPTION_HINTS, OPTION_SCHEMAS } from '../src/core/checks/schemas.js';

/** What JSON cannot say about a value, written as code: no function is looked up at run time. */
const KEYWORDS: KeywordDefinition[] = [
  {
    keyword: 'isFunction',
    schemaType: 'boolean',
    code: (cxt) => cxt.fail(_`typeof ${cxt.data} != "function"`),
  },
  {
    keyword: 'instanceOf',
    schemaType: 'string',
    code: (cxt) => cxt.fail(_`!(${cxt.data} instanceof globalThis[${cxt.schema as string}])`),
  },
  {
    keyword: 'methods',
    schemaType: 'array',
    code: (cxt) => {
      const { data } = cxt;
      cxt.fail(_`typeof ${data} != "object" || ${data} === null`);
      for (const method of cxt.schema as string[]) cxt.fail(_`typeof ${data}?.[${method}] != "function"`);
    },
  },
  {
    keyword: 'plainObject',
    type: 'object',
    schemaType: 'boolean',
    code: (cxt) => cxt.fail(_`![Object.prototype, null].includes(Object.getPrototypeOf(${cxt.data}))`),
  },
  {
    // `required`, a missing field refused at its own path with its own message, after the unknown fields
    // and before those given (the order a refusal lists them in), not replaced by the object's message.
    keyword: 'present',
    type: 'object',
    schemaType: 'object',
    before: 'properties',
    error: { message: ({ params }) => params.message as Name },
    code: (cxt) => {
      for (const [name, message] of Object.entries(cxt.schema as Record<string, string>)) {
        cxt.gen.if(_`${cxt.data}[${name}] === undefined`, () => {
          cxt.error(false, { message: _`${message}` }, { instancePath: name as never });
          cxt.gen.code(_`vErrors[errors - 1].keyword = "errorMessage"`);
        });
      }
    },
  },
];

/** A name of `OPTION_SCHEMAS` as a check's name: `isClientOptions`. */
const checkName = (name: string) => `is${name.charAt(0).toUpperCase()}${name.slice(1)}Options`;

/**
 * The schema as ajv-errors reads it, each node's `errorMessage` its own (schemas.ts): a `required`
 * field's message is its own too (`present`), and a union of distinct types (`true`, `false` or `{ afterMs }`)
 * is one node, whose fields are checked only when the value is an object, as zod reads the branch of its shape.
 */
const withMessages = (schema: object): JsonSchema =>
  JSON.parse(JSON.stringify(schema), (_key, node: JsonSchema) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
    const { required, anyOf, ...rest } = node as JsonSchema & { required?: string[]; anyOf?: JsonSchema[] };
    const properties = rest.properties as Record<string, JsonSchema>;
    if (required)
      rest.present = Object.fromEntries(required.map((name) => [name, properties[name]?.errorMessage]));
    const types = anyOf?.map((branch) => branch.type) ?? [];
    const distinct = new Set(types).size === types.length && types.every((type) => typeof type === 'string');
    if (!anyOf || !distinct) return anyOf ? { ...rest, anyOf } : rest;
    return { ...Object.assign({}, ...anyOf), ...rest, type: types };
  });

const schemas = Object.fromEntries(
  Object.entries(OPTION_SCHEMAS).map(([name, schema]) => [
    name,
    withMessages(z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' })),
  ]),
);

/**
 * Each distinct option, checked by one function that every set taking it calls: the sets share most of
 * their options (`timeout` is in six), and a copy in each would more than double the checks' code.
 */
const options: Record<string, JsonSchema> = {};
const optionNames = new Map<string, string>();
for (const schema of Object.values(schemas)) {
  const properties = schema.properties as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties)) {
    const key = JSON.stringify(property);
    const shared = optionNames.get(key) ?? `option${optionNames.size}`;
    optionNames.set(key, shared);
    options[shared] = property;
    properties[name] = { $ref: shared };
  }
}
const checks = standaloneChecks(
  { ...schemas, ...options },
  Object.fromEntries(Object.keys(schemas).map((name) => [checkName(name), name])),
  // A refusal lists every problem, each with its message; collecting them costs nothing when there are none.
  { allErrors: true, keywords: KEYWORDS, sharedRefs: true },
);
const rows = Object.entries(schemas).map(([name, schema]) => {
  const names = JSON.stringify(Object.keys(schema.properties as object));
  return `  ${name}: { check: ${checkName(name)}, names: ${names} },`;
});

const code = `// Generated by packages/sdk/scripts/write-option-checks.ts from src/core/checks/schemas.ts, compiled by
// ajv's standalone code generation: do not edit. Each check says whether options pass their schema, without
// zod or ajv, and keeps each problem, with its message, in \`check.errors\`; a test holds it equal to its schema.
// Not type-checked: ajv writes JavaScript; the table is typed.
// @ts-nocheck
import type { CompiledOptions } from './messages.js';

${checks}
/**
 * The compiled check of each set of options, with their names.
 *
 * @example
 * \`\`\`ts
 * OPTION_CHECKS.toArray.check({ limit: -1 }); // false
 * \`\`\`
 */
export const OPTION_CHECKS: Readonly<Record<${Object.keys(schemas)
  .map((name) => JSON.stringify(name))
  .join(' | ')}, CompiledOptions>> = {
${rows.join('\n')}
};

/** Where a name a set of options does not take belongs: the hints of its unknown-name message. */
export const OPTION_HINTS = ${JSON.stringify(OPTION_HINTS)} as const;
`;

emitGenerated(new URL('../src/core/checks/schemas.generated.ts', import.meta.url), code);
