// One run at a time on a copy kept in files. The lock itself is proper-lockfile's: an atomic `mkdir` of
// `<destination>.lock`, whose modification time the holder refreshes every 5 s; a lock not refreshed for 10 s
// is stale, and the next run takes it over (the holder died: SIGKILL, a power cut, a killed container). Beside
// it, `<destination>.lock.json` names the holder (pid, host, since, command) for the message a second run
// prints, and carries a token the holder checks before each page it records: a run whose lock was taken over
// (a process frozen for over 10 s) stops instead of writing on.
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { writeAtomically } from '../files/write-atomically.js';
import { CopyLockedError, LockLostError } from './errors.js';
import { holderIsGone, type LockHolder, parseHolder, thisProcess } from './lock-holder.js';

/** A lock not refreshed for this long is stale: its holder is dead, and the next run takes it over. */
export const LOCK_STALE_MS = 10_000;
/** How often a run waiting for a lock tries again. */
const RETRY_MS = 250;
/**
 * How long a run that found the lock taken waits for its holder to name itself (the holder writes its name
 * right after taking the lock), so that the refusal can say who it is.
 */
const NAMING_MS = 2_000;

/**
 * A copy's destination held by this run: check {@link CopyLock.assertHeld} before recording each page, and
 * release it at the end.
 *
 * @example
 * ```ts
 * const lock = await lockFile('calls.ndjson');
 * try {
 *   await lock.assertHeld();
 * } finally {
 *   await lock.release();
 * }
 * ```
 */
export interface CopyLock {
  /** Who holds it: this run. */
  readonly holder: LockHolder;
  /**
   * Resolves while this run still holds the lock.
   *
   * @throws {@link LockLostError} once another run took it over: write nothing more.
   */
  assertHeld(): Promise<void>;
  /** Lets the next run in. Idempotent. */
  release(): Promise<void>;
}

/**
 * How to take a lock.
 *
 * @example
 * ```ts
 * const options: LockOptions = { wait: 60_000, command: 'nightly export' };
 * ```
 */
export interface LockOptions {
  /**
   * How long to wait for another run to finish, in ms. Default 0: refuse at once. A dead holder on this host
   * is always waited for, up to the lock's stale time (10 s), and taken over.
   */
  wait?: number | undefined;
  /** What this run is, for the message another run prints (e.g. `company-data sync calls`). */
  command?: string | undefined;
  /** Stops waiting. */
  signal?: AbortSignal | undefined;
  /** Told once when this run starts waiting: who it waits for. */
  onWait?: ((holder: LockHolder | undefined, gone: boolean) => void) | undefined;
}

/** Where the holder of `destination`'s lock is named. */
export function holderPathOf(destination: string): string {
  return `${destination}.lock.json`;
}

interface Holding extends LockHolder {
  readonly token: string;
}

/**
 * Takes the lock of a copy kept in files, before anything reads its progress.
 *
 * @param destination - the copy's file (its lock is `<destination>.lock`, its holder `<destination>.lock.json`).
 * @param options - how long to wait, and what to call this run.
 * @returns the lock, held.
 * @throws {@link CopyLockedError} when another live run holds it (after `wait`), naming it.
 * @throws the file system's error when the lock cannot be made (a read-only or missing directory).
 * @example
 * ```ts
 * import { CopyLockedError, lockFile } from '@company-data/cli/copy';
 *
 * const lock = await lockFile('calls.ndjson', { command: 'my export' });
 * try {
 *   // read the progress, copy, record each page after `await lock.assertHeld()`
 * } finally {
 *   await lock.release();
 * }
 * ```
 */
export async function lockFile(destination: string, options: LockOptions = {}): Promise<CopyLock> {
  const started = performance.now();
  const holderPath = holderPathOf(destination);
  let told = false;
  let goneSince: number | undefined;
  for (;;) {
    let lost: Error | undefined;
    try {
      const release = await lockfile.lock(destination, {
        realpath: false,
        stale: LOCK_STALE_MS,
        onCompromised: (error) => {
          lost = error;
        },
      });
      const holding: Holding = { ...thisProcess(options.command), token: randomUUID() };
      try {
        await writeAtomically(holderPath, `${JSON.stringify(holding)}\n`);
      } catch (error) {
        await release();
        throw error;
      }
      return heldLock(destination, holding, release, () => lost);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    }
    const holder = parseHolder(await readFile(holderPath, 'utf8').catch(() => ''));
    const gone = holderIsGone(holder);
    const waited = performance.now() - started;
    goneSince = gone ? (goneSince ?? performance.now()) : undefined;
    // A dead holder's lock goes stale within LOCK_STALE_MS of its last refresh: worth waiting for.
    const waitingForGone =
      goneSince !== undefined && performance.now() - goneSince < LOCK_STALE_MS + RETRY_MS * 4;
    const waitingForName = holder === undefined && waited < NAMING_MS;
    if (!waitingForGone && !waitingForName && waited >= (options.wait ?? 0))
      throw new CopyLockedError(
        destination,
        holder,
        options.wait
          ? `Waited ${Math.round(waited / 1000)} s; run again later.`
          : 'Run again once it is done, or pass --wait <duration> to wait for it.',
      );
    if (!told && !waitingForName) {
      options.onWait?.(holder, gone);
      told = true;
    }
    await delay(RETRY_MS, undefined, { signal: options.signal });
  }
}

function heldLock(
  destination: string,
  holding: Holding,
  release: () => Promise<void>,
  lost: () => Error | undefined,
): CopyLock {
  const holderPath = holderPathOf(destination);
  let released = false;
  return {
    holder: holding,
    async assertHeld() {
      const compromised = lost();
      if (compromised) throw new LockLostError(destination, compromised.message);
      const now = await readFile(holderPath, 'utf8').catch(() => '');
      if (!now.includes(holding.token))
        throw new LockLostError(destination, `${holderPath} now names another run`);
    },
    async release() {
      if (released) return;
      released = true;
      if (lost()) return; // another run holds it now: its files are not ours to remove
      const now = await readFile(holderPath, 'utf8').catch(() => '');
      if (now.includes(holding.token)) await rm(holderPath, { force: true });
      await release().catch(() => undefined);
    },
  };
}
