import { createHmac } from 'node:crypto';
import { base, en, Faker } from '@faker-js/faker';

/** A made-up person. */
export interface Pseudonym {
  readonly first: string;
  readonly last: string;
  readonly full: string;
}

const MAX_DRAWS = 50;

/**
 * Deterministic stand-ins for personal data. Each is derived from the seed and the original value alone,
 * through an HMAC keyed by the seed: the same original gives the same stand-in wherever it appears, the
 * same seed gives the same file, and without the seed the originals cannot be guessed back by trying
 * candidate names.
 */
export class Pseudonyms {
  readonly #seed: string;
  readonly #faker = new Faker({ locale: [en, base] });
  readonly #forbidden: ReadonlySet<string>;
  readonly #people = new Map<string, Pseudonym>();
  readonly #names = new Set<string>();
  readonly #emails = new Map<string, string>();
  readonly #localParts = new Set<string>();

  /**
   * @param seed - the secret that keys every stand-in.
   * @param realNames - every name part of the original data: a made-up name never uses one of them.
   */
  constructor(seed: string, realNames: Iterable<string>) {
    this.#seed = seed;
    this.#forbidden = new Set([...realNames].map((name) => name.toLowerCase()));
  }

  /** A made-up person for a real full name; different real names get different made-up ones. */
  person(fullName: string): Pseudonym {
    const known = this.#people.get(fullName);
    if (known) return known;
    let person: Pseudonym | undefined;
    for (let draw = 0; person === undefined; draw++) {
      this.#reseed('person', fullName, draw);
      const first = this.#faker.person.firstName();
      const last = this.#faker.person.lastName();
      const full = draw < MAX_DRAWS ? `${first} ${last}` : `${first} ${last} ${draw}`;
      const real = [first, last].some((part) => this.#forbidden.has(part.toLowerCase()));
      if (!real && !this.#names.has(full)) person = { first, last, full };
    }
    this.#people.set(fullName, person);
    this.#names.add(person.full);
    return person;
  }

  /** A unique address at example.com (reserved for examples) for a real e-mail, named after `person`. */
  email(email: string, person: Pseudonym): string {
    const known = this.#emails.get(email.toLowerCase());
    if (known) return known;
    const name = `${person.first}.${person.last}`.toLowerCase().replace(/[^a-z0-9.]/g, '');
    let local = name;
    for (let n = 2; this.#localParts.has(local); n++) local = `${name}${n}`;
    this.#localParts.add(local);
    const pseudonym = `${local}@example.com`;
    this.#emails.set(email.toLowerCase(), pseudonym);
    return pseudonym;
  }

  /** A uuid standing in for a record id (the same id always maps to the same uuid). */
  id(id: string): string {
    const hex = this.#digest('id', id.toLowerCase()).toString('hex');
    const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  /**
   * Placeholder words standing in for free text: as many as asked (default: as many as the text has),
   * derived from the text itself (so the same text always gets the same words), never a real name.
   */
  words(text: string, count = wordCount(text)): string[] {
    this.#reseed('text', text, 0);
    return Array.from({ length: count }, () => {
      // A placeholder word may happen to be someone's name ("Victoria"): draw again.
      let word = this.#faker.lorem.word();
      while (this.#forbidden.has(word)) word = this.#faker.lorem.word();
      return word;
    });
  }

  /** Free text replaced by as many placeholder words, keeping a leading capital and the final stop. */
  text(text: string): string {
    const words = this.words(text);
    if (words.length === 0) return text;
    const stop = /[.!?]$/.exec(text.trim())?.[0] ?? '';
    return `${matchCase(text, words.join(' '))}${stop}`;
  }

  #reseed(kind: string, value: string, draw: number): void {
    const digest = this.#digest(kind, `${value}\u0000${draw}`);
    this.#faker.seed([
      digest.readUInt32BE(0),
      digest.readUInt32BE(4),
      digest.readUInt32BE(8),
      digest.readUInt32BE(12),
    ]);
  }

  #digest(kind: string, value: string): Buffer {
    return createHmac('sha256', this.#seed).update(`${kind}\u0000${value}`).digest();
  }
}

/** Words in a text: runs of non-space characters. */
function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/**
 * `standIn` with a leading capital when `original` has one.
 *
 * @param original - the real word or text.
 * @param standIn - what replaces it.
 */
export function matchCase(original: string, standIn: string): string {
  return /^\p{Lu}/u.test(original) ? `${standIn.charAt(0).toUpperCase()}${standIn.slice(1)}` : standIn;
}
