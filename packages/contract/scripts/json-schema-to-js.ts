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
  #anonymous = 0;

  /**
   * Compiles named schemas into functions of the same names.
   *
   * @param schemas - by name; a `$ref` is `#/<name>`.
   */
  addNamed(schemas: Readonly<Record<string, JsonSchema>>): void {
    for (const [name, schema] of Object.entries(schemas)) this.#function(identifier(name), schema);
  }

  /** The module's code: the hoisted patterns, then every function. */
  code(): string {
    const patterns = [...this.#patterns].map(
      ([source, name]) => `const ${name} = new RegExp(${JSON.stringify(source)});`,
    );
    return [...patterns, '', ...this.#functions].join('\n');
  }

  #function(name: string, schema: JsonSchema): string {
    const body = this.#check('value', schema);
    this.#functions.push(`function ${name}(value: unknown): boolean {\n  return ${body};\n}\n`);
    return name;
  }

  /** A boolean expression that is true when `value` (an expression) passes `schema`. */
  #check(value: string, schema: JsonSchema): string {
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
        `(${(schema.anyOf as JsonSchema[]).map((branch) => this.#check(value, branch)).join(' || ')})`,
      );
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
      // An object or array node gets a function of its own: its checks need statements, not one expression.
      if (types.length === 1 && (types[0] === 'object' || types[0] === 'array'))
        parts.push(`${this.#structure(types[0], schema)}(${value})`);
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
      parts.push(`${this.#pattern(schema.pattern as string)}.test(${value} as string)`);
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

  #structure(type: 'object' | 'array', schema: JsonSchema): string {
    const name = `${type}${this.#anonymous++}`;
    const lines =
      type === 'array'
        ? [
            '  if (!Array.isArray(value)) return false;',
            '  for (let index = 0; index < value.length; index++) {',
            `    if (!(${schema.items === undefined ? 'true' : this.#check('value[index]', schema.items as JsonSchema)})) return false;`,
            '  }',
            '  return true;',
          ]
        : this.#objectLines(schema);
    this.#functions.push(`function ${name}(value: unknown): boolean {\n${lines.join('\n')}\n}\n`);
    return name;
  }

  #objectLines(schema: JsonSchema): string[] {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    const lines = [
      "  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;",
      '  const object = value as Record<string, unknown>;',
    ];
    for (const [key, property] of Object.entries(properties)) {
      const read = `object[${JSON.stringify(key)}]`;
      const check = this.#check(read, property);
      // An optional property may be absent (or undefined, as zod reads it); a required one must pass.
      lines.push(
        required.has(key)
          ? `  if (!(${check})) return false;`
          : `  if (${read} !== undefined && !(${check})) return false;`,
      );
    }
    if (schema.additionalProperties === false) {
      const known = JSON.stringify(Object.keys(properties));
      lines.push(`  for (const key of Object.keys(object)) if (!${known}.includes(key)) return false;`);
    } else if (
      schema.additionalProperties !== undefined &&
      Object.keys(schema.additionalProperties).length > 0
    ) {
      const check = this.#check('object[key]', schema.additionalProperties as JsonSchema);
      lines.push(`  for (const key of Object.keys(object)) if (!(${check})) return false;`);
    }
    lines.push('  return true;');
    return lines;
  }

  #pattern(source: string): string {
    let name = this.#patterns.get(source);
    if (name === undefined) {
      name = `PATTERN_${this.#patterns.size}`;
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
  return `is${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
}
