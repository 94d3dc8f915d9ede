// `npm run check:links`: crawls the docs site built by `npm run docs` (docs/api) with linkinator, from its
// landing page, and fails on a broken link or anchor, on a link to a raw `.md` file (a README or guide the
// site should render as a page), and on a page no link reaches. Links to other sites are listed, not
// fetched: the check runs offline.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { check } from 'linkinator';

const ROOT = path.resolve(import.meta.dirname, '..');
const SITE = path.join(ROOT, 'docs', 'api');

/** @type {string[]} */
let pages;
try {
  pages = readdirSync(SITE, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.html'));
} catch {
  console.error(`check-links: no site in ${path.relative(ROOT, SITE)}; run \`npm run docs\` first`);
  process.exit(1);
}

const isExternal = (/** @type {string} */ url) =>
  /^https?:\/\//.test(url) && !/^https?:\/\/(localhost|127\.0\.0\.1)[:/]/.test(url);
// Beside npm test's other steps on two cores, linkinator's local server once failed three requests (status
// 0, no answer) out of about 500 at its default 100 at once: fewer at once, and a request that gets no
// answer asked again, so that only a link that is really broken fails.
const result = await check({
  path: SITE,
  recurse: true,
  checkFragments: true,
  concurrency: 10,
  retryErrors: true,
  retryErrorsCount: 3,
  linksToSkip: async (url) => isExternal(url),
});

const shown = (/** @type {string} */ url) =>
  isExternal(url) ? url : sitePath(url) + (url.includes('#') ? `#${url.split('#')[1]}` : '');
const sitePath = (/** @type {string} */ url) =>
  path.relative(SITE, path.resolve(ROOT, decodeURIComponent(url.split('#')[0] ?? '')));
const problems = new Set();
for (const link of result.links) {
  // linkinator checks each address once, and names the first page it found it on.
  const where = `(first found on ${(link.parent && sitePath(link.parent)) || 'the landing page'})`;
  if (link.state === 'BROKEN') problems.add(`broken: ${shown(link.url)} (status ${link.status}) ${where}`);
  else if (!isExternal(link.url) && /\.md$/i.test(link.url.split('#')[0] ?? ''))
    problems.add(`raw markdown: ${shown(link.url)} ${where}`);
}
const reached = new Set(
  result.links.filter((link) => !isExternal(link.url)).map((link) => sitePath(link.url)),
);
for (const page of pages) if (!reached.has(page)) problems.add(`no link reaches ${page}`);

for (const problem of problems) console.log(`check-links: ${problem}`);
const external = new Set(result.links.filter((link) => isExternal(link.url)).map((link) => link.url));
console.log(
  `check-links: ${result.links.length - external.size} links and anchors on ${pages.length} pages, ${problems.size} problem(s); ${external.size} links to other sites not fetched (offline)`,
);
process.exitCode = problems.size === 0 ? 0 : 1;
