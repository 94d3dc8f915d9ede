// A check of a copy against its list: the whole list read through the SDK, page by page, each page compared
// with the copy (./file-comparison.ts, ./postgres-comparison.ts); then every id of the copy that no page
// showed is looked up by id, since a record deleted while the walk read shifts the pages and hides another
// (the offset pages' known gap, see Page in the SDK): only a 404 (or an id the SDK refuses to send, not being
// an id of the API at all) makes a record gone. So a repair deletes nothing the API still has.
import { LIST_LIMITS } from '@company-data/contract/runtime';
import { type CompanyData, NotFoundError, ValidationError } from '@company-data/sdk';
import { CopyError } from '../copy/errors.js';
import type { LockOptions } from '../copy/file-lock.js';
import type { CopyListName } from '../copy/lists.js';
import { forEachConcurrently } from '../for-each-concurrently.js';
import type { CopyComparison } from './comparison.js';
import { type ListedRecord, markOf } from './copy-mark.js';
import { openFileComparison } from './file-comparison.js';
import { CHECK_KINDS, type CheckFinding, type CheckKind, DRIFT_KINDS, newFindings } from './findings.js';
import { openPostgresComparison } from './postgres-comparison.js';
import { fileRepairRefusal } from './rebuild.js';

/**
 * Requests in flight while a check reads the list (and looks records up by id), unless told otherwise. A
 * check reads the whole list every time, and only reads: four requests ahead make it about three times as
 * fast as one (figure 2 of the benchmark), without the risk read-ahead brings to a sync (a record skipped
 * under deletions), which the look-up by id covers here. Every request still passes the client's rate gate.
 */
export const CHECK_DEFAULT_CONCURRENCY = 4;

/** Records per page read: the most the API gives. */
const PAGE_SIZE = LIST_LIMITS.maxPageSize;

/**
 * Options of {@link checkCopy}.
 *
 * @example
 * ```ts
 * const options: CheckCopyOptions = { client, list: 'calls', copy: { connectionString: process.env.DATABASE_URL ?? '' } };
 * ```
 */
export interface CheckCopyOptions {
  /** The SDK client to read the list with. */
  client: CompanyData;
  /** The list copied. */
  list: CopyListName;
  /**
   * The copy: an NDJSON file (as `company-data export --out` writes it, with its `.checkpoint`), or a schema
   * of a PostgreSQL database (as `--to` writes it; default schema `company_data`).
   */
  copy:
    | { readonly file: string }
    | { readonly connectionString: string; readonly schema?: string | undefined };
  /**
   * Store what the check finds: missing and stale records upserted, gone ones deleted, each page in a
   * transaction, under the copy's lock. PostgreSQL only. Default false.
   */
  repair?: boolean | undefined;
  /** Requests in flight. Default {@link CHECK_DEFAULT_CONCURRENCY}. */
  concurrency?: number | undefined;
  /** A repair's lock: how long to wait for another run, and what to call this one. */
  lock?: LockOptions | undefined;
  /** How messages name the copy. Default: the file as given, or `<schema>.<list>`. */
  name?: string | undefined;
  /** Stops after the page in hand; a repair keeps what it stored. */
  signal?: AbortSignal | undefined;
  /** Told once the copy is open: how many records it holds. */
  onOpen?: ((copy: { readonly name: string; readonly records: number }) => void) | undefined;
  /** Told with the first page: the list's size. */
  onStart?: ((total: number) => void) | undefined;
  /** Told after each page: the records read so far. */
  onPage?: ((listed: number) => void) | undefined;
  /** Told before each batch of the copy's ids that no page showed is looked up by id. */
  onLookUp?: ((ids: number) => void) | undefined;
}

/**
 * What {@link checkCopy} found: stable keys, for scripts (`company-data check --json` prints it with
 * `command: 'check'`).
 *
 * @example
 * ```ts
 * const report: CheckReport = await checkCopy({ client, list: 'calls', copy: { file: 'calls.ndjson' } });
 * if (!report.equal) console.log(`${report.gone.count} calls of the copy were deleted`);
 * ```
 */
export interface CheckReport extends Record<CheckKind, CheckFinding> {
  readonly list: CopyListName;
  /** The copy, as messages name it. */
  readonly destination: string;
  /** `done`, or `interrupted` by `signal` (the counts are then of the pages read). */
  readonly outcome: 'done' | 'interrupted';
  /** Whether the copy equals the list: nothing missing, gone, stale or duplicated (newer records aside). */
  readonly equal: boolean;
  /** Whether what was found was stored (a repair that completed): the copy now equals the list. */
  readonly repaired: boolean;
  /** Records the walk of the list read. */
  readonly listed: number;
  /** Records in the copy when the check began. */
  readonly copied: number;
}

/** The part of a list's resource a check uses. */
interface Checkable {
  list(
    params: { page_size: number },
    options: { concurrency: number; signal?: AbortSignal | undefined },
  ): AsyncIterable<ListedRecord> & {
    pages(): AsyncIterable<{ data: ListedRecord[]; pagination: { count: number } }>;
  };
  retrieve(id: string, options: { signal?: AbortSignal | undefined }): Promise<unknown>;
}

/**
 * Compares a copy of a list (an NDJSON file, or a table in PostgreSQL) with the list as the API has it now:
 * which records it lacks (`missing`), which the API no longer has (`gone`, however long ago they were
 * deleted: each is looked up by id), which differ (`stale`), and, in a file, which ids it holds twice
 * (`duplicated`). Records created after the copy's last completed run are counted apart (`newer`): the next
 * sync takes them. With `repair` (PostgreSQL), stores what it finds.
 *
 * Memory: a page at a time for a table; about 100 bytes a record of a file (an id and a 48-bit hash).
 *
 * @param options - the client, the list, the copy, whether to repair.
 * @returns what it found, and whether it was stored.
 * @throws {@link UncheckableCopyError} when there is no completed export to check; {@link CopyError} for a
 * repair asked of a file or a file something else changed; {@link CopyLockedError} when a repair finds the
 * copy held by another run; the SDK's errors (a refused key, a server failing past its retries).
 * @example
 * ```ts
 * import { checkCopy } from '@company-data/cli/copy';
 *
 * const report = await checkCopy({ client, list: 'calls', copy: { connectionString: process.env.DATABASE_URL ?? '' } });
 * console.log(report.equal ? 'the copy equals the list' : `${report.gone.count} gone, ${report.stale.count} stale`);
 * ```
 */
export async function checkCopy(options: CheckCopyOptions): Promise<CheckReport> {
  const { list, signal, copy } = options;
  const repair = options.repair ?? false;
  const concurrency = options.concurrency ?? CHECK_DEFAULT_CONCURRENCY;
  let comparison: CopyComparison;
  if ('file' in copy) {
    if (repair) throw new CopyError(fileRepairRefusal(list, copy.file));
    comparison = await openFileComparison(copy.file, options.name ?? copy.file, list);
  } else {
    comparison = await openPostgresComparison({ ...copy, list, repair, lock: options.lock });
  }
  const findings = newFindings();
  let listed = 0;
  let outcome: CheckReport['outcome'] = 'done';
  try {
    options.onOpen?.({ name: comparison.name, records: comparison.records });
    const mark = markOf(comparison.checkpoint, comparison.name);
    const resource = options.client[list] as unknown as Checkable;
    try {
      let started = false;
      for await (const page of resource.list({ page_size: PAGE_SIZE }, { concurrency, signal }).pages()) {
        if (!started) options.onStart?.(page.pagination.count);
        started = true;
        const older: ListedRecord[] = [];
        const newer: string[] = [];
        for (const record of page.data) {
          if (mark.isNewer(record)) {
            newer.push(record.id);
            findings.newer.add(record.id);
          } else older.push(record);
        }
        const { missing, stale } = await comparison.comparePage(older, newer);
        for (const id of missing) findings.missing.add(id);
        for (const id of stale) findings.stale.add(id);
        listed += page.data.length;
        options.onPage?.(listed);
        if (signal?.aborted) throw signal.reason;
      }
      for await (const ids of comparison.unseen()) {
        options.onLookUp?.(ids.length);
        const gone = await lookUp(resource, ids, concurrency, signal);
        for (const id of ids) (gone.has(id) ? findings.gone : findings.skipped).add(id);
        await comparison.gone([...gone]);
        if (signal?.aborted) throw signal.reason;
      }
      await comparison.finish();
    } catch (error) {
      // The interrupt aborts the request in flight: its error is the interrupt itself.
      if (!signal?.aborted) throw error;
      outcome = 'interrupted';
    }
  } finally {
    await comparison.close();
  }
  const found = Object.fromEntries(CHECK_KINDS.map((kind) => [kind, findings[kind].toJSON()])) as Record<
    CheckKind,
    CheckFinding
  >;
  found.duplicated = comparison.duplicated.toJSON();
  const equal = DRIFT_KINDS.every((kind) => found[kind].count === 0);
  return {
    list,
    destination: comparison.name,
    outcome,
    equal,
    repaired: repair && outcome === 'done',
    listed,
    copied: comparison.records,
    ...found,
  };
}

/** Looks ids up by id; those the API answers 404 for are gone. */
async function lookUp(
  resource: Checkable,
  ids: readonly string[],
  concurrency: number,
  signal: AbortSignal | undefined,
): Promise<Set<string>> {
  const gone = new Set<string>();
  await forEachConcurrently(ids, concurrency, async (id) => {
    try {
      await resource.retrieve(id, { signal });
    } catch (error) {
      if (!(error instanceof NotFoundError || malformedId(error))) throw error;
      gone.add(id);
    }
  });
  return gone;
}

/** The SDK refused the id itself, before sending (not a uuid): no record of the API has it. */
function malformedId(error: unknown): boolean {
  return (
    error instanceof ValidationError &&
    error.issues.length > 0 &&
    error.issues.every((issue) => issue.path[0] === 'id')
  );
}
