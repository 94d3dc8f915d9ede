import type { MockServer } from '../../../src/index.js';

/** One answer of the engine: its status and its body, byte for byte. */
export interface Answer {
  readonly path: string;
  readonly status: number;
  readonly body: string;
}

/**
 * Sends a request through `server.handle()` and returns the raw body.
 *
 * @param path - the path, with its query (e.g. `/v1/calls/?page_size=100`).
 */
export async function get(server: MockServer, path: string, key: string): Promise<Answer> {
  const mark = path.indexOf('?');
  const result = await server.handle({
    method: 'GET',
    path: mark < 0 ? path : path.slice(0, mark),
    search: mark < 0 ? '' : path.slice(mark + 1),
    headers: { authorization: `Bearer ${key}` },
  });
  if (result.drop) throw new Error(`${path}: dropped`);
  return { path, status: result.response.status, body: result.response.body };
}

/** Posts JSON to a path (a webhook). */
export async function post(server: MockServer, path: string, body: unknown): Promise<Answer> {
  const result = await server.handle({
    method: 'POST',
    path,
    search: '',
    headers: { 'content-type': 'application/json' },
    body: new TextEncoder().encode(JSON.stringify(body)),
  });
  if (result.drop) throw new Error(`${path}: dropped`);
  return { path, status: result.response.status, body: result.response.body };
}

/** The lists a client reads, with their filters. */
const LISTS = [
  '/v1/users/',
  '/v1/users/?is_active=true',
  '/v1/users/?is_active=false',
  '/v1/teams/',
  '/v1/recordings/',
  '/v1/calls/',
  '/v1/calls/?source=voice_agent',
  '/v1/calls/?source=integration',
];

/**
 * Every page of every list, in both orders (100 a page), then the detail of the first, last and a few
 * middle records of each resource (calls and recordings with their transcripts): the raw bodies.
 *
 * @param key - the key to read with.
 */
export async function everyBody(server: MockServer, key: string): Promise<Answer[]> {
  const answers: Answer[] = [];
  const ids: Record<string, string[]> = { users: [], teams: [], recordings: [], calls: [] };
  for (const list of LISTS)
    for (const ordering of ['-created_at', 'created_at']) {
      const join = list.includes('?') ? '&' : '?';
      for (let page = 1; ; page++) {
        const answer = await get(
          server,
          `${list}${join}page_size=100&ordering=${ordering}&page=${page}`,
          key,
        );
        answers.push(answer);
        if (answer.status !== 200) throw new Error(`${answer.path}: ${answer.status} ${answer.body}`);
        const json = JSON.parse(answer.body) as {
          data: { id: string }[];
          pagination: { total_pages: number };
        };
        if (!list.includes('?') && ordering === '-created_at') {
          const resource = list.split('/')[2] as string;
          ids[resource]?.push(...json.data.map((record) => record.id));
        }
        if (page >= json.pagination.total_pages) break;
      }
    }
  for (const [resource, all] of Object.entries(ids)) {
    const picks = new Set([
      ...all.slice(0, 6),
      ...all.slice(-3),
      ...all.filter((_, index) => index % 37 === 0),
    ]);
    for (const id of picks) {
      answers.push(await get(server, `/v1/${resource}/${id}/`, key));
      if (resource === 'calls' || resource === 'recordings')
        answers.push(await get(server, `/v1/${resource}/${id}/transcript/`, key));
    }
  }
  return answers;
}
