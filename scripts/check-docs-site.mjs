// `npm run check:docs-site`: the docs site, as a reader's browser shows it. Run after `npm run docs`.
//
//   node scripts/check-docs-site.mjs [--out=<folder>]
//
// For each key page: its content is in the HTML itself (it renders without JavaScript, e.g. for a search
// engine or a reader who blocks scripts), and so is its outline ("On this page"), with the text of each
// heading's inline code; then, in a real headless Chromium with JavaScript on, the page shows (typedoc's
// script hides the body until it runs), its sidebar lists the packages, its outline keeps the code, and a
// screenshot is taken, saved for a person to look at and checked not to be blank (a blank page compresses
// to a few kilobytes). The landing page points to the tarball route before its first install by name (which
// fails until the packages are published). And the search: a word only a guide's body text has, typed into
// the search box of the landing page, lists that guide, and a word of a guide's title or headings lists it
// among the first three, before the symbols named by it (screenshots too). The screenshots go to a folder of
// the temp dir, removed at the end, or to `--out`, kept. Chromium is Debian's `chromium`,
// which `npm test` installs first (scripts/system-packages.mjs) where it may; when it is missing, this
// script fails under CI and elsewhere says LOUDLY that the browser part was skipped, and still checks the HTML.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium as playwrightChromium } from 'playwright-core';
import { frontMatter } from './docs/markdown.mjs';
import { programOrSkip } from './system-packages.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SITE = path.join(ROOT, 'docs', 'api');
const TIMEOUT_MS = 60_000;
/** Below this, a 1400×1000 screenshot is (nearly) one colour: nothing rendered. */
const MIN_SCREENSHOT_BYTES = 40_000;

/**
 * Key pages, and a text each must show. `guide`: the markdown the page is made from; its headings with
 * inline code must be in the page's outline with the code's text. `folded`: a text the page shows only once
 * a reader opens a folded part.
 *
 * @typedef {{ file: string, text: string, guide?: string, folded?: string }} KeyPage
 * @type {KeyPage[]}
 */
const PAGES = [
  { file: 'index.html', text: 'Company Data API: TypeScript SDK and mock server' },
  { file: 'documents/Getting_started.html', text: 'Your first calls' },
  { file: 'modules/_company-data_sdk.html', text: 'Quick start' },
  { file: 'classes/_company-data_sdk.CompanyData.html', text: 'CompanyData' },
  {
    file: 'modules/_company-data_sdk._company-data_sdk_opentelemetry.html',
    text: 'CompanyDataInstrumentation',
  },
  { file: 'modules/_company-data_mock-server.html', text: 'startMockServer' },
  { file: 'modules/_company-data_mock-server._company-data_mock-server_msw.html', text: 'mswHandlers' },
  { file: 'documents/Mock_server_fixtures.html', text: 'The format', folded: 'JSON Schema' },
  {
    file: 'documents/Pagination_and_full_exports.html',
    text: 'Full exports: ordered prefetch',
    guide: 'docs/pagination.md',
  },
];
/**
 * The searches, each typed into the search box of the landing page, and the guide it must list. `body`: the
 * word is in the guide's body text only (not its title or headings, nor a symbol's name), and the guide must
 * be among the results. Otherwise the word is in the guide's title or headings, and the guide must be among
 * the first {@link HEADING_SEARCH_RANK} results, although symbols are named by the word (scripts/docs/search-headings-plugin.mjs).
 *
 * @typedef {{ word: string, guide: string, body?: true }} Search
 * @type {Search[]}
 */
const SEARCHES = [
  { word: 'spreadsheet', guide: 'docs/keeping-a-copy-up-to-date.md', body: true },
  { word: 'sync', guide: 'docs/keeping-a-copy-up-to-date.md' },
  { word: 'company-data-mock', guide: 'docs/mock-server.md' },
  { word: 'Retry-After', guide: 'docs/errors-and-retries.md' },
];
/** How high a guide is listed for a word of its title or headings, at the lowest. */
const HEADING_SEARCH_RANK = 3;
/** Where the landing page sends a reader for the packages before they are published. */
const TARBALL_ROUTE = 'documents/Getting_started.html#install';

const outArg = process.argv.slice(2).find((arg) => arg.startsWith('--out='));
// Without --out, the screenshots go to a folder of the temp dir that is removed at the end.
const out = outArg
  ? path.resolve(outArg.slice('--out='.length))
  : mkdtempSync(path.join(os.tmpdir(), 'docs-site-'));
if (!outArg) process.on('exit', () => rmSync(out, { recursive: true, force: true }));
mkdirSync(out, { recursive: true });
/** @type {string[]} */
const problems = [];

if (!existsSync(path.join(SITE, 'index.html'))) {
  console.error('check-docs-site: no docs/api/index.html; run `npm run docs` first');
  process.exit(2);
}

for (const page of PAGES) {
  const file = path.join(SITE, page.file);
  if (!existsSync(file)) {
    problems.push(`${page.file}: missing`);
    continue;
  }
  const html = readFileSync(file, 'utf8');
  const main = /<div class="col-content">([\s\S]*?)<\/div>\s*<div class="col-sidebar">/.exec(html)?.[1] ?? '';
  if (!textOf(main).includes(page.text))
    problems.push(`${page.file}: its HTML lacks "${page.text}" (renders only with JavaScript?)`);
  // A long block a reader rarely needs stays folded: its <details> is closed and holds it.
  const folded = new RegExp(`<details>\\s*<summary>[^<]*${page.folded}[\\s\\S]*?<pre>[\\s\\S]*?</details>`);
  if (page.folded && !folded.test(main))
    problems.push(`${page.file}: the ${page.folded} is not folded in a <details>`);
  const crumbs = textOf(/<ul class="tsd-breadcrumb"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? '');
  if (/(@company-data\/[\w/-]+)\s*\/?\s*\1(?![\w/-])/.test(crumbs))
    problems.push(`${page.file}: the breadcrumb repeats a name: ${crumbs.trim()}`);
  for (const heading of missingFromOutline(page, html))
    problems.push(`${page.file}: its HTML outline ("On this page") lacks the heading "${heading}"`);
}
checkTarballRouteFirst();

let chromium;
try {
  chromium = programOrSkip('chromium', { log: console.log });
} catch (error) {
  console.error(`check-docs-site: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
if (chromium !== undefined) {
  try {
    // One browser and one page for every key page and the search: starting chromium costs about 0.8
    // CPU-seconds. No sandbox: the check may run as root (CI containers), where Chromium's refuses to start.
    const browser = await playwrightChromium.launch({
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
      timeout: TIMEOUT_MS,
    });
    try {
      const tab = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      tab.setDefaultTimeout(TIMEOUT_MS);
      for (const page of PAGES) await checkInBrowser(tab, page);
      for (const search of SEARCHES) await checkSearch(tab, search);
    } finally {
      await browser.close();
    }
  } catch (error) {
    problems.push(`chromium: ${error instanceof Error ? error.message : error}`);
  }
}

if (problems.length > 0) {
  console.log(`check-docs-site: ${problems.length} problems\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log(
    `check-docs-site: ${PAGES.length} key pages render their content and outline without JavaScript${chromium ? `, and in ${chromium} with it, where the search finds a guide by its text and by its headings; ${outArg ? `screenshots in ${out}` : 'to keep the screenshots, pass --out=<folder>'}` : ''}`,
  );
}

/**
 * Opens the page in the tab and waits until typedoc's script has shown it (at the latest 500 ms after load)
 * and filled its sidebar from the navigation data; then checks what the page shows and takes its screenshot.
 *
 * @param {import('playwright-core').Page} tab - 1400×1000.
 * @param {KeyPage} page
 */
async function checkInBrowser(tab, page) {
  const url = pathToFileURL(path.join(SITE, page.file)).href;
  try {
    await tab.goto(url);
  } catch {
    problems.push(`${page.file}: chromium did not load it`);
    return;
  }
  const shown = `document.body.style.display !== 'none'`;
  const navigation = `(document.getElementById('tsd-nav-container')?.textContent ?? '').trim() !== 'Loading...'`;
  try {
    await tab.waitForFunction(`${shown} && ${navigation}`, undefined, { polling: 100 });
  } catch {
    // What did not happen is named below, from the page as it is.
  }
  const html = await tab.content();
  const body = /<body([^>]*)>/.exec(html)?.[1] ?? '';
  if (/display:\s*none/.test(body))
    problems.push(`${page.file}: the page is still hidden after its script ran`);
  if (!textOf(html).includes(page.text)) problems.push(`${page.file}: the browser shows no "${page.text}"`);
  const packages = [
    '@company-data/sdk',
    '@company-data/mock-server',
    '@company-data/contract',
    '@company-data/cli',
  ];
  const menu = /<nav class="tsd-navigation">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  const missing = packages.filter((name) => !textOf(menu).includes(name));
  if (missing.length > 0) problems.push(`${page.file}: the sidebar lacks ${missing.join(', ')}`);
  for (const heading of missingFromOutline(page, html))
    problems.push(`${page.file}: the browser's outline ("On this page") lacks the heading "${heading}"`);
  const png = path.join(out, `${page.file.replace(/[/.]/g, '_')}.png`);
  await tab.screenshot({ path: png, type: 'png' });
  const size = statSync(png).size;
  if (size < MIN_SCREENSHOT_BYTES)
    problems.push(`${page.file}: the screenshot is (nearly) blank (${size} bytes)`);
  console.log(
    `ok    ${page.file}: shows "${page.text}", sidebar lists the packages, screenshot ${(size / 1000).toFixed(0)} kB`,
  );
}

/**
 * The headings of the page's guide that have inline code and are missing from the page's outline, each as
 * the outline should show it (the code's text without its backticks).
 *
 * @param {KeyPage} page
 * @param {string} html
 */
function missingFromOutline(page, html) {
  if (!page.guide) return [];
  const prose = readFileSync(path.join(ROOT, page.guide), 'utf8').replace(/^```[\s\S]*?^```[ \t]*$/gm, '');
  const headings = [...prose.matchAll(/^#{2,6} (.*`.*)$/gm)].map(([, heading = '']) =>
    heading.replace(/`/g, ''),
  );
  if (headings.length === 0) return [`(none with inline code in ${page.guide}: name another guide)`];
  const outline = textOf(/<details[^>]*tsd-page-navigation[\s\S]*?<\/details>/.exec(html)?.[0] ?? '');
  return headings.filter((heading) => !outline.includes(heading));
}

/** The landing page: the route that works today (the tarballs) comes before the first install by name. */
function checkTarballRouteFirst() {
  const html = readFileSync(path.join(SITE, 'index.html'), 'utf8');
  const byName = [...html.matchAll(/<pre>[\s\S]*?<\/pre>/g)].find(([block]) =>
    /npm install [^\n]*@company-data\//.test(textOf(block)),
  );
  const route = html.indexOf(`href="${TARBALL_ROUTE}"`);
  if (route === -1) problems.push(`index.html: no link to the tarball route (${TARBALL_ROUTE})`);
  else if (byName && byName.index < route)
    problems.push(
      `index.html: its first install by name (which fails until the packages are published) comes before the link to the tarball route (${TARBALL_ROUTE})`,
    );
}

/**
 * Types a word into the search box of the landing page, as a reader does, and expects the guide among the
 * results: anywhere for a word of its body text (typedoc's search knows a guide's text only with
 * `searchInDocuments`), among the first {@link HEADING_SEARCH_RANK} for a word of its title or headings.
 *
 * @param {import('playwright-core').Page} tab - 1400×1000.
 * @param {Search} search
 */
async function checkSearch(tab, search) {
  const guide = readFileSync(path.join(ROOT, search.guide), 'utf8');
  const title = frontMatter(guide).title?.replace(/^"|"$/g, '');
  const headings = [...guide.matchAll(/^#{1,6} .*$/gm)].join('\n');
  const escaped = search.word.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const word = new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'i');
  const inHeadings = word.test(headings) || word.test(title ?? '');
  if (!word.test(guide) || inHeadings === Boolean(search.body)) {
    const where = search.body ? 'body text only' : 'title or headings';
    problems.push(`search: "${search.word}" is not a word of ${search.guide}'s ${where}: pick another`);
    return;
  }
  const png = path.join(out, `search_${search.word.replace(/\W/g, '_')}.png`);
  try {
    const url = pathToFileURL(path.join(SITE, 'index.html')).href;
    await tab.goto(url);
    await tab.waitForFunction(`document.body.style.display !== 'none'`, undefined, { polling: 100 });
    await tab.click('#tsd-search-trigger');
    await tab.focus('#tsd-search-input');
    await tab.keyboard.insertText(search.word);
    // The results, or typedoc's "no results" status (its input handler waits 200 ms after the last key).
    const found = await tab.waitForFunction(
      `(() => {
        const items = [...document.querySelectorAll('#tsd-search-results li')].map((li) => li.textContent.trim());
        const status = document.getElementById('tsd-search-status').textContent.trim();
        return items.length > 0 || status ? { items, status } : undefined;
      })()`,
      undefined,
      { polling: 100 },
    );
    /** @type {{ items: string[], status: string }} */
    const results = await found.jsonValue();
    await tab.screenshot({ path: png, type: 'png' });
    /** @type {string[]} */
    const items = results.items;
    const rank = items.indexOf(title ?? '') + 1;
    const shown = items.length > 0 ? items.map((item) => `"${item}"`).join(', ') : `"${results.status}"`;
    if (rank === 0)
      problems.push(
        `search: "${search.word}" (in ${search.guide}) does not list "${title}"; it shows ${shown}`,
      );
    else if (!search.body && rank > HEADING_SEARCH_RANK)
      problems.push(
        `search: "${search.word}" (in ${search.guide}'s title or headings) lists "${title}" at #${rank}, not in the first ${HEADING_SEARCH_RANK}; it shows ${shown}`,
      );
    else
      console.log(
        `ok    search: "${search.word}" lists the guide "${title}" at #${rank}, screenshot ${path.basename(png)}`,
      );
  } catch (error) {
    problems.push(`search: ${error instanceof Error ? error.message : error}`);
  }
}

/** @param {string} html */
function textOf(html) {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<wbr\s*\/?>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');
}
