/** One thing wrong with a value: what, and where under it (empty or absent: the value itself). */
export interface Problem {
  readonly message: string;
  readonly path?: readonly (string | number)[];
}

/** One problem as ajv's compiled checks record it. */
interface CheckError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: { readonly missingProperty?: string; readonly additionalProperty?: string };
}

/**
 * The compiled check of a set of options (generated into `option-checks.generated.ts` from
 * `option-schemas.ts`), with what a refusal needs to describe itself.
 */
export interface CompiledOptions {
  /** Whether the options pass; after a refusal, `check.errors` holds every problem. */
  readonly check: ((value: unknown) => boolean) & { errors?: readonly CheckError[] | null };
  /** The options' names, in order. */
  readonly names: readonly string[];
  /** The message of each place of the schema (a JSON pointer), in the order a refusal lists them. */
  readonly messages: Readonly<Record<string, string>>;
}

/**
 * The problems of options the compiled check refused, each with its path from the object and its
 * schema's message, in the order of the caller's keys (within one option, the order its schema lists them).
 *
 * @param options - the compiled check of the options.
 * @param value - what the caller passed.
 * @returns the problems, none repeated; none when the check passes.
 */
export function optionProblems(options: CompiledOptions, value: unknown): Problem[] {
  const places = Object.keys(options.messages);
  const keys = typeof value === 'object' && value !== null ? Object.keys(value) : [];
  const found = new Map<string, { message: string; path: (string | number)[]; order: number[] }>();
  const errors = options.check(value) ? [] : (options.check.errors ?? []);
  for (const { place, path } of withinUnions(errors.map(located))) {
    const template = options.messages[place] ?? 'Invalid input';
    const message = template.replace('{received}', () => valueTypeName(valueAt(value, path)));
    const order = [path.length === 0 ? -1 : keys.indexOf(path[0] as string), places.indexOf(place)];
    found.set(JSON.stringify([path, message]), { message, path, order });
  }
  const problems = [...found.values()];
  // A value refused as a whole (not an object, say) is one problem, not one more per field it lacks.
  const within = (inner: { path: readonly (string | number)[] }) =>
    problems.some(
      (outer) =>
        outer.path.length < inner.path.length && outer.path.every((key, index) => inner.path[index] === key),
    );
  const byOrder = (a: { order: number[] }, b: { order: number[] }) =>
    (a.order[0] as number) - (b.order[0] as number) || (a.order[1] as number) - (b.order[1] as number);
  return problems
    .filter((problem) => !within(problem))
    .sort(byOrder)
    .map(({ message, path }) => (path.length === 0 ? { message } : { message, path }));
}

/** A check's error, with the place of the schema whose message it shows and the path of the value it names. */
interface Located {
  readonly error: CheckError;
  readonly place: string;
  readonly path: (string | number)[];
}

function located(error: CheckError): Located {
  const path = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(unescapePointer);
  // A missing field is its own place's problem; an unknown key and every other, the place that refused it.
  let place = error.schemaPath.slice(0, error.schemaPath.lastIndexOf('/'));
  if (error.keyword === 'required' && error.params.missingProperty !== undefined) {
    place += `/properties/${error.params.missingProperty}`;
    path.push(error.params.missingProperty);
  } else if (error.keyword === 'additionalProperties' && error.params.additionalProperty !== undefined) {
    place = error.schemaPath;
    path.push(error.params.additionalProperty);
  }
  return { error, place, path };
}

/**
 * A value refused by every branch of a union (`true`, `false` or `{ afterMs }`) is described as zod does:
 * by the problems inside the branch whose shape it has (an unknown field of the object), or else by the
 * union's own message, never by each branch's type mismatch.
 */
function withinUnions(all: readonly Located[]): Located[] {
  const dropped = new Set<Located>();
  for (const union of all) {
    if (union.error.keyword !== 'anyOf') continue;
    const branches = new Map<string, Located[]>();
    for (const other of all) {
      const rest = other.error.schemaPath.slice(union.error.schemaPath.length);
      if (!rest.startsWith('/')) continue;
      const branch = rest.split('/')[1] as string;
      branches.set(branch, [...(branches.get(branch) ?? []), other]);
      dropped.add(other);
    }
    // The branch the value's shape matched: every problem of it lies inside the value.
    const matched = [...branches.values()].find((problems) =>
      problems.every((problem) => problem.path.length > union.path.length),
    );
    if (matched === undefined) continue;
    dropped.add(union);
    for (const problem of matched) dropped.delete(problem);
  }
  return all.filter((item) => !dropped.has(item));
}

/** A JSON pointer's segment as written: `~1` is `/`, `~0` is `~`. */
const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let at = value;
  for (const key of path)
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

/**
 * The problems as lines, as zod's `prettifyError` writes its issues (the SDK's messages read the same
 * whichever checked the value): `✖ message`, then `  → at path` — shallowest first.
 *
 * @param problems - what is wrong.
 * @returns the lines, joined.
 */
export function formatProblems(problems: readonly Problem[]): string {
  const depth = (problem: Problem) => problem.path?.length ?? 0;
  return [...problems]
    .sort((a, b) => depth(a) - depth(b))
    .flatMap((problem) =>
      depth(problem) === 0
        ? [`✖ ${problem.message}`]
        : [`✖ ${problem.message}`, `  → at ${dotPath(problem.path ?? [])}`],
    )
    .join('\n');
}

/** `timeout`, `headers["x-id"]`, `items[0]`: a path as zod writes it. */
function dotPath(path: readonly (string | number)[]): string {
  let written = '';
  for (const segment of path) {
    if (typeof segment === 'number') written += `[${segment}]`;
    else if (/[^\w$]/.test(segment)) written += `[${JSON.stringify(segment)}]`;
    else written += written === '' ? segment : `.${segment}`;
  }
  return written;
}

/**
 * What a value is, in a message: `string`, `null`, `array`, `NaN`, `Infinity`, or the class of an object
 * that is not a plain one (`Date`, `Map`) — the names zod uses.
 *
 * @param value - any value.
 * @returns its type's name.
 */
export function valueTypeName(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object' && Object.getPrototypeOf(value) !== Object.prototype) {
    const maker = (value as { constructor?: { name?: unknown } }).constructor;
    if (typeof maker?.name === 'string' && maker.name !== '') return maker.name;
  }
  return typeof value;
}
