import {
  decodeSegment,
  type EndpointDefinition,
  endpointList,
  fillPath,
  rootPath,
} from '@company-data/contract';
import { ValidationError } from './errors.js';

/** The SDK method of each webhook, to point a caller holding the wrong URL to the right one. */
const METHOD_OF: Record<string, string> = {
  addAudienceMember: 'client.audiences.addMember()',
  submitLead: 'client.leads.submit()',
};

const webhooks = endpointList.filter((endpoint) => endpoint.kind === 'webhook');

/**
 * The URL to post a webhook to, from either the bare token or the full URL copied from the web app.
 * A bare token is appended to the configured base; a URL is used as given (its origin and any path
 * prefix kept), once its path is checked to be this webhook's and its token a uuid.
 *
 * @param endpoint - the webhook's row of the endpoint table.
 * @param tokenOrUrl - `3f0c…` or `https://…/messaging-agent/webhook/3f0c…/`.
 * @param base - the configured base for this endpoint (only called for a bare token).
 * @throws ValidationError for anything else; the message never repeats the token.
 */
export function resolveWebhookUrl(
  endpoint: EndpointDefinition,
  tokenOrUrl: string,
  base: () => string,
): string {
  const input = typeof tokenOrUrl === 'string' ? tokenOrUrl.trim() : '';
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(input)) {
    return `${base()}${fillPath(endpoint.path, { webhook_token: checkToken(endpoint, input) })}`;
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
        `This is the URL of another webhook (${candidate.summary.toLowerCase()}); use ${METHOD_OF[candidate.operationId]} for it.`,
      );
    }
    const token = checkToken(endpoint, match.token);
    const prefix = match.prefix.map((segment) => `/${segment}`).join('');
    return `${url.origin}${prefix}${fillPath(rootPath(endpoint), { webhook_token: token })}`;
  }
  throw invalid(`Invalid webhook URL: its path should end in ${rootPath(endpoint)}.`);
}

function checkToken(endpoint: EndpointDefinition, token: string): string {
  const result = endpoint.pathParams.safeParse({ webhook_token: token });
  if (!result.success) {
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
  return new ValidationError(message, [{ code: 'custom', message, path: ['tokenOrUrl'], input: undefined }]);
}
