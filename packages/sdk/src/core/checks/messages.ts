import { closestName } from '@company-data/contract/runtime';

/** One thing wrong with a value: what, and where under it (empty or absent: the value itself). */
export interface Problem {
  readonly message: string;
  readonly path?: readonly (string | number)[];
}

/** A set of options' check, compiled from its schema (`schemas.generated.ts`), and their names in order. */
export interface CompiledOptions {
  /** After a refusal, `check.errors` holds each problem, with the message of the schema node that refused it. */
  readonly check: ((value: unknown) => boolean) & { errors?: readonly CheckError[] | null };
  readonly names: readonly string[];
}
type CheckError = { readonly instancePath: string; readonly message?: string };

/**
 * A name the SDK does not know, for a message: `` `perSecond` (did you mean `perSeconds`?) ``, or the name
 * alone when no known one is close. The one wording of every "did you mean" of the SDK.
 */
export function unknownName(name: string, known: readonly string[]): string {
  const closest = closestName(name, known);
  return closest === undefined ? `\`${name}\`` : `\`${name}\` (did you mean \`${closest}\`?)`;
}

/**
 * The problems of options, in the order of the caller's keys, `{received}` in a message naming the value's
 * type and `{field:a,b}` the unknown field (the last key of the path) with the closest of the names a, b. A
 * value refused as a whole (not a plain object, say) is one problem, not one more per missing field.
 */
export function optionProblems(options: CompiledOptions, value: unknown): Problem[] {
  const errors = options.check(value) ? [] : (options.check.errors ?? []);
  const problems = errors.map(({ instancePath, message = 'Invalid input' }) => {
    const path = instancePath.split('/').slice(1).map(unescapePointer);
    const at = path.reduce<unknown>((outer, key) => (outer as Record<string, unknown>)?.[key], value);
    const field = String(path.at(-1));
    const said = message
      .replace('{received}', () => valueTypeName(at))
      .replace(/\{field:([^}]*)\}/, (_, names: string) => unknownName(field, names.split(',')));
    return { message: said, path };
  });
  const within = (inner: string[]) =>
    problems.some(({ path }) => path.length < inner.length && path.every((key, at) => inner[at] === key));
  const keys = Object.keys(value ?? {});
  return problems
    .filter(({ path }) => !within(path))
    .sort((a, b) => keys.indexOf(a.path[0] as string) - keys.indexOf(b.path[0] as string))
    .map(({ message, path }) => (path.length === 0 ? { message } : { message, path }));
}

/** A JSON pointer's segment as written: `~1` is `/`, `~0` is `~`. */
const unescapePointer = (key: string) => key.replace(/~1/g, '/').replace(/~0/g, '~');

/** The problems as zod's `prettifyError` writes its issues, shallowest first: `✖ message`, `  → at path`. */
export function formatProblems(problems: readonly Problem[]): string {
  const depth = (problem: Problem) => problem.path?.length ?? 0;
  return [...problems]
    .sort((a, b) => depth(a) - depth(b))
    .map(({ message, path = [] }) =>
      path.length === 0 ? `✖ ${message}` : `✖ ${message}\n  → at ${dotPath(path)}`,
    )
    .join('\n');
}

/** `timeout`, `headers["x-id"]`, `items[0]`: a path as zod writes it. */
const dotPath = (path: readonly (string | number)[]) =>
  path
    .map((key, at) => {
      if (typeof key === 'number') return `[${key}]`;
      return /[^\w$]/.test(key) ? `[${JSON.stringify(key)}]` : at === 0 ? key : `.${key}`;
    })
    .join('');

/** A value's type as zod names it: `string`, `null`, `array`, `NaN`, `Infinity`, or a class (`Date`, `Map`). */
export function valueTypeName(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const plain = typeof value !== 'object' || Object.getPrototypeOf(value) === Object.prototype;
  const maker = plain ? undefined : (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof maker === 'string' && maker !== '' ? maker : typeof value;
}
