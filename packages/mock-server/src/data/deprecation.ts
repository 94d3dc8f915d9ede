/** Old names already warned about in this process: each warns once. */
const warned = new Set<string>();

/**
 * Warns, once per process for each old name, that a name is deprecated and which name replaces it. The old
 * name still works until the next minor release.
 *
 * @param old - the old name, as the user wrote it (e.g. `the option throttle`).
 * @param replacement - the name to use instead (e.g. `quota`).
 */
export function warnDeprecated(old: string, replacement: string): void {
  if (warned.has(old)) return;
  warned.add(old);
  process.emitWarning(
    `@company-data/mock-server: ${old} is deprecated; use ${replacement} (the old name works until the next minor release).`,
    { type: 'DeprecationWarning', code: 'COMPANY_DATA_MOCK_DEPRECATED' },
  );
}
