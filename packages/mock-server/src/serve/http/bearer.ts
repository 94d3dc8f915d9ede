/** `Bearer <token>`, the scheme in any letter case (RFC 9110 §11.1), spaces around the token tolerated. */
const BEARER = /^bearer +(\S+) *$/i;

/**
 * The token of an `Authorization: Bearer <token>` header: one rule for the API's keys and the admin token.
 *
 * @param header - the header's value, if any.
 * @returns the token, or undefined when the header is absent or not a Bearer credential.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return BEARER.exec(header)?.[1];
}
