/**
 * A bounded set of distinct contacts for the webhook load, each written in several phone formats and
 * email casings, so the server's normalisation and deduplication are what keep them distinct.
 */

const AREAS = [212, 312, 415, 617, 646, 702, 713, 206, 303, 404] as const;

/** One contact: its canonical E.164 phone and lower-case email. */
export interface Contact {
  /** E.164 form, what the server must store. */
  e164: string;
  /** The digits split for formatting. */
  parts: { area: number; exchange: number; line: string };
  /** Lower-case email. */
  email: string;
}

/** Builds `count` distinct, valid US contacts (no 555 or N11 exchanges). */
export function makeContacts(count: number, salt = 0): Contact[] {
  const contacts: Contact[] = [];
  const seen = new Set<string>();
  for (let i = 0; contacts.length < count; i++) {
    const area = AREAS[i % AREAS.length] as number;
    const exchange = 200 + (((i + salt) * 7919) % 700);
    if (exchange % 100 === 11 || exchange === 555) continue;
    const line = String(((i + salt) * 104729) % 10000).padStart(4, '0');
    const e164 = `+1${area}${exchange}${line}`;
    if (seen.has(e164)) continue;
    seen.add(e164);
    contacts.push({
      e164,
      parts: { area, exchange, line },
      email: `bench.contact${contacts.length}.${salt}@example.com`,
    });
  }
  return contacts;
}

/** The same phone in one of six common formats, chosen by `variant`. */
export function formatPhone(contact: Contact, variant: number): string {
  const { area: a, exchange: e, line: l } = contact.parts;
  const formats = [
    `+1${a}${e}${l}`,
    `(${a}) ${e}-${l}`,
    `${a}-${e}-${l}`,
    `+1 ${a} ${e} ${l}`,
    `1-${a}-${e}-${l}`,
    `${a}.${e}.${l}`,
  ];
  return formats[variant % formats.length] as string;
}

/** The same email with a varying upper-case pattern, chosen by `variant`. */
export function caseEmail(email: string, variant: number): string {
  if (variant % 3 === 0) return email;
  if (variant % 3 === 1) return email.toUpperCase();
  return email.replace(/^./, (c) => c.toUpperCase()).replace('@example', '@Example');
}
