import { API_KEY_PREFIX, LIST_LIMITS, ORDERINGS } from '@company-data/contract';
import {
  AuthenticationError,
  type CompanyData,
  CompanyDataError,
  ENVIRONMENT_VARIABLES,
  PermissionDeniedError,
} from '@company-data/sdk';
import {
  type ConnectionOptions,
  createClient,
  FLAGS,
  refusedKeyError,
  resolveConnection,
} from '../connection.js';
import { UsageError } from '../errors.js';
import { ExchangeLog } from '../exchanges.js';
import { checkNotFound, checkThrottled, checkUnauthorized } from './error-answers.js';
import { checkFilter } from './filters.js';
import { type CheckName, type CheckResult, Findings } from './findings.js';
import { type ListSample, sampleList } from './list-sample.js';
import { Probe } from './probe.js';
import { checkReads } from './reads.js';
import { VERIFIED_RESOURCES } from './resources.js';
import { checkWebhooks } from './webhooks.js';

/**
 * Options of {@link verify}.
 *
 * @example
 * ```ts
 * const options: VerifyOptions = { baseURL: 'https://staging.example.com/v1', pages: 5, details: 10 };
 * ```
 */
export interface VerifyOptions extends ConnectionOptions {
  /** Items per page of every list read, 1 to 100. Default: 25. */
  pageSize?: number | undefined;
  /** Pages read from the head of each list in each ordering (the last page is read too). Default: 3. */
  pages?: number | undefined;
  /** Records retrieved by id per resource, with their transcripts. Default: 3. */
  details?: number | undefined;
  /** Also check the audience webhook (token or URL): adds, or finds, one fictional member. Default: not checked. */
  audienceWebhook?: string | undefined;
  /** Also check the lead webhook (token or URL): submits one fictional lead. Default: not checked. */
  leadWebhook?: string | undefined;
  /** Stops the run before its next request; `verify` then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/**
 * What `verify` found.
 *
 * @example
 * ```ts
 * const report: VerifyReport = await verify();
 * for (const check of report.checks.filter((check) => check.status === 'fail')) console.error(check.mismatches);
 * ```
 */
export interface VerifyReport {
  /** Whether no check found a mismatch. */
  ok: boolean;
  /** The server checked. */
  baseURL: string;
  /** Every check, in order, passed, failed or skipped. */
  checks: CheckResult[];
  /** What the webhook checks created on the server (empty without webhook tokens). */
  created: string[];
  /** Requests sent, every attempt counted. */
  requests: number;
  /** 429 answers met (and waited out). */
  throttled: number;
  /** How long it took, in ms. */
  durationMs: number;
}

/** A key no server issues, for the 401 check. */
const MADE_UP_KEY = `${API_KEY_PREFIX}company_data_verify_not_a_key`;

const DESCRIBE: Record<CheckName, (count: number) => string> = {
  records: (count) => `${count} records and answers match the contract's schemas`,
  pagination: (count) =>
    `${count} pages: page, page_size, count and total_pages agree; every id once across pages`,
  ordering: (count) =>
    `${count} items in created_at order, newest and oldest first; both orders list the same ids`,
  filters: (count) => `${count} filtered items carry the value filtered on; the counts of all values add up`,
  'not-found': (count) => `${count} unknown ids answer 404 {"error":{"detail":"Not found."}}`,
  unauthorized: (count) =>
    `${count} requests with a made-up key answer 401 {"error":{"detail":"Invalid API key."}}`,
  throttle: (count) => `${count} 429 answers carry "Request was throttled. Expected available in N seconds."`,
  webhooks: (count) => `${count} webhook answers match the contract`,
};

/**
 * Checks a live server against the contract the SDK and the mock server are built from, reading through the
 * SDK as an application would (read-only unless webhook tokens are given): every record of a sample of
 * pages and details against the schemas; the pagination invariants of every list in both orderings; the
 * filters; the 404 and 401 answers; the throttle message of any 429 met; and, only when asked, the webhooks.
 *
 * @param options - the server, how much to read, and webhook tokens.
 * @returns the report: `ok` is false when any check found a mismatch, each naming the operation, the field
 * and the value.
 * @throws {@link UsageError} for a bad option, a missing key or base URL, a key the server refuses or a
 * server that cannot be reached (nothing can be checked then).
 * @example
 * ```ts
 * import { verify } from '@company-data/cli';
 *
 * const report = await verify({ pages: 2 });
 * for (const check of report.checks) console.log(check.status, check.name, check.summary);
 * ```
 */
export async function verify(options: VerifyOptions = {}): Promise<VerifyReport> {
  const started = Date.now();
  const pageSize = whole(
    'pageSize',
    options.pageSize ?? LIST_LIMITS.defaultPageSize,
    LIST_LIMITS.minPageSize,
    LIST_LIMITS.maxPageSize,
  );
  const pages = whole('pages', options.pages ?? 3, 1, 1000);
  const details = whole('details', options.details ?? 3, 0, 100);
  const connection = resolveConnection(options);
  const log = new ExchangeLog();
  const client = createClient(connection, log, { validate: false });
  const badClient = createClient(connection, log, { validate: false, apiKey: MADE_UP_KEY });
  const findings = new Findings();
  const probe = new Probe(log, findings, options.signal);
  try {
    await checkReachable(client);
    for (const resource of VERIFIED_RESOURCES) {
      const samples: ListSample[] = [];
      for (const ordering of [...ORDERINGS].reverse()) {
        const sample = await sampleList(probe, client, resource, ordering, { pageSize, pages });
        if (sample) samples.push(sample);
      }
      const [newest, oldest] = samples;
      if (newest?.complete && oldest?.complete) {
        const listed = new Set(newest.ids);
        const same = newest.ids.length === oldest.ids.length && oldest.ids.every((id) => listed.has(id));
        if (!same)
          findings.fail('ordering', {
            operation: resource.list.operationId,
            request: `GET ${resource.list.path} (both orderings)`,
            field: 'data[].id',
            value: `${newest.ids.length} ids newest first, ${oldest.ids.length} oldest first, not the same`,
            expected: 'the same ids in both orderings',
          });
      }
      if (newest !== undefined) {
        await checkReads(probe, client, resource, newest.ids.slice(0, details));
        await checkFilter(probe, client, resource, newest.count, pageSize);
      }
    }
    await checkNotFound(probe, client);
    await checkUnauthorized(probe, badClient);
    const created = await checkWebhooks(probe, client, {
      audience: options.audienceWebhook,
      lead: options.leadWebhook,
    });
    checkThrottled(probe, log.throttled, connection.baseURL);
    const checks = findings.results((check, count) => DESCRIBE[check](count));
    return {
      ok: checks.every((check) => check.status !== 'fail'),
      baseURL: connection.baseURL,
      checks,
      created,
      requests: log.requests,
      throttled: log.throttled.length,
      durationMs: Date.now() - started,
    };
  } finally {
    await client.close();
    await badClient.close();
  }
}

/** One request first: a refused key or an unreachable server means nothing can be checked. */
async function checkReachable(client: CompanyData): Promise<void> {
  try {
    await client.users.list({ page_size: 1 });
  } catch (error) {
    if (error instanceof AuthenticationError) throw refusedKeyError(error);
    if (error instanceof PermissionDeniedError)
      throw new UsageError(
        'The API key may not read users: verify needs a key that reads all four resources (users, teams, recordings, calls).',
      );
    if (error instanceof CompanyDataError && error.status === undefined)
      throw new UsageError(
        `Cannot reach the server: ${error.message}. Check ${ENVIRONMENT_VARIABLES.baseURL} or ${FLAGS.baseURL}.`,
      );
  }
}

function whole(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new UsageError(`${name} expects a whole number from ${min} to ${max}; got ${value}.`);
  return value;
}
