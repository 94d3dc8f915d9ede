import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/scrubbed-logger.js';
import { recordingLogger } from '../support/harness.js';

describe('createLogger', () => {
  it('writes only at or above the level', () => {
    const target = recordingLogger();
    const logger = createLogger(target, 'warn', () => []);
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(target.lines.map((line) => line.level)).toEqual(['warn', 'error']);
    const off = recordingLogger();
    createLogger(off, 'off', () => []).error('nothing');
    expect(off.lines).toEqual([]);
  });

  it('scrubs secrets from messages and nested fields, and leaves errors alone', () => {
    const target = recordingLogger();
    const logger = createLogger(target, 'debug', () => ['svc_live_secret', '']);
    const error = new Error('boom');
    logger.debug(
      'key svc_live_secret here',
      { headers: { authorization: 'Bearer svc_live_secret' } },
      ['svc_live_secret'],
      error,
      42,
    );
    expect(JSON.stringify(target.lines)).not.toContain('svc_live_secret');
    expect(target.lines[0]?.args).toEqual([
      'key [redacted] here',
      { headers: { authorization: 'Bearer [redacted]' } },
      ['[redacted]'],
      error,
      42,
    ]);
  });
});
