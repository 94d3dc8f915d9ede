/** One thing wrong with a value: what, and where under it (empty or absent: the value itself). */
export interface Problem {
  readonly message: string;
  readonly path?: readonly (string | number)[];
}

/** Checks one value: the problems it has, none when it is fine. */
export type ValueRule = (value: unknown) => readonly Problem[];

/** A rule per option of `Options`; `undefined` always passes (every option is optional). */
export type OptionRules<Options> = { readonly [Name in keyof Required<Options>]: ValueRule };

/**
 * The problems of an object of options, each with its path from the object: an option that is not an
 * object at all is one problem at the top.
 *
 * @param rules - the rule of each known option (unknown names are refused before, by name).
 * @param value - what the caller passed.
 * @returns the problems, in the order of the caller's keys.
 */
export function optionProblems(rules: Readonly<Record<string, ValueRule>>, value: unknown): Problem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ message: `Invalid input: expected object, received ${valueTypeName(value)}` }];
  }
  const problems: Problem[] = [];
  for (const [name, option] of Object.entries(value)) {
    const rule = rules[name];
    if (rule === undefined || option === undefined) continue;
    for (const problem of rule(option))
      problems.push({ message: problem.message, path: [name, ...(problem.path ?? [])] });
  }
  return problems;
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
