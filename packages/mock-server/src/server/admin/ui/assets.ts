import { Router, type RouterRow } from '../../../serve/engine/router.js';
import type { MockResponse } from '../../../serve/http/types.js';
import { PAGE_HTML } from './page-html.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import { UI_PATH } from './ui-path.js';

/**
 * What the page may load: its own files and the admin API of its own origin, nothing from anywhere else
 * (no font, no script, no image from outside the mock), and no frame may hold it.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** One of the page's files: a row of its router, with the answer it always gets. */
interface PageFile extends RouterRow {
  readonly response: MockResponse;
}

function file(path: string, contentType: string, body: string): PageFile {
  return {
    method: 'GET',
    template: `${UI_PATH}${path}`,
    response: {
      status: 200,
      headers: {
        'content-type': contentType,
        // Checked again each time: a mock of a newer version serves its own page.
        'cache-control': 'no-cache',
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      },
      body,
    },
  };
}

/**
 * The watch page's files, served without the admin token (they are static and hold nothing of the world):
 * the page at {@link UI_PATH}, its script and its style beside it.
 */
export const UI_ROUTER = new Router<PageFile>([
  file('', 'text/html; charset=utf-8', PAGE_HTML),
  file('/app.js', 'text/javascript; charset=utf-8', PAGE_SCRIPT),
  file('/app.css', 'text/css; charset=utf-8', PAGE_STYLE),
]);
