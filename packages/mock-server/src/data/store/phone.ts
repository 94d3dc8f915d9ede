import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';

/** The region assumed for numbers written without a country code. */
export const DEFAULT_PHONE_REGION: CountryCode = 'US';

/**
 * Normalises a phone number written in any common format to E.164.
 *
 * @param raw - e.g. `(415) 555-0123`, `415.555.0123`, `+44 20 7946 0958`.
 * @returns the E.164 form (e.g. `+14155550123`), or `undefined` when it is not a valid number.
 */
export function normalizePhone(raw: string): string | undefined {
  const parsed = parsePhoneNumberFromString(raw, DEFAULT_PHONE_REGION);
  return parsed?.isValid() ? parsed.number : undefined;
}
