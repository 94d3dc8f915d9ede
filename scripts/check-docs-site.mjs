// `npm run check:docs-site`: the docs site, as a reader's browser shows it. Run after `npm run docs`.
//
//   node scripts/check-docs-site.mjs [--out=<folder>]
//
// For each key page: its content is in the HTML itself (it renders without JavaScript, e.g. for a search
// engine or a reader who blocks scripts); then, in a real headless Chromium with JavaScript on, the page
// shows (typedoc's script hides the body until it runs), its sidebar lists the packages, and a screenshot
// is taken, saved for a person to look at and checked not to be blank (a blank page compresses to a few
// kilobytes). Chromium is Debian's `chromium`, which `npm test` installs first (scripts/system-packages.mjs)
// where it may; when it is missing, this script fails under CI and elsewhere says LOUDLY that the browser
// part was skipped, and still checks the HTML.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { programOrSkip } from './system-packages.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SITE = path.join(ROOT, 'docs', 'api');
const TIMEOUT_MS = 60_000;
/** Below this, a 1400×1000 screenshot is (nearly) one colour: nothing rendered. */
const MIN_SCREENSHOT_BYTES = 40_000;

/** Key pages, and a text each must show. */
const PAGES = [
  { file: 'index.html', text: 'Company Data API: TypeScript SDK and mock server' },
  { file: 'documents/Getting_started.html', text: 'Your first calls' },
  { file: 'modules/_company-data_sdk.html', text: 'Quick start' },
  { file: 'classes/_company-data_sdk.CompanyData.html', text: 'CompanyData' },
  { file: 'modules/_company-data_mock-server.html', text: 'startMockServer' },
  { file: 'modules/_company-data_mock-server._company-data_mock-server_msw.html', text: 'mswHandlers' },
  { file: 'documents/Mock_server_fixtures.html', text: 'The format', folded: 'JSON Schema' },
];

const outArg = process.argv.slice(2).find((arg) => arg.startsWith('--out='));
const out = outArg
  ? path.resolve(outArg.slice('--out='.length))
  : mkdtempSync(path.join(os.tmpdir(), 'docs-site-'));
mkdirSync(out, { recursive: true });
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
}

let chromium;
try {
  chromium = programOrSkip('chromium', { log: console.log });
} catch (error) {
  console.error(`check-docs-site: ${error.message}`);
  process.exit(1);
}
if (chromium !== undefined) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'docs-site-profile-'));
  try {
    for (const page of PAGES) checkInBrowser(chromium, profile, page);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

if (problems.length > 0) {
  console.log(`check-docs-site: ${problems.length} problems\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log(
    `check-docs-site: ${PAGES.length} key pages render their content without JavaScript${chromium ? `, and in ${chromium} with it; screenshots in ${out}` : ''}`,
  );
}

function checkInBrowser(browser, profile, page) {
  const url = pathToFileURL(path.join(SITE, page.file)).href;
  const common = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--hide-scrollbars',
    '--no-first-run',
    `--user-data-dir=${profile}`,
    '--window-size=1400,1000',
    // Lets typedoc's script run (it shows the page, at the latest 500 ms after load) before the capture.
    '--virtual-time-budget=3000',
  ];
  const dom = spawnSync(browser, [...common, '--dump-dom', url], { encoding: 'utf8', timeout: TIMEOUT_MS });
  if (dom.status !== 0) {
    problems.push(`${page.file}: chromium --dump-dom failed: ${dom.stderr.trim().split('\n').at(-1)}`);
    return;
  }
  const body = /<body([^>]*)>/.exec(dom.stdout)?.[1] ?? '';
  if (/display:\s*none/.test(body))
    problems.push(`${page.file}: the page is still hidden after its script ran`);
  if (!textOf(dom.stdout).includes(page.text))
    problems.push(`${page.file}: the browser shows no "${page.text}"`);
  const packages = [
    '@company-data/sdk',
    '@company-data/mock-server',
    '@company-data/contract',
    '@company-data/cli',
  ];
  const menu = /<nav class="tsd-navigation">([\s\S]*?)<\/nav>/.exec(dom.stdout)?.[1] ?? '';
  const missing = packages.filter((name) => !textOf(menu).includes(name));
  if (missing.length > 0) problems.push(`${page.file}: the sidebar lacks ${missing.join(', ')}`);
  const png = path.join(out, `${page.file.replace(/[/.]/g, '_')}.png`);
  const shot = spawnSync(browser, [...common, `--screenshot=${png}`, url], {
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
  });
  if (shot.status !== 0 || !existsSync(png)) {
    problems.push(`${page.file}: chromium --screenshot failed: ${shot.stderr?.trim().split('\n').at(-1)}`);
    return;
  }
  const size = statSync(png).size;
  if (size < MIN_SCREENSHOT_BYTES)
    problems.push(`${page.file}: the screenshot is (nearly) blank (${size} bytes)`);
  console.log(
    `ok    ${page.file}: shows "${page.text}", sidebar lists the packages, screenshot ${(size / 1000).toFixed(0)} kB`,
  );
}

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
