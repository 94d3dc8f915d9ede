import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashKey } from '../../../src/data/store/keys.js';

describe('hashKey', () => {
  it('is the SHA-256 of the value, repeated or not, also past the number of hashes it remembers', () => {
    const sha = (value: string) => createHash('sha256').update(value).digest('hex');
    const values = Array.from({ length: 700 }, (_, i) => `svc_live_${i}`);
    for (const round of [1, 2]) {
      for (const value of values) expect(hashKey(value), `${value}, round ${round}`).toBe(sha(value));
    }
    expect(hashKey('')).toBe(sha(''));
  });
});
