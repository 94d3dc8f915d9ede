import type { OnUnmatchedRequest } from '../../inspect/verify/unmatched.js';
import { UnmatchedRequestError, unmatchedLine } from '../../inspect/verify/unmatched.js';
import type { MockCliRequest } from './args.js';

/**
 * What `--on-unmatched` does, on the CLI's own stderr: `warn` writes a line per request the mock cannot
 * match; `error` writes it too and throws, so the server holds the request until `POST /__admin/verify`
 * reports it (or the command, stopping, exits 1 naming it).
 *
 * @param mode - the flag's value.
 * @param output - where the line goes.
 */
export function unmatchedLog(
  mode: MockCliRequest['onUnmatched'],
  output: { err(text: string): void },
): OnUnmatchedRequest {
  if (mode === 'ignore') return mode;
  return (request) => {
    output.err(`company-data-mock: ${unmatchedLine(request)}\n`);
    if (mode === 'error') throw new UnmatchedRequestError([request]);
  };
}
