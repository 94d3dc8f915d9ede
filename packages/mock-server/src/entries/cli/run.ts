import { activitySpecText } from '../../data/activity/spec.js';
import { toQuota } from '../../data/fixture/build.js';
import { type Fixture, fixtureJsonSchema } from '../../data/fixture/schema.js';
import { DEFAULT_QUOTA, type Quota, THROTTLED_KEY_QUOTA } from '../../data/store/quota.js';
import { formatRequestJson, formatRequestText, type RequestEvent } from '../../inspect/request-log.js';
import { listenErrorMessage } from '../../serve/adapters/listen-address.js';
import type { FaultRateSpec } from '../../serve/engine/faults.js';
import type { LatencyDistribution } from '../../serve/engine/latency.js';
import { describeServer, type ServerSummary } from '../../server/admin/summary.js';
import { type StartMockServerOptions, startMockServer } from '../../server/create-mock-server.js';
import type { MockServer } from '../../server/mock-server.js';
import { idleText, sessionLimits } from '../../server/sessions/session-rules.js';
import { MockStateError } from '../../server/state/error.js';
import { MOCK_SERVER_VERSION } from '../../server/version.js';
import { type LogFormat, MOCK_USAGE, type MockCliRequest, parseMockCliArgs } from './args.js';
import { readFixtureFile, readStateFile } from './json-files.js';
import { unmatchedLog } from './unmatched-log.js';
import { usageErrorMessage } from './usage-error.js';

/** Where the CLI writes. */
export interface MockCliOutput {
  /** Normal output. */
  out(text: string): void;
  /** Errors and the request log. */
  err(text: string): void;
}

/** What became of a CLI run: an exit code, or a server serving until something stops it. */
export type MockCliOutcome =
  | { readonly kind: 'exit'; readonly code: number }
  | { readonly kind: 'serving'; readonly server: MockServer; readonly request: MockCliRequest };

/**
 * Runs the CLI: parses the arguments, starts the server and prints how to reach it.
 *
 * @param argv - arguments after the program name.
 * @param output - where to write.
 * @param cwd - what a relative fixture path is relative to.
 * @returns the running server with what was asked, or an exit code (0 after --help, --version and
 * --fixture-schema; 2 for a bad argument; 1 when the fixture or the port fails).
 */
export async function runMockCli(
  argv: readonly string[],
  output: MockCliOutput,
  cwd: string = process.cwd(),
): Promise<MockCliOutcome> {
  const exit = (code: number): MockCliOutcome => ({ kind: 'exit', code });
  let request: MockCliRequest;
  try {
    request = parseMockCliArgs(argv);
  } catch (error) {
    output.err(usageErrorMessage(error));
    return exit(2);
  }
  if (request.help) output.out(MOCK_USAGE);
  else if (request.version) output.out(`${MOCK_SERVER_VERSION}\n`);
  else if (request.fixtureSchema) output.out(`${JSON.stringify(fixtureJsonSchema(), null, 2)}\n`);
  if (request.help || request.version || request.fixtureSchema) return exit(0);

  const options: StartMockServerOptions = {
    ...request.options,
    onRequest: requestLog(request.log, output),
    onUnmatchedRequest: unmatchedLog(request.onUnmatched, output),
  };
  let server: MockServer;
  let stateFile: Awaited<ReturnType<typeof readStateFile>> | undefined;
  try {
    if (request.fixturePath !== undefined) options.fixture = await readFixtureFile(request.fixturePath, cwd);
    if (request.statePath !== undefined) {
      stateFile = await readStateFile(request.statePath, cwd);
      // The state holds the sizes (no size flag came with --state: the parser refused them).
      delete options.sizes;
      options.state = stateFile.state;
    }
    server = await startMockServer(options);
  } catch (error) {
    // A state's problem, at its place in the file.
    const message =
      error instanceof MockStateError && stateFile !== undefined
        ? `${stateFile.where(error.path)}: ${error.message}`
        : (listenErrorMessage(error, options) ?? (error as Error).message);
    output.err(`company-data-mock: ${message}\n`);
    return exit(1);
  }
  for (const { key, quota } of request.keyQuotas) {
    try {
      server.setKeyQuota(keyValue(server, key), quota);
    } catch {
      await server.close();
      const names = Object.keys(server.keys).join(', ');
      output.err(
        `company-data-mock: --throttle-key: no key "${key}". Use a well-known key's name (${names}) or the value of a key in your fixture.\n`,
      );
      return exit(2);
    }
  }
  output.out(
    request.json
      ? `${JSON.stringify({ pid: process.pid, version: MOCK_SERVER_VERSION, ...describeServer(server), quota: quotas(request, options.fixture), adminToken: server.adminToken })}\n`
      : banner(server, request, options.fixture),
  );
  return { kind: 'serving', server, request };
}

function requestLog(format: LogFormat, output: MockCliOutput): ((event: RequestEvent) => void) | undefined {
  if (format === 'off') return undefined;
  const line = format === 'json' ? formatRequestJson : formatRequestText;
  return (event) => output.err(`${line(event)}\n`);
}

function keyValue(server: MockServer, key: string): string {
  return Object.hasOwn(server.keys, key) ? server.keys[key as keyof MockServer['keys']] : key;
}

function quotaText(quota: Quota | false | undefined): string {
  return quota ? `${quota.requests} requests per ${quota.perSeconds} s` : 'none';
}

/**
 * The quotas in force: that of keys without their own, then each key's own: the throttled key's, the
 * fixture keys' (by value), and those set with --throttle-key (which win over the others).
 */
function quotas(
  request: MockCliRequest,
  fixture: Fixture | undefined,
): {
  default: Quota | false;
  keys: Record<string, Quota | false>;
} {
  const own = new Map<string, Quota | false>([['throttled', THROTTLED_KEY_QUOTA]]);
  for (const key of (fixture?.companies ?? []).flatMap((company) => company.keys ?? [])) {
    const quota = toQuota(key);
    if (quota !== undefined) own.set(key.value, quota);
  }
  for (const { key, quota } of request.keyQuotas) own.set(key, quota);
  return {
    default: (request.options.quota as Quota | false | undefined) ?? DEFAULT_QUOTA,
    keys: Object.fromEntries(own),
  };
}

/** The latency profile and fault rate asked for, as a banner line ('' for none). */
function troubleLine({ options: { latency, faultRate } }: MockCliRequest): string {
  const parts: string[] = [];
  if (latency !== undefined && !Array.isArray(latency)) {
    const wait = latency as LatencyDistribution;
    if ('fixedMs' in wait) parts.push(`latency ${wait.fixedMs} ms`);
    else if ('minMs' in wait) parts.push(`latency ${wait.minMs}..${wait.maxMs} ms`);
    else parts.push(`latency lognormal, median ${wait.medianMs} ms, p99 ${wait.p99Ms} ms`);
  }
  if (faultRate !== undefined && !Array.isArray(faultRate)) {
    const { rate, max } = faultRate as FaultRateSpec;
    parts.push(`${rate * 100}% of requests fail${max === undefined ? '' : ` (at most ${max})`}`);
  }
  return parts.length === 0 ? '' : `  Trouble    ${parts.join('; ')} (seeded by --seed)\n`;
}

/** One key's own quota, short: `2/10 s` or `off`. */
function ownQuotaText(quota: Quota | false | undefined): string {
  return quota ? `${quota.requests}/${quota.perSeconds} s` : 'off';
}

/** The default quota, then each key's own, in words. */
function quotaLine(request: MockCliRequest, fixture: Fixture | undefined): string {
  const { default: quota, keys } = quotas(request, fixture);
  const own = Object.entries(keys)
    .map(([key, quota]) => `${key} ${ownQuotaText(quota)}`)
    .join(', ');
  return `${quotaText(quota)} per key by default; own quotas: ${own}`;
}

/** The fixture's own keys, each with its name, company and what sets it apart, for the banner. */
function fixtureKeyLines(fixture: Fixture | undefined): string {
  const keys = (fixture?.companies ?? []).flatMap((company) =>
    (company.keys ?? []).map((key) => {
      const notes = [
        company.name,
        key.permissions === undefined ? undefined : `reads ${key.permissions.join(', ') || 'nothing'}`,
        key.revoked ? 'revoked' : undefined,
        key.expires_at ? `expires ${key.expires_at}` : undefined,
        key.quota === undefined && key.throttle === undefined
          ? undefined
          : `own quota ${ownQuotaText(toQuota(key))}`,
      ].filter((note) => note !== undefined);
      return `    ${key.value}   ${key.name ?? 'API key'} (${notes.join('; ')})`;
    }),
  );
  return keys.length === 0 ? '' : `\n  Your fixture's keys\n${keys.join('\n')}\n`;
}

/** The activity in force, as `--activity` would write it, or how to get one. */
function activityLine(server: MockServer): string {
  const activity = server.activity();
  if (activity === false) return 'none (--activity: calls arrive, get excused and deleted as the clock runs)';
  return `${activitySpecText(activity)} (seeded by --seed${server.clock.frozen ? '; comes as the clock is moved' : ''})`;
}

/** How much each journal keeps, and where to read what it dropped. */
function journalLine({ requests, changes }: ServerSummary['journals']): string {
  const kept = (limit: number | null) => (limit === null ? 'every' : `the newest ${limit}`);
  const dropped = requests.dropped + changes.dropped;
  return `${kept(requests.limit)} requests and ${kept(changes.limit)} changes (--journal-limit); ${dropped} dropped so far (GET /__admin/: journals)`;
}

/** Where a parallel suite gets a world per worker, and the limits it runs into. */
function sessionsLine({ maxSessions, sessionIdleMs }: MockCliRequest['options']): string {
  const { maxSessions: max, idleMs } = sessionLimits({ maxSessions, sessionIdleMs });
  const idle = idleMs === false ? 'never ending unused' : `each ending after ${idleText(idleMs)} unused`;
  return `a world of its own per test worker: POST /__admin/sessions, then its keys (up to ${max}, ${idle}; --max-sessions, --session-idle)`;
}

/** The process's memory and the primary company's records, for a long run to compare with later. */
function memoryLine({ memory, records }: ServerSummary): string {
  const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
  const [primary] = records;
  const counts =
    primary === undefined
      ? ''
      : `; ${primary.calls} calls, ${primary.recordings} recordings, ${primary.users} users, ${primary.teams} teams`;
  return `rss ${mb(memory.rss)}, heap ${mb(memory.heapUsed)}${counts} (GET /__admin/: memory, records)`;
}

function banner(server: MockServer, request: MockCliRequest, fixture?: Fixture): string {
  const summary = describeServer(server);
  const { keys, openapiURL, adminURL, webhooks } = summary;
  const { audiences, leadSources } = webhooks;
  const webhookLines = [
    ...audiences.map(
      (audience) => `    audience      POST ${audience.url}   (${audience.name}, ${audience.companyName})`,
    ),
    ...leadSources.map(
      (source) =>
        `    lead          POST ${source.url}   (${source.name}, ${source.companyName}${source.deleted ? ', deleted: 404' : ''})`,
    ),
  ];
  const clock = server.clock.frozen
    ? `${server.clock.now().toISOString()}, frozen (moves only through the admin API)`
    : `${server.clock.now().toISOString()}, running with real time (--freeze keeps it still)`;
  return `Company Data mock server ${MOCK_SERVER_VERSION} listening (pid ${process.pid})

  Base URL   ${server.baseURL}
  API root   ${server.apiRoot}
  OpenAPI    ${openapiURL}
  Clock      ${clock}
  Activity   ${activityLine(server)}
  Quota      ${quotaLine(request, fixture)}
  Journals   ${journalLine(summary.journals)}
  Sessions   ${sessionsLine(request.options)}
  Memory     ${memoryLine(summary)}
${troubleLine(request)}
  API keys (Authorization: Bearer <key>)
    valid           ${keys.valid}
    expired         ${keys.expired}
    revoked         ${keys.revoked}
    limited         ${keys.limited}   (users and teams only)
    noPermissions   ${keys.noPermissions}
    otherCompany    ${keys.otherCompany}   (another company)
    throttled       ${keys.throttled}   (429 after ${THROTTLED_KEY_QUOTA.requests} requests in ${THROTTLED_KEY_QUOTA.perSeconds} s)
${fixtureKeyLines(fixture)}
  Webhooks (no key)
${webhookLines.join('\n')}

  Admin API        ${adminURL}   (Authorization: Bearer ${server.adminToken})
  Watch page       ${summary.uiURL}   (in a browser: it asks for the admin token)

  Try: curl -H "Authorization: Bearer ${keys.valid}" "${server.baseURL}/calls/?page_size=5"
${request.log === 'off' ? '  Each request logged: --log text (or json).\n' : ''}
Press Ctrl+C to stop.
`;
}
