// What the two test files of this folder share: a page of calls read with a session's key, and a rendezvous
// through files, so that one file looks while the other's changes stand (and a run that does not put both
// files in workers at once fails, rather than passing without ever having run them side by side).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

export interface CallsPage {
  data: { id: string }[];
  pagination: { count: number };
}

/** A page of calls, as the API answers `key` at `baseURL`. */
export async function listCalls(baseURL: string, key: string): Promise<CallsPage> {
  const response = await fetch(`${baseURL}/calls/?page_size=100`, {
    headers: { authorization: `Bearer ${key}` },
  });
  if (!response.ok) throw new Error(`GET /v1/calls/ answered ${response.status}`);
  return (await response.json()) as CallsPage;
}

/** A folder of this run's own: named after the port of the run's mock. */
function folder(): string {
  const dir = path.join(import.meta.dirname, '.rendezvous', new URL(inject('companyDataMock').apiRoot).port);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Tells the other file that `name` happened, with what it needs to know. */
export function signal(name: string, value: unknown): void {
  // Written aside, then renamed: the other file, which waits for the name, never reads it half-written.
  const file = path.join(folder(), `${name}.json`);
  writeFileSync(`${file}.partial`, JSON.stringify(value));
  renameSync(`${file}.partial`, file);
}

/** Waits until the other file signals `name` (at most 30 s), and answers what it sent. */
export async function waitFor<T>(name: string): Promise<T> {
  const file = path.join(folder(), `${name}.json`);
  const until = Date.now() + 30_000;
  while (!existsSync(file)) {
    if (Date.now() > until)
      throw new Error(`the other test file never signalled "${name}": did both files run at once?`);
    await sleep(20);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}
