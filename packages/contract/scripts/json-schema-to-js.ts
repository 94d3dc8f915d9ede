// Compiles the JSON Schema that zod writes for the contract's schemas into plain TypeScript functions
// `(value: unknown) => boolean`: no zod, no ajv, no eval at run time. Only the keywords the contract's
// schemas use are supported; any other keyword stops the build, so a new kind of schema needs a decision.

/** A JSON Schema node as zod writes it. */
export type JsonSchema = { [keyword: string]: unknown };

const IGNORED = new Set([
  '$schema',
  '$id',
  'description',
  'title',
  'default',
  'examples',
  'format',
  'propertyNames',
]);
const HANDLED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'anyOf',
  '$ref',
]);

/** Turns named JSON Schemas (refs between them by name) into one TypeScript module's code. */
export class ValidatorCompiler {
  readonly #functions: string[] = [];
  readonly #patterns = new Map<string, string>();
  readonly #names = new Set<string>();

  /**
   * Compiles named schemas into functions of the same names.
   *
   * @param schemas - by name; a `$ref` is `#/<name>`.
   */
  addNamed(schemas: Readonly<Record<string, JsonSchema>>): void {
    // Named schemas claim their names first, so no helper of another schema can take one.
    for (const name of Object.keys(schemas)) this.#names.add(identifier(name));
    for (const [name, schema] of Object.entries(schemas)) this.#function(identifier(name), schema);
  }

  /** A function name not taken yet, from where the schema sits: a new schema never renames another's helpers. */
  #unique(name: string): string {
    let unique = name;
    for (let n = 2; this.#names.has(unique); n++) unique = `${name}${n}`;
    this.#names.add(unique);
    return unique;
  }

  /** The module's code: the hoisted patterns, then every function. */
  code(): string {
    const patterns = [...this.#patterns].map(
      ([source, name]) => `const ${name} = new RegExp(${JSON.stringify(source)});`,
    );
    return [...patterns, '', ...this.#functions].join('\n');
  }

  #function(name: string, schema: JsonSchema): string {
    // A named object or array is its own function, not a wrapper around an anonymous one.
    const structure = structureOf(schema);
    if (structure !== undefined) {
      this.#functions.push(this.#structureCode(name, structure, schema));
      return name;
    }
    const body = this.#check('value', schema, name);
    this.#functions.push(`function ${name}(value: unknown): boolean {\n  return ${body};\n}\n`);
    return name;
  }

  /**
   * A boolean expression that is true when `value` (an expression) passes `schema`; `where` names the
   * schema's place (e.g. `isCall_user`), so helpers keep their names when other schemas come and go.
   */
  #check(value: string, schema: JsonSchema, where: string): string {
    for (const keyword of Object.keys(schema)) {
      if (!HANDLED.has(keyword) && !IGNORED.has(keyword))
        throw new Error(
          `No compiled check for the JSON Schema keyword "${keyword}" in ${JSON.stringify(schema)}`,
        );
    }
    if (typeof schema.$ref === 'string') return `${identifier(schema.$ref.replace(/^#\//, ''))}(${value})`;
    const parts: string[] = [];
    if (schema.anyOf !== undefined)
      parts.push(
        `(${(schema.anyOf as JsonSchema[]).map((branch, index) => this.#check(value, branch, `${where}_or${index}`)).join(' || ')})`,
      );
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
      // An object or array node gets a function of its own: its checks need statements, not one expression.
      if (types.length === 1 && (types[0] === 'object' || types[0] === 'array'))
        parts.push(`${this.#structure(types[0], schema, where)}(${value})`);
      else parts.push(`(${types.map((type) => typeCheck(value, type)).join(' || ')})`);
    }
    // `required` beside no object type: a branch such as `{ required: ['phone'] }` of an anyOf.
    if (schema.required !== undefined && schema.type === undefined) {
      const keys = schema.required as string[];
      parts.push(
        `(typeof ${value} === 'object' && ${value} !== null && ${keys.map((key) => `(${value} as Record<string, unknown>)[${JSON.stringify(key)}] !== undefined`).join(' && ')})`,
      );
    }
    if (schema.enum !== undefined)
      parts.push(
        `(${(schema.enum as unknown[]).map((item) => `${value} === ${JSON.stringify(item)}`).join(' || ')})`,
      );
    if (schema.const !== undefined) parts.push(`${value} === ${JSON.stringify(schema.const)}`);
    if (schema.pattern !== undefined)
      parts.push(`${this.#pattern(schema.pattern as string, where)}.test(${value} as string)`);
    // String lengths as zod counts them: UTF-16 code units, JavaScript's length.
    if (schema.minLength !== undefined) parts.push(`(${value} as string).length >= ${schema.minLength}`);
    if (schema.maxLength !== undefined) parts.push(`(${value} as string).length <= ${schema.maxLength}`);
    if (schema.minimum !== undefined) parts.push(`(${value} as number) >= ${schema.minimum}`);
    if (schema.maximum !== undefined) parts.push(`(${value} as number) <= ${schema.maximum}`);
    if (schema.exclusiveMinimum !== undefined)
      parts.push(`(${value} as number) > ${schema.exclusiveMinimum}`);
    if (schema.exclusiveMaximum !== undefined)
      parts.push(`(${value} as number) < ${schema.exclusiveMaximum}`);
    return parts.length === 0 ? 'true' : parts.join(' && ');
  }

  #structure(type: 'object' | 'array', schema: JsonSchema, where: string): string {
    // Inside a named schema's own expression (beside an anyOf, say), `where` is that schema's name.
    const name = this.#unique(this.#names.has(where) ? `${where}_${type}` : where);
    this.#functions.push(this.#structureCode(name, type, schema));
    return name;
  }

  #structureCode(name: string, type: 'object' | 'array', schema: JsonSchema): string {
    const lines =
      type === 'array'
        ? [
            '  if (!Array.isArray(value)) return false;',
            '  for (let index = 0; index < value.length; index++) {',
            `    if (!(${schema.items === undefined ? 'true' : this.#check('value[index]', schema.items as JsonSchema, `${name}_item`)})) return false;`,
            '  }',
            '  return true;',
          ]
        : this.#objectLines(schema, name);
    return `function ${name}(value: unknown): boolean {\n${lines.join('\n')}\n}\n`;
  }

  #objectLines(schema: JsonSchema, where: string): string[] {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    const lines = [
      "  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;",
    ];
    const additional = schema.additionalProperties as JsonSchema | false | undefined;
    const checksOthers =
      additional !== undefined && additional !== false && Object.keys(additional).length > 0;
    // Only a check that reads keys names the object: no unused local in the generated code.
    if (Object.keys(properties).length > 0 || additional === false || checksOthers)
      lines.push('  const object = value as Record<string, unknown>;');
    for (const [key, property] of Object.entries(properties)) {
      const read = /^[A-Za-z_$][\w$]*$/.test(key) ? `object.${key}` : `object[${JSON.stringify(key)}]`;
      const check = this.#check(read, property, `${where}_${identifierPart(key)}`);
      // An optional property may be absent (or undefined, as zod reads it); a required one must pass.
      lines.push(
        required.has(key)
          ? `  if (!(${check})) return false;`
          : `  if (${read} !== undefined && !(${check})) return false;`,
      );
    }
    if (additional === false) {
      const known = JSON.stringify(Object.keys(properties));
      lines.push(`  for (const key of Object.keys(object)) if (!${known}.includes(key)) return false;`);
    } else if (checksOthers) {
      const check = this.#check('object[key]', additional, `${where}_value`);
      lines.push(`  for (const key of Object.keys(object)) if (!(${check})) return false;`);
    }
    lines.push('  return true;');
    return lines;
  }

  /** A pattern is compiled once, named after the first schema that uses it. */
  #pattern(source: string, where: string): string {
    let name = this.#patterns.get(source);
    if (name === undefined) {
      name = this.#unique(`${where}_pattern`);
      this.#patterns.set(source, name);
    }
    return name;
  }
}

function typeCheck(value: string, type: string): string {
  switch (type) {
    case 'string':
      return `typeof ${value} === 'string'`;
    case 'integer':
      return `Number.isSafeInteger(${value})`;
    case 'number':
      return `(typeof ${value} === 'number' && Number.isFinite(${value}))`;
    case 'boolean':
      return `typeof ${value} === 'boolean'`;
    case 'null':
      return `${value} === null`;
    default:
      throw new Error(`No compiled check for the JSON Schema type "${type}"`);
  }
}

/** A schema's name as a function name: letters, digits and underscores. */
export function identifier(name: string): string {
  const part = identifierPart(name);
  return `is${part.charAt(0).toUpperCase()}${part.slice(1)}`;
}

function identifierPart(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

/** The structure a schema is exactly (one object or array type and nothing beside it), if any. */
function structureOf(schema: JsonSchema): 'object' | 'array' | undefined {
  const { type } = schema;
  if (type !== 'object' && type !== 'array') return undefined;
  const beside = ['anyOf', 'enum', 'const', '$ref'].some((keyword) => schema[keyword] !== undefined);
  return beside ? undefined : type;
}
