import { LIST_LIMITS } from '@company-data/contract';
import { ENVIRONMENT_VARIABLES } from '@company-data/sdk';
import { CHECK_DEFAULT_CONCURRENCY } from '../check/check-copy.js';
import { DEFAULT_MAX_WAIT_MS } from '../connection.js';
import { COPY_LOCKED_EXIT_CODE } from '../copy/errors.js';
import { LOCK_STALE_MS } from '../copy/file-lock.js';
import { COPY_LISTS } from '../copy/lists.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_CALLS,
  DEFAULT_MAX_RECORDINGS,
  MAX_CONCURRENCY,
} from '../snapshot/options.js';

/** The usage text of `company-data`. */
export const USAGE = `Usage: company-data <command> [options]

Tools for your own Company Data account.

Commands
  snapshot <file>          read your company through the API into a fixture that
                           company-data-mock --fixture and createMockServer({ fixture }) load
  verify                   check a live server against the contract (read-only unless you
                           pass webhook tokens); exits 1 on any mismatch
  export <list>            copy every record of a list (${COPY_LISTS.join(', ')}) into an
                           NDJSON file or PostgreSQL; resumes where an interrupted run stopped
  sync <list>              add what was created since the last export or sync (a first run
                           exports everything); --look-back also re-reads recent records for
                           changes and deletions
  check <list>             compare a copy that export or sync made with the whole list: the
                           records it lacks, those deleted since (however long ago), those that
                           differ; exits 1 when it differs from the list

Connection (every command)
  --base-url <url>         the API's base URL, ending in /v1 (default $${ENVIRONMENT_VARIABLES.baseURL})
  --api-key <key>          the API key (default $${ENVIRONMENT_VARIABLES.apiKey}; prefer the variable:
                           flags show in the process list and the shell history)
  --timeout <ms>           time limit of each request (default 60000)

snapshot
  --max-calls <n|all>      the newest calls to read (default ${DEFAULT_MAX_CALLS})
  --max-recordings <n|all> the newest field recordings to read (default ${DEFAULT_MAX_RECORDINGS})
  --since <time>           only calls and recordings created at or after it
                           (2026-01-31 or 2026-01-31T09:00:00Z)
  --concurrency <n>        requests in flight, 1-${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})
  --anonymize              replace names, e-mails, ids and free text with stand-ins
  --seed <text>            the secret stand-ins derive from: the same seed, the same file
                           (default: random)
  --company-name <name>    the company's name in the fixture (default Snapshot)
  --fresh                  discard an interrupted snapshot instead of resuming it
  --wait <duration>        wait for another snapshot to the same file to finish (e.g. 10m)

verify
  --pages <n>              pages read from the head of each list, per ordering (default 3);
                           the last page is read too
  --page-size <n>          items per page, ${LIST_LIMITS.minPageSize}-${LIST_LIMITS.maxPageSize} (default ${LIST_LIMITS.defaultPageSize})
  --details <n>            records retrieved by id per resource (default 3)
  --audience-webhook <token|url>
                           also check the audience webhook: adds (or finds) one fictional
                           member, company-data-verify@example.com
  --lead-webhook <token|url>
                           also check the lead webhook: submits one lead from the fictional
                           number +12025550142
  --json                   print the report as JSON

export and sync
  --out <file>             the NDJSON file (one record a line); its progress is kept in
                           <file>.checkpoint, its lock in <file>.lock
  --to <postgres://…>      a PostgreSQL database instead: one table per list in the schema
                           company_data (--schema <name> for another), each page and its
                           checkpoint stored in one transaction
  --look-back <duration>   sync only: also re-read the records created within this window
                           (e.g. 24h) and report those changed or removed (applied in
                           PostgreSQL; listed on stderr for a file, which is append-only)
  --concurrency <n>        pages read ahead, 1-${MAX_CONCURRENCY} (default 1)
  --wait <duration>        if another run holds the copy, wait for it up to this long
                           (e.g. 90s, 10m) instead of exiting ${COPY_LOCKED_EXIT_CODE} at once; a run that died
                           is taken over by itself within ${LOCK_STALE_MS / 1000} s
  --max-wait <duration>    the longest wait for the API's quota (a 429) to sit out (default
                           ${DEFAULT_MAX_WAIT_MS / 60_000}m); a longer one stops the run, every page stored kept,
                           with exit ${COPY_LOCKED_EXIT_CODE} and the time (UTC) to run it again
  --json                   print the summary as one JSON object

check
  --out <file>, --to <postgres://…>, --schema <name>
                           the copy, as export and sync name it; records created after its
                           last sync are counted apart (newer: the next sync takes them)
  --repair                 PostgreSQL only: store what differs (missing and changed records
                           upserted, deleted ones removed), page by page, under the copy's lock
                           (a file copy is rebuilt instead: the message says how)
  --concurrency <n>        requests in flight, 1-${MAX_CONCURRENCY} (default ${CHECK_DEFAULT_CONCURRENCY})
  --wait <duration>        with --repair: wait for a run that holds the copy, up to this long
  --json                   print the report as one JSON object: counts and ids of each kind

  --debug                  on a failure, print its stack trace too (or set DEBUG=company-data)
  -v, --version            print the version and exit
  -h, --help               show this help

Exit codes: 0 done (verify: no mismatch; check: the copy equals the list, or was repaired);
1 failed, running again may mend it (a server or network down; verify: a mismatch; check: the
copy differs); 2 bad usage or configuration, fix it first (a refused key or login, an unknown
host or database, a file in the way); ${COPY_LOCKED_EXIT_CODE} try again later (another run holds the copy
or snapshot, or the API's quota is spent: the message says when); 130 interrupted (export, sync
and snapshot resume when run again). A failure is one line on stderr.
`;
