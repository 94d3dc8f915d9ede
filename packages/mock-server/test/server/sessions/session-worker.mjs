// One worker of the parallel-suite test (parallel-workers.test.ts): a process of its own, as a pytest-xdist or
// vitest worker is, with a session of its own in one `company-data-mock`, over HTTP only. It prints what it
// saw as one JSON line; the test compares the workers' lines.

const root = process.env.MOCK_API_ROOT ?? '';
const serverAdmin = process.env.MOCK_ADMIN_TOKEN ?? '';
const worker = Number(process.env.WORKER);

let apiRequests = 0;

/**
 * @param {string} method
 * @param {string} url
 * @param {string} token
 * @param {unknown} [body]
 * @returns {Promise<{ status: number, json: any }>}
 */
async function http(method, url, token, body) {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

/** The session's quota: this many requests an hour. */
const quotaRequests = 40 + worker;

const made = await http('POST', `${root}/__admin/sessions`, serverAdmin, {
  clock: 'frozen',
  quota: { requests: quotaRequests, perSeconds: 3600 },
  activity: {
    callsPerMinute: (worker + 1) / 10,
    excusedShare: 0,
    recordingsPerHour: 0,
    deactivationsPerDay: 0,
    callDeletionsPerHour: 0,
  },
});
if (made.status !== 201)
  throw new Error(`POST /__admin/sessions answered ${made.status}: ${JSON.stringify(made.json)}`);
const session = made.json;
/** @type {(method: string, path: string, body?: unknown) => Promise<any>} */
const admin = async (method, path, body) => {
  const answer = await http(method, `${root}/__admin/${path}`, session.adminToken, body);
  if (answer.status >= 300)
    throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  return answer.json;
};
/** @param {string} path */
const api = (path) => {
  apiRequests++;
  return http('GET', `${session.baseURL}${path}`, session.keys.valid);
};

// Record changes, before the clock moves: every session starts from the same seed, so call `worker` of the
// first page is a different call in each worker.
const first = await api('/calls/?page_size=10');
const victim = first.json.data[worker].id;
await admin('DELETE', `records/calls/${victim}`);
const created = (await admin('POST', 'records/calls', { source: 'voice_agent', summary: `worker ${worker}` }))
  .data.id;

// The clock, and the activity it brings: (worker + 1) hours. The quota's window starts again after it.
const clock = await admin('POST', 'clock/advance', { ms: (worker + 1) * 3_600_000 });

// An armed fault: two 503s, then the list.
await admin('POST', 'faults', { path: '/v1/users/', status: 503, times: 2 });
/** @type {number[]} */
const faults = [];
for (let i = 0; i < 3; i++) faults.push((await api('/users/')).status);

// Every call, page by page.
/** @type {{ id: string, summary?: string }[]} */
const calls = [];
for (let page = 1; ; page++) {
  const answer = await api(`/calls/?page_size=100&page=${page}`);
  if (answer.status !== 200) throw new Error(`page ${page} answered ${answer.status}`);
  calls.push(...answer.json.data);
  if (page >= answer.json.pagination.total_pages) break;
}
const pages = Math.ceil(calls.length / 100);

// The quota: requests until the first 429, which comes within the quota's own count of requests.
let beforeThrottle = 0;
for (;;) {
  const answer = await api('/teams/');
  if (answer.status === 429) break;
  if (answer.status !== 200) throw new Error(`teams answered ${answer.status}`);
  beforeThrottle++;
  if (beforeThrottle > quotaRequests)
    throw new Error(`no 429 after ${beforeThrottle} requests, with a quota of ${quotaRequests} an hour`);
}

/** @type {{ keyName: string | null, status: number }[]} */
const journal = (await admin('GET', 'journal?limit=1000')).data;
const summary = await admin('GET', '');
console.log(
  JSON.stringify({
    worker,
    session: session.id,
    victim,
    created,
    now: clock.now,
    faults,
    callIds: calls.map((call) => call.id),
    workerSummaries: calls.map((call) => call.summary).filter((text) => /^worker \d+$/.test(text ?? '')),
    pages,
    beforeThrottle,
    apiRequests,
    journal: {
      length: journal.length,
      keyNames: [...new Set(journal.flatMap((entry) => (entry.keyName === null ? [] : [entry.keyName])))],
      withoutKey: journal.filter((entry) => entry.keyName === null).map((entry) => entry.status),
    },
    arrived: summary.records[0].arrived,
  }),
);
await admin('DELETE', `sessions/${session.id}`);
