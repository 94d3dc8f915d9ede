// What a reader types in place of a guide's placeholders. A placeholder is text in angle brackets in a shell
// command, `<the "valid" key it printed>`: "it" is the server the reader started last, and the value is
// read from what that server printed, as the reader reads it. A placeholder for the reader's own account
// (`<your API key>`) takes what Getting started exported, as a reader without an account keeps it. A
// placeholder not listed here, or an elided value (`svc_live_…`) nobody can type, fails the check: list it
// here, or write the command so it runs as written.

/**
 * Each placeholder, and how to fill it: a pattern whose first group is read from what the server printed, or
 * fixed text.
 *
 * @type {ReadonlyMap<string, RegExp | string>}
 */
const PLACEHOLDERS = new Map(
  /** @type {[string, RegExp | string][]} */ ([
    ['<the "valid" key it printed>', /^\s*valid\s+(svc_live_\S+)/m],
    ['<the first "audience" URL it printed>', /^\s*audience\s+POST\s+(\S+)/m],
    ['<the first "lead" URL it printed>', /^\s*lead\s+POST\s+(\S+)/m],
    ['<the token of an audience URL it printed>', /^\s*audience\s+POST\s+\S+\/webhook\/([^/\s]+)\//m],
    ['<the admin token it printed>', /Admin API.*\(Authorization: Bearer (\S+)\)/],
    ['<your API key>', '"$COMPANY_DATA_API_KEY"'],
    ['<your base URL, ending in /v1>', '"$COMPANY_DATA_BASE_URL"'],
  ]),
);

const PLACEHOLDER = /<[A-Za-z"][^<>\n]*>/g;

/**
 * The command as the reader types it: each placeholder replaced by its value.
 *
 * @param {string} command a command of a guide's shell block
 * @param {string | undefined} printed what the server started last printed (undefined: none started yet)
 * @throws {Error} for a placeholder this file does not list, a value the server did not print, or an
 *   elided value (`…`)
 */
export function fillPlaceholders(command, printed) {
  const filled = command.replace(PLACEHOLDER, (placeholder) => {
    const fill = PLACEHOLDERS.get(placeholder);
    if (fill === undefined)
      throw new Error(
        `${placeholder} is not a placeholder the check knows how to fill; list it in scripts/packaging/placeholders.mjs`,
      );
    if (typeof fill === 'string') return fill;
    if (printed === undefined) throw new Error(`${placeholder}: no server has been started before it`);
    const value = fill.exec(printed)?.[1];
    if (value === undefined)
      throw new Error(`${placeholder}: the server started last printed no such value:\n${printed.trim()}`);
    return value;
  });
  if (filled.includes('…'))
    throw new Error(
      'an elided value (…) cannot be typed as written; write a placeholder in angle brackets, listed in scripts/packaging/placeholders.mjs',
    );
  return filled;
}
