import type { UserRef } from '@company-data/contract';
import type { UserPicker } from '../fake/generate-company.js';
import { isoSeconds } from '../fake/time.js';
import { hashString, Prng } from '../random/prng.js';
import type { ArrivalSource } from '../store/arrivals.js';
import type { CompanyRecords } from '../store/company-records.js';
import { settleCall } from './call-rules.js';
import {
  type AnyRecord,
  type Companion,
  makeCompanion,
  makeRecord,
  NO_USER,
  type Recipe,
  samePick,
} from './make.js';

/**
 * The records of one kind a schedule brings, each a function of its place `n` (the activity's
 * `ScheduledArrivals`, seen from here).
 */
export interface Arriving {
  /** The id of arrival `n`. */
  id(n: number): string;
  /** When and why arrival `n`, arrived at `atMs`, is excused; undefined when never. */
  excusal(n: number, atMs: number): { readonly atMs: number; readonly reason: string } | undefined;
}

/** Where the arrivals of a schedule are generated from: one source per schedule and resource. */
const sources = new WeakMap<Arriving, ArrivedRecords>();

/**
 * The source a table generates a schedule's arrivals from.
 *
 * @param arriving - the schedule's arrivals of one kind.
 * @param resource - what they are.
 */
export function arrivedRecords(arriving: Arriving, resource: 'calls' | 'recordings'): ArrivedRecords {
  let source = sources.get(arriving);
  if (source === undefined) {
    source = new ArrivedRecords(arriving, resource);
    sources.set(arriving, source);
  }
  return source;
}

/**
 * Calls or recordings that arrive with the activity, generated as the record controls generate a record
 * given its id and `created_at`: the fields drawn from the id's own stream (so controls a test calls never
 * shift them), the embedded user picked among the company's users when it arrives. What a table keeps of
 * one is the number of that user in this source's list of users picked (`detail`).
 */
export class ArrivedRecords implements ArrivalSource<AnyRecord, Companion> {
  readonly #arriving: Arriving;
  readonly #resource: 'calls' | 'recordings';
  /** The users picked so far, each once, and their numbers; the picker that gives each again. */
  readonly #users: UserRef[] = [];
  readonly #picks: UserPicker[] = [];
  readonly #numbers = new Map<string, number>();

  constructor(arriving: Arriving, resource: 'calls' | 'recordings') {
    this.#arriving = arriving;
    this.#resource = resource;
  }

  /** The schedule's arrivals this source generates. */
  get arriving(): Arriving {
    return this.#arriving;
  }

  /** What they are. */
  get resource(): 'calls' | 'recordings' {
    return this.#resource;
  }

  id(n: number): string {
    return this.#arriving.id(n);
  }

  /**
   * The embedded user an arrival's `detail` stands for.
   *
   * @throws Error for a number no arrival was given.
   */
  userOf(detail: number): UserRef {
    const user = this.#users[detail];
    if (user === undefined) throw new Error(`No arrival has user number ${detail}`);
    return user;
  }

  /**
   * The `detail` that gives an arrival this embedded user (a restored arrival's), numbered on first use.
   *
   * @param user - the user as the arrival embeds it.
   */
  detailOf(user: UserRef): number {
    return this.#number(user);
  }

  /**
   * Arrival `n` as it arrives in `company` now: its user picked among the company's users.
   *
   * @returns the record and the number that generates it again (its user's).
   * @throws Error when the company has no user.
   */
  arrive(n: number, atMs: number, company: CompanyRecords): { record: AnyRecord; detail: number } {
    const { users } = company;
    if (users.size === 0) throw new Error(`${company.name} has no users`);
    let picked: UserRef | undefined;
    const record = makeRecord(this.#recipe(n, atMs), (random) => {
      const user = users.at(random.int(users.size));
      picked = { id: user.id, full_name: user.full_name };
      return picked;
    });
    return { record, detail: this.#number(picked as UserRef) };
  }

  record(n: number, atMs: number, detail: number, later: boolean): AnyRecord {
    const record = makeRecord(this.#recipe(n, atMs), this.#pick(detail));
    const excusal = later ? this.#arriving.excusal(n, atMs) : undefined;
    if (excusal === undefined || this.#resource !== 'calls') return record;
    // What the activity's excusal made of it (through the record editor's update; with its time and reason
    // given, it draws nothing).
    const fields = { is_excused: true, excused_at: isoSeconds(excusal.atMs), excuse_reason: excusal.reason };
    return settleCall(record as never, fields, excusal.atMs, new Prng(0));
  }

  companion(n: number, atMs: number, detail: number): Companion {
    return makeCompanion(this.#recipe(n, atMs), this.#pick(detail)) as Companion;
  }

  #recipe(n: number, atMs: number): Recipe {
    const id = this.#arriving.id(n);
    return {
      resource: this.#resource,
      seed: hashString(id),
      // Created at its time to the second, rounded down, as the record controls create a record given that
      // `created_at` (the same bytes, without writing the time and reading it back).
      atMs: Math.floor(atMs / 1000) * 1000,
      given: { id },
      // A user's e-mail domain: no user arrives.
      domain: '',
    };
  }

  #pick(detail: number): UserPicker {
    return this.#picks[detail] ?? NO_USER;
  }

  #number(ref: UserRef): number {
    const key = `${ref.id} ${ref.full_name}`;
    let number = this.#numbers.get(key);
    if (number === undefined) {
      number = this.#users.push(ref) - 1;
      this.#picks.push(samePick({ ref, drawn: true }));
      this.#numbers.set(key, number);
    }
    return number;
  }
}
