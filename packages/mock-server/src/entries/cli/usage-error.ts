import { closestName } from '@company-data/contract/runtime';
import { MOCK_USAGE } from './args.js';

/** The program's name, as the CLI's messages start. */
const PROGRAM = 'company-data-mock';

/** Every flag the usage text lists (the one list of them a reader sees, so the hint can't drift from it). */
const KNOWN_FLAGS = [...new Set(MOCK_USAGE.match(/(?<=^|[\s,])--?[a-z][a-z-]*/gm) ?? [])];

/**
 * The short message for a command line the CLI refused: the problem on one line (an unknown flag with the
 * closest known one), then where the full usage is. The 35-line usage itself is not printed: it would
 * scroll the problem out of sight.
 *
 * @param error - what `parseMockCliArgs` threw.
 * @returns the lines to print on stderr.
 */
export function usageErrorMessage(error: unknown): string {
  const { code, message } = error as { code?: unknown; message: string };
  const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-[^']*)'/.exec(message)?.[1] : undefined;
  let problem = message;
  if (unknown !== undefined) {
    const flag = unknown.split('=')[0] as string;
    const closest = closestName(
      flag,
      KNOWN_FLAGS.filter((known) => known.startsWith('--') === flag.startsWith('--')),
    );
    problem = `unknown option ${flag}${closest === undefined ? '' : ` (did you mean ${closest}?)`}`;
  }
  return `${PROGRAM}: ${problem}\nRun ${PROGRAM} --help for every option.\n`;
}
