// Compiles JSON Schemas (as zod's `z.toJSONSchema` writes them) into plain JavaScript checks with ajv's
// standalone code generation: the checks run with neither zod nor ajv loaded. ajv is a devDependency of the
// repository, used only here, at generation time; the code it writes needs nothing of ajv at run time (this
// module refuses code that would import a runtime helper), so no package gains a dependency.
import { Ajv, type KeywordDefinition } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import ajvErrors from 'ajv-errors';

/** A JSON Schema node. */
export type JsonSchema = { [keyword: string]: unknown };

/** How to compile. */
export interface StandaloneOptions {
  /**
   * Collect every problem, each with the `errorMessage` of the schema node that refused it (ajv-errors),
   * instead of stopping at the first: for checks whose refusals list them (the SDK's options), not the hot path.
   */
  readonly allErrors?: boolean;
  /** Keywords beyond JSON Schema, each written as code (ajv's `code` keywords), none looked up at run time. */
  readonly keywords?: readonly KeywordDefinition[];
  /**
   * Keep each `$ref` a call of the named schema's own check, written once, instead of inlining a copy where
   * it is used: for checks that share parts and are not on the hot path (the SDK's option sets).
   */
  readonly sharedRefs?: boolean;
}

/**
 * The code of the checks, to put in a module: `const <name> = <check>;` for each entry of `exported` (the
 * module exports what it means to), each check `(value) => boolean`, its problems in `check.errors` after
 * a refusal (ajv's error objects: `instancePath`, `schemaPath`, `keyword`, `params`).
 *
 * @param schemas - by name; a `$ref` between them is the other's name.
 * @param exported - the name of each check, to the name of its schema.
 * @param options - see {@link StandaloneOptions}.
 * @returns the code (JavaScript, not typed).
 * @throws Error when a schema uses a keyword ajv's strict mode does not know, refers to itself, or the code
 * would need a helper of ajv at run time.
 */
export function standaloneChecks(
  schemas: Readonly<Record<string, JsonSchema>>,
  exported: Readonly<Record<string, string>>,
  options: StandaloneOptions = {},
): string {
  const ajv = new Ajv({
    code: { source: true, esm: true, lines: true },
    // Refuse what a schema says that the checks would ignore: a new kind of schema needs a decision.
    strict: true,
    allowUnionTypes: true,
    // zod writes "one of these fields" as `anyOf: [{ required: [a] }, { required: [b] }]` beside `properties`.
    strictRequired: false,
    allErrors: options.allErrors ?? false,
    // zod's formats come with their own `pattern`s, which ajv checks; `format` adds nothing to them.
    validateFormats: false,
    // Lengths and patterns as zod reads them: UTF-16 code units (no helper), a RegExp without the `u` flag.
    unicode: false,
    unicodeRegExp: false,
    messages: options.allErrors ?? false,
    // `unicode: false` is deprecated, yet it is how ajv counts lengths as zod does: hush that notice only.
    logger: {
      log: console.log,
      warn: (message: unknown) => {
        if (!String(message).startsWith('DEPRECATED: option unicode')) throw new Error(String(message));
      },
      error: console.error,
    },
    keywords: [...(options.keywords ?? [])],
    inlineRefs: !options.sharedRefs,
  });
  if (options.allErrors) ajvErrors(ajv);
  for (const [name, schema] of Object.entries(schemas)) {
    ajv.addSchema(openEnumsClosed(options.sharedRefs ? schema : refsInlined(schema, schemas)), name);
  }
  const code = standaloneCode(ajv, { ...exported })
    .replace(/^"use strict";\n/, '')
    .replace(/^export const /gm, 'const ');
  if (/\brequire\(|^import /m.test(code))
    throw new Error(
      'The generated checks import a helper of ajv at run time: choose options that need none.',
    );
  return withoutUnusedSchemas(code);
}

/**
 * The schema with every `$ref` replaced by the schema it names (and no `$id`, which zod writes once for a
 * schema registered under two names): one function per check, so that a list's items are checked without a
 * call each (ajv passes each call a fresh object and path string, 15 % of a page's check).
 */
function refsInlined(
  node: unknown,
  schemas: Readonly<Record<string, JsonSchema>>,
  seen: readonly string[] = [],
): JsonSchema {
  if (Array.isArray(node))
    return node.map((item) => refsInlined(item, schemas, seen)) as unknown as JsonSchema;
  if (typeof node !== 'object' || node === null) return node as JsonSchema;
  const { $ref, $id: _id, $schema: _dialect, ...rest } = node as JsonSchema;
  if (typeof $ref === 'string') {
    const target = schemas[$ref];
    if (target === undefined || seen.includes($ref))
      throw new Error(`The schema ${$ref} is unknown or refers to itself: a check cannot inline it`);
    return refsInlined({ ...target, ...rest }, schemas, [...seen, $ref]);
  }
  const copy: JsonSchema = {};
  for (const [keyword, value] of Object.entries(rest)) copy[keyword] = refsInlined(value, schemas, seen);
  return copy;
}

/**
 * The schema with every `anyOf` that has a bare `{ type }` branch reduced to that branch, where the others
 * are of the same type: zod writes an open enum (`z.union([z.enum(known), z.string()])`) that way, and a
 * bare string check accepts exactly what the union accepts, without ajv recording the known branch's miss
 * on every value outside it (an allocation per field on the hot path).
 */
function openEnumsClosed(node: unknown): JsonSchema {
  if (Array.isArray(node)) return node.map(openEnumsClosed) as unknown as JsonSchema;
  if (typeof node !== 'object' || node === null) return node as JsonSchema;
  const copy: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) copy[keyword] = openEnumsClosed(value);
  const branches = copy.anyOf as JsonSchema[] | undefined;
  const bare = branches?.find(
    (branch) => Object.keys(branch).length === 1 && typeof branch.type === 'string',
  );
  if (
    bare !== undefined &&
    copy.type === undefined &&
    branches?.every((branch) => branch.type === bare.type)
  ) {
    delete copy.anyOf;
    copy.type = bare.type;
  }
  return copy;
}

/** The code without the copies of schemas ajv writes beside the checks and that no check reads. */
function withoutUnusedSchemas(code: string): string {
  return code.replace(/^const (schema\d+) = .*;\n/gm, (line, name: string) =>
    new RegExp(`\\b${name}\\b`).test(code.replace(line, '')) ? line : '',
  );
}
