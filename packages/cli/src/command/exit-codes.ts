import { COPY_LOCKED_EXIT_CODE } from '../copy/errors.js';

/** Exit codes of `company-data`. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  /** `EX_TEMPFAIL`: try again later (another run holds the copy, the API's quota is spent). */
  later: COPY_LOCKED_EXIT_CODE,
  interrupted: 130,
} as const;
