/**
 * Thrown when a state cannot be restored: not a saved state, another version, a field missing or of the
 * wrong type, or a part that does not fit the world its options make (e.g. a changed record the seed does
 * not generate). Nothing is made then. A `RangeError`, as for other bad options.
 *
 * @example
 * ```ts
 * try {
 *   createMockServer({ state: JSON.parse(text) });
 * } catch (error) {
 *   if (error instanceof MockStateError) console.error(error.path, error.message); // e.g. clock.nowMs
 * }
 * ```
 */
export class MockStateError extends RangeError {
  /** Where in the state, e.g. `companies[0].calls.created[2].seed` (empty for the state as a whole). */
  readonly path: string;

  /**
   * @param path - where in the state.
   * @param problem - what is wrong there.
   * @param options - the error that caused it, if any.
   */
  constructor(path: string, problem: string, options?: ErrorOptions) {
    super(`Invalid mock state${path === '' ? '' : ` at ${path}`}: ${problem}`, options);
    this.name = 'MockStateError';
    this.path = path;
  }
}

/**
 * Runs one part of a restore, turning what it throws into a {@link MockStateError} at `path`.
 *
 * @param path - the part's place in the state.
 * @param restore - the part.
 */
export function atPath<Result>(path: string, restore: () => Result): Result {
  try {
    return restore();
  } catch (error) {
    if (error instanceof MockStateError) throw error;
    throw new MockStateError(path, error instanceof Error ? error.message : String(error), { cause: error });
  }
}
