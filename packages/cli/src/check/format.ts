// The summary of a check a person reads: what was compared, one line per kind found (its count, what it
// means, the first ids), and what to do.
import type { CheckReport } from './check-copy.js';
import { CHECK_KINDS, type CheckKind } from './findings.js';

/** What each kind means, as the summary says it. */
const MEANING: Record<CheckKind, string> = {
  missing: 'in the list, not in the copy',
  gone: 'in the copy, deleted from the list',
  stale: "in both, but the copy's record differs",
  duplicated: 'lines that repeat an id of an earlier line',
  newer: "created after the copy's last sync: the next sync takes them",
  skipped:
    'still in the list but not met by the walk (records deleted meanwhile shift the pages): not compared, check again',
};

/** The longest kind's name, for the column. */
const WIDTH = Math.max(...CHECK_KINDS.map((kind) => kind.length));

/**
 * The summary of a check.
 *
 * @param report - what the check found.
 * @param how - whether it was a repair, and what to do when the copy differs (a repair's flag, or how to
 *   rebuild a file).
 * @returns lines, each ending with a newline.
 */
export function formatCheckReport(report: CheckReport, how: { repair: boolean; fix: string }): string {
  const { list, destination, listed, copied } = report;
  const lines = [`Checked ${destination} against the list: ${listed} ${list} read, ${copied} in the copy.`];
  for (const kind of CHECK_KINDS) {
    const { count, ids } = report[kind];
    if (count === 0) continue;
    const more = count > ids.length ? `, … (${count - ids.length} more)` : '';
    lines.push(
      `  ${kind.padEnd(WIDTH)}  ${String(count).padStart(6)}  ${MEANING[kind]}: ${ids.join(', ')}${more}`,
    );
  }
  if (report.outcome === 'interrupted')
    lines.push(
      `Interrupted: the check is incomplete. ${how.repair ? 'What the repair stored stays; run' : 'Run'} the same command again.`,
    );
  else if (report.repaired && !report.equal) {
    const stored = report.missing.count + report.stale.count;
    lines.push(
      `Repaired: ${stored} missing or stale ${stored === 1 ? 'record' : 'records'} stored, ${report.gone.count} gone deleted; the copy now equals the list.`,
    );
  } else if (report.equal) lines.push('The copy equals the list.');
  else lines.push(`The copy differs from the list. ${how.fix}`);
  return `${lines.join('\n')}\n`;
}
