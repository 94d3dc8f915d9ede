/**
 * The end of a message that points at the base URL, the one wording of every such hint, e.g. `check the
 * host of the base URL, set in the COMPANY_DATA_BASE_URL environment variable`.
 *
 * @param part - what of the base URL to check.
 * @param source - where the base URL came from, in words (`the \`baseURL\` option` or `the
 * COMPANY_DATA_BASE_URL environment variable`).
 */
export function checkTheBaseURL(part: 'host' | 'path', source: string): string {
  return `check the ${part} of the base URL, set in ${source}`;
}
