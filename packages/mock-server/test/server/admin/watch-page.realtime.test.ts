// The watch page (`/__admin/ui`) in a real browser: Debian's Chromium driven by playwright-core, against mocks
// started in process and as the command, each on port 0, with the SDK sending what the page shows. Real time is
// the feature: the page is live. One browser for the file, one page reused by every test (starting Chromium
// costs about a CPU-second); each test gets a mock of its own, and types the token into the page as a person does.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CompanyData } from '@company-data/sdk';
import { type Browser, chromium, type Page } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockCli } from '../../../../../scripts/lib/mock-cli.mjs';
import { programOrSkip } from '../../../../../scripts/system-packages.mjs';
import { type MockServer, type ServerSummary, startMockServer } from '../../../src/index.js';

const CHROMIUM = programOrSkip('chromium', { log: console.warn });
/** The screenshot in the mock server's guide, and the size this file takes it at. */
const SCREENSHOT = fileURLToPath(new URL('../../../../../docs/images/watch-page.png', import.meta.url));
const SCREENSHOT_SIZE = { width: 1280, height: 800 };
/** Set to write the screenshot again (docs/releasing.md); otherwise the test checks the one committed. */
const UPDATE_SCREENSHOTS = process.env.COMPANY_DATA_UPDATE_SCREENSHOTS === '1';
/** How long a test waits for the page to show what it must: the page is live, so a few turns. */
const SOON = { timeout: 5_000 };
/** A phone's screen, on which the page must read without scrolling sideways. */
const PHONE = { width: 390, height: 844 };

/** Opens the page of a mock and types its admin token into the form, as a person does. */
async function openPage(page: Page, apiRoot: string, token: string) {
  await page.goto(`${apiRoot}/__admin/ui`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
}

/** The row of the page's request list whose path is `path` (the newest first). */
const rowsOf = (page: Page, path: string) =>
  page.locator('#request-list > li').filter({ has: page.locator('summary', { hasText: path }) });

describe.skipIf(CHROMIUM === undefined)('the watch page, in Chromium', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    // No sandbox: the tests may run as root (CI containers), where Chromium's sandbox refuses to start.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: SCREENSHOT_SIZE });
    // Beside the rest of npm test on two cores, Chromium has taken over 10 s to start.
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** A mock in process on port 0, closed after `test`. */
  async function withMock(test: (server: MockServer) => Promise<void>, options = {}) {
    const server = await startMockServer({ port: 0, clock: 'frozen', ...options });
    try {
      await test(server);
    } finally {
      // The page's stream ends with the server: closing never waits on it.
      await server.close();
    }
  }

  it('without the token, shows nothing but the token form, and keeps the token out of every URL (the command)', async () => {
    const mock = await startMockCli<ServerSummary & { adminToken: string }>();
    try {
      const { apiRoot, adminToken, keys } = mock.summary;
      const urls: string[] = [];
      page.on('request', (sent) => urls.push(sent.url()));
      await page.goto(`${apiRoot}/__admin/ui`);
      await page.getByLabel('Admin token').waitFor();
      expect(await page.locator('#app').isHidden()).toBe(true);
      // Nothing of the world reached the page: no key, and no call to the admin API without a token.
      expect(await page.content()).not.toContain(keys.valid);
      expect(urls.map((url) => new URL(url).pathname)).toEqual([
        '/__admin/ui',
        '/__admin/ui/app.css',
        '/__admin/ui/app.js',
      ]);

      await page.getByLabel('Admin token').fill('not-the-token');
      await page.getByRole('button', { name: 'Open' }).click();
      await page.getByRole('alert').filter({ hasText: 'Invalid admin token' }).waitFor();
      expect(await page.locator('#app').isHidden()).toBe(true);
      expect(await page.evaluate('sessionStorage.length')).toBe(0);

      await page.getByLabel('Admin token').fill(adminToken);
      await page.getByRole('button', { name: 'Open' }).click();
      await page.getByRole('status').filter({ hasText: 'Live: default' }).waitFor();
      expect(await page.evaluate('Object.values(sessionStorage)')).toEqual([adminToken]);
      // The token went in headers alone, and nothing was loaded from anywhere but the mock.
      expect(urls.filter((url) => url.includes(adminToken))).toEqual([]);
      expect(new Set(urls.map((url) => new URL(url).origin))).toEqual(new Set([apiRoot]));

      // Kept for the tab: a reload opens the page without asking; "Forget the token" asks again.
      await page.reload();
      await page.getByRole('status').filter({ hasText: 'Live: default' }).waitFor();
      await page.getByRole('button', { name: 'Forget the token' }).click();
      await page.getByLabel('Admin token').waitFor();
      expect(await page.locator('#app').isHidden()).toBe(true);
      page.removeAllListeners('request');
    } finally {
      await mock.stop();
    }
  });

  // A second of wall time on a machine that npm test's other steps may saturate: a page that polls or lags
  // fails every try, a scheduler's hiccup not twice more.
  it('shows a request the SDK sent within a second: method, path, status, key name (never the key), and its answer', {
    retry: 2,
  }, async () => {
    await withMock(async (server) => {
      await openPage(page, server.apiRoot, server.adminToken);
      const client = new CompanyData({ apiKey: server.keys.valid, baseURL: server.baseURL });
      try {
        const sentAt = performance.now();
        await client.calls.list({ page_size: 2 });
        await rowsOf(page, '/v1/calls/').waitFor({ timeout: 1_000 });
        expect(performance.now() - sentAt).toBeLessThan(1_000);
      } finally {
        await client.close();
      }
      const row = rowsOf(page, '/v1/calls/');
      const cells = await row.locator('summary .row > span').allInnerTexts();
      expect([cells[0], cells[1], cells[2], cells[4], cells[5]]).toEqual([
        'GET',
        '/v1/calls/?page_size=2&page=1',
        '200',
        'default',
        'Full access',
      ]);
      expect(cells[3]).toMatch(/^\d+(\.\d)? ms$/);
      // Opened from the keyboard: its headers (the key redacted) and the answer.
      await row.locator('summary').focus();
      await page.keyboard.press('Enter');
      const detail = row.locator('.detail');
      await detail.getByText('Bearer [REDACTED]').waitFor();
      await detail.getByRole('heading', { name: 'Answer body' }).waitFor();
      expect(await detail.locator('pre').last().innerText()).toContain('"total_pages": 120');
      expect(await page.content()).not.toContain(server.keys.valid);
    });
  });

  it('shows an unmatched request with its near miss', async () => {
    await withMock(async (server) => {
      await openPage(page, server.apiRoot, server.adminToken);
      const sent = await request(`${server.baseURL}/user/`, {
        headers: { authorization: `Bearer ${server.keys.valid}` },
      });
      await sent.body.dump();
      const row = rowsOf(page, '/v1/user/');
      await row.getByText('unmatched').waitFor();
      await row.locator('summary').click();
      await row.getByText('No operation of the API has this path (did you mean /v1/users/?).').waitFor();
      await row.getByRole('heading', { name: /^Near miss/ }).waitFor();
    });
  });

  it('turns the activity on and advances the clock an hour: the calls that arrived are in the API’s list', async () => {
    await withMock(async (server) => {
      await openPage(page, server.apiRoot, server.adminToken);
      const client = new CompanyData({ apiKey: server.keys.valid, baseURL: server.baseURL });
      try {
        const before = (await client.calls.list({ page_size: 1 })).pagination.count;
        await page.getByLabel('Activity on').check();
        await page.getByLabel('Calls a minute').fill('6');
        await page.getByRole('button', { name: 'Apply activity' }).click();
        await expect.poll(() => server.activity(), SOON).toMatchObject({ callsPerMinute: 6 });
        await page.getByRole('button', { name: 'Advance 1 h' }).click();
        await expect
          .poll(() => page.locator('#clock-now').innerText(), SOON)
          .toBe('2026-06-01T13:00:00Z (frozen)');
        const after = (await client.calls.list({ page_size: 1 })).pagination.count;
        // The default seed's hour at 6 calls a minute, less the hour's one deletion: the same on every run.
        expect(after - before).toBe(351);
        // The change journal shows them, newest first.
        await expect
          .poll(() => page.locator('#change-list li').first().innerText(), SOON)
          .toMatch(/created calls|deleted calls/);
      } finally {
        await client.close();
      }

      // The state, downloaded as the page offers it: the world with its activity.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download state' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('mock-state-default.json');
      const state = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
      expect(state.activity.activity.callsPerMinute).toBe(6);
    });
  });

  it('arms a 503: the next SDK call meets it and retries, and the page shows both answers', async () => {
    await withMock(async (server) => {
      await openPage(page, server.apiRoot, server.adminToken);
      await page.getByLabel('Method', { exact: true }).selectOption('GET');
      await page.getByLabel('Path', { exact: true }).fill('/v1/teams/');
      await page.getByLabel('Status', { exact: true }).fill('503');
      await page.getByLabel('Times', { exact: true }).fill('1');
      await page.getByRole('button', { name: 'Arm fault' }).click();
      await expect
        .poll(() => page.locator('#fault-list').innerText(), SOON)
        .toBe('GET /v1/teams/: 503, 1 more');
      expect(server.armedFaults()).toEqual([
        { method: 'GET', path: '/v1/teams/', status: 503, times: 1, remaining: 1 },
      ]);

      const retries: number[] = [];
      const client = new CompanyData({
        apiKey: server.keys.valid,
        baseURL: server.baseURL,
        onRetry: (event) => {
          retries.push(event.attempt);
        },
      });
      try {
        expect((await client.teams.list()).pagination.count).toBe(4);
      } finally {
        await client.close();
      }
      expect(retries).toEqual([1]);
      await expect.poll(() => rowsOf(page, '/v1/teams/').count(), SOON).toBe(2);
      const statuses = await rowsOf(page, '/v1/teams/')
        .locator('summary .row > span:nth-child(3)')
        .allInnerTexts();
      expect(statuses).toEqual(['200', '503']);
      await expect.poll(() => page.locator('#fault-list').innerText(), SOON).toBe('No fault armed.');

      // The screenshot of the guide: this page, as a person debugging a retry sees it.
      await rowsOf(page, '/v1/teams/').nth(1).locator('summary').click();
      await page.evaluate('window.scrollTo(0, 0)');
      await checkScreenshot(page);
      // On a phone's screen, nothing needs scrolling sideways.
      await page.setViewportSize(PHONE);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await page.setViewportSize(SCREENSHOT_SIZE);
    });
  });

  it('scopes everything to the session chosen: two sessions do not see each other', async () => {
    await withMock(async (server) => {
      const one = server.sessions.create();
      const two = server.sessions.create();
      await openPage(page, server.apiRoot, server.adminToken);
      await expect
        .poll(() => page.getByLabel('Session', { exact: true }).locator('option').count(), SOON)
        .toBe(3);
      await page.getByLabel('Session', { exact: true }).selectOption('s1');
      await page.getByRole('status').filter({ hasText: 'Live: s1' }).waitFor();

      const send = async (key: string, path: string) => {
        const sent = await request(`${server.baseURL}${path}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        await sent.body.dump();
      };
      await send(one.keys.valid, '/v1/teams/');
      await send(two.keys.valid, '/v1/users/');
      await rowsOf(page, '/v1/teams/').waitFor();
      expect(await rowsOf(page, '/v1/users/').count()).toBe(0);
      expect(await rowsOf(page, '/v1/teams/').locator('summary .row > span:nth-child(5)').innerText()).toBe(
        's1',
      );

      await page.getByLabel('Session', { exact: true }).selectOption('s2');
      await page.getByRole('status').filter({ hasText: 'Live: s2' }).waitFor();
      await rowsOf(page, '/v1/users/').waitFor();
      expect(await rowsOf(page, '/v1/teams/').count()).toBe(0);

      // A session that ends while it is shown: the page goes back to the server's own world, and lists it no more.
      two.end();
      await page.getByRole('status').filter({ hasText: 'Live: default' }).waitFor();
      await expect
        .poll(() => page.getByLabel('Session', { exact: true }).locator('option').allInnerTexts(), SOON)
        .toEqual(['default (the server’s own world)', 's1']);

      // A session's own admin token reaches that session alone: the page offers no other.
      await page.getByRole('button', { name: 'Forget the token' }).click();
      await openPage(page, server.apiRoot, one.adminToken);
      expect(await page.getByLabel('Session', { exact: true }).locator('option').allInnerTexts()).toEqual([
        's1',
      ]);
      await rowsOf(page, '/v1/teams/').waitFor();
      expect(await rowsOf(page, '/v1/users/').count()).toBe(0);
    });
  });
});

/**
 * Takes the screenshot of the guide when asked (`COMPANY_DATA_UPDATE_SCREENSHOTS=1`); otherwise checks that
 * the committed one is there, a PNG of the size this test takes (its pixels change with fonts and times).
 */
async function checkScreenshot(page: Page) {
  if (UPDATE_SCREENSHOTS) {
    writeFileSync(SCREENSHOT, await page.screenshot({ type: 'png' }));
    return;
  }
  expect(
    existsSync(SCREENSHOT),
    `${SCREENSHOT} is missing: COMPANY_DATA_UPDATE_SCREENSHOTS=1 writes it`,
  ).toBe(true);
  const png = readFileSync(SCREENSHOT);
  // A PNG's IHDR: its width and height, big-endian, at bytes 16 and 20.
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual(SCREENSHOT_SIZE);
}
