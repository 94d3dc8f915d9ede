import {
  decodeSegment,
  fillPath,
  OPERATIONS,
  type OperationId,
  type OperationMeta,
  PATH_CHECKS,
  rootPath,
} from '@company-data/contract/runtime';
import { ValidationError } from '../core/errors.js';
import { methodName } from '../core/methods.js';
import { REDACTED } from '../core/scrubbed-logger.js';

/** Where a webhook call goes. */
export interface WebhookTarget {
  /** The URL to post to. */
  readonly url: string;
  /** The same URL with its token redacted, for messages and logs. */
  readonly shownUrl: string;
}

/** What locating a webhook needs of its row of the endpoint table. */
type WebhookOperation = Pick<OperationMeta, 'path' | 'base'> & { readonly operationId: string };

const webhooks: readonly OperationMeta[] = Object.values(OPERATIONS).filter(
  (operation) => operation.kind === 'webhook',
);

/**
 * The URL to post a webhook to, from either the bare token or the full URL copied from the web app.
 * A bare token is appended to the configured base; a URL is used as given (its origin and any path
 * prefix kept), once its path is checked to be this webhook's and its token a uuid.
 *
 * @param endpoint - the webhook's row of the endpoint table.
 * @param tokenOrUrl - `3f0c…` or `https://…/messaging-agent/webhook/3f0c…/`.
 * @param base - the configured base for this endpoint (only called for a bare token).
 * @returns the URL, and the URL to show.
 * @throws ValidationError for anything else; the message never repeats the token.
 */
export function resolveWebhookUrl(
  endpoint: WebhookOperation,
  tokenOrUrl: string,
  base: () => string,
): WebhookTarget {
  const input = typeof tokenOrUrl === 'string' ? tokenOrUrl.trim() : '';
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(input)) {
    const token = checkToken(endpoint, input);
    return target(`${base()}${fillPath(endpoint.path, { webhook_token: token })}`, token);
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalid('Invalid webhook URL: it cannot be parsed.');
  }
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  for (const candidate of webhooks) {
    const match = matchSuffix(segments, rootPath(candidate));
    if (!match) continue;
    if (candidate.operationId !== endpoint.operationId) {
      throw invalid(
        `This is the URL of another webhook (${candidate.summary.toLowerCase()}); use ${methodName(candidate)} for it.`,
      );
    }
    const token = checkToken(endpoint, match.token);
    const prefix = match.prefix.map((segment) => `/${segment}`).join('');
    return target(`${url.origin}${prefix}${fillPath(rootPath(endpoint), { webhook_token: token })}`, token);
  }
  throw invalid(`Invalid webhook URL: its path should end in ${rootPath(endpoint)}.`);
}

/** The URL, and the URL with its token (a uuid, so it stands nowhere else in it) redacted. */
function target(url: string, token: string): WebhookTarget {
  return { url, shownUrl: url.split(token).join(REDACTED) };
}

function checkToken(endpoint: WebhookOperation, token: string): string {
  if (!PATH_CHECKS[endpoint.operationId as OperationId]?.({ webhook_token: token })) {
    throw invalid('Invalid webhook token: expected the uuid token or the full webhook URL from the web app.');
  }
  return token;
}

function matchSuffix(
  segments: readonly string[],
  template: string,
): { prefix: string[]; token: string } | undefined {
  const parts = template.split('/').filter((part) => part !== '');
  const offset = segments.length - parts.length;
  if (offset < 0) return undefined;
  let token: string | undefined;
  for (const [index, part] of parts.entries()) {
    const segment = segments[offset + index] as string;
    if (part === '{webhook_token}') token = decodeSegment(segment);
    else if (part !== segment) return undefined;
  }
  return token === undefined ? undefined : { prefix: segments.slice(0, offset), token };
}

function invalid(message: string): ValidationError {
  return new ValidationError(message, [{ code: 'custom', message, path: ['tokenOrUrl'] }]);
}
