import type { VerifyReport } from './verify.js';

const LABEL = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;
/** Mismatches listed per check in the text report (the JSON report has them all). */
const LISTED = 20;

/**
 * The report in words: one line per check, every mismatch (up to 20 a check) naming the operation, the
 * request, the field, the value found and what the contract expects, then the totals.
 *
 * @param report - what `verify` found.
 */
export function formatReport(report: VerifyReport): string {
  const lines = [`company-data verify: ${report.baseURL}`, ''];
  for (const check of report.checks) {
    lines.push(`${LABEL[check.status]}  ${check.name.padEnd(12)} ${check.summary}`);
    for (const mismatch of check.mismatches.slice(0, LISTED))
      lines.push(
        `      ${mismatch.operation} ${mismatch.field}: ${mismatch.value}, expected ${mismatch.expected}`,
        `        (${mismatch.request})`,
      );
    const more = check.mismatches.length - LISTED;
    if (more > 0) lines.push(`      ... and ${more} more (--json lists them all)`);
  }
  if (report.created.length > 0)
    lines.push('', 'Created by the webhook checks:', ...report.created.map((line) => `  - ${line}`));
  const failed = report.checks.filter((check) => check.status === 'fail');
  const mismatches = failed.reduce((sum, check) => sum + check.mismatches.length, 0);
  const verdict = report.ok
    ? 'the server matches the contract'
    : `${mismatches} mismatch${mismatches === 1 ? '' : 'es'} in ${failed.map((check) => check.name).join(', ')}`;
  lines.push(
    '',
    `${verdict} (${report.requests} requests, ${report.throttled} answered 429, ${(report.durationMs / 1000).toFixed(1)} s)`,
  );
  return `${lines.join('\n')}\n`;
}
