import { describe, expect, it } from 'vitest';
import { DEFAULT_ACTIVITY, resolveActivity } from '../../../src/data/activity/options.js';
import { activitySpecText, activityUsage, parseActivitySpec } from '../../../src/data/activity/spec.js';

describe('activity options', () => {
  it('fills in the defaults and keeps what is given, 0 included', () => {
    expect(resolveActivity({})).toEqual({
      callsPerMinute: 6,
      excusedShare: 0.1,
      excusedAfterMinutes: { min: 5, max: 120 },
      recordingsPerHour: 4,
      deactivationsPerDay: 2,
      callDeletionsPerHour: 1,
    });
    expect(resolveActivity({})).toEqual(DEFAULT_ACTIVITY);
    expect(resolveActivity({ callsPerMinute: 0, excusedShare: 1 })).toEqual({
      ...DEFAULT_ACTIVITY,
      callsPerMinute: 0,
      excusedShare: 1,
    });
  });

  it.each([
    [
      { callsPerMinute: -1 },
      'callsPerMinute must be a number from 0 to 60000 (1000 a second); 0 turns it off',
    ],
    [{ recordingsPerHour: 4_000_000 }, 'recordingsPerHour must be a number from 0 to 3600000'],
    [{ excusedShare: 1.5 }, 'excusedShare must be a number from 0 to 1'],
    [{ excusedShare: '10%' }, 'excusedShare must be a number from 0 to 1'],
    [
      { excusedAfterMinutes: { min: 9, max: 3 } },
      'excusedAfterMinutes.min must not exceed excusedAfterMinutes.max',
    ],
    [
      { excusedAfterMinutes: { min: 1, maxx: 3 } },
      'excusedAfterMinutes: unknown field "maxx" (did you mean "max"?)',
    ],
    [
      { callsPerMinut: 3 },
      'unknown field "callsPerMinut" (did you mean "callsPerMinute"?); the fields are callsPerMinute,',
    ],
  ])('refuses %j saying why', (options, message) => {
    expect(() => resolveActivity(options as never)).toThrow(RangeError);
    expect(() => resolveActivity(options as never)).toThrow(`activity: ${message}`);
  });

  it('refuses something other than an object', () => {
    expect(() => resolveActivity(7 as never)).toThrow(
      'activity: expects an object such as { callsPerMinute: 6 }',
    );
  });
});

describe('the command line’s activity spec', () => {
  it('reads keys over the defaults, with any unit, and writes them back the same', () => {
    const activity = parseActivitySpec('calls=20/s,excused=25%,excused-after=1..30,deletions=1/s');
    expect(activity).toEqual({
      ...DEFAULT_ACTIVITY,
      callsPerMinute: 1200,
      excusedShare: 0.25,
      excusedAfterMinutes: { min: 1, max: 30 },
      callDeletionsPerHour: 3600,
    });
    const text = activitySpecText(activity as never);
    expect(text).toBe(
      'calls=20/s,excused=25%,excused-after=1..30,recordings=4/h,deactivations=2/d,deletions=1/s',
    );
    expect(parseActivitySpec(text)).toEqual(activity);
    expect(parseActivitySpec('calls=0,recordings=90/m')).toMatchObject({ callsPerMinute: 0 });
    expect(parseActivitySpec('recordings=90/m')).toMatchObject({ recordingsPerHour: 5400 });
  });

  it('reads the preset, a bare flag’s empty value and off', () => {
    expect(parseActivitySpec('default')).toEqual(DEFAULT_ACTIVITY);
    expect(parseActivitySpec('')).toEqual(DEFAULT_ACTIVITY);
    expect(parseActivitySpec('off')).toBe(false);
  });

  it.each([
    ['cals=1/s', 'has no key "cals" (did you mean "calls"?); the keys are calls, excused,'],
    ['calls', 'expects calls=<value>, got "calls"'],
    [
      'calls=1',
      'expects calls=<n>/<unit> with a unit of s, m, h or d (e.g. calls=20/s, or 0 for none), got "1"',
    ],
    ['excused=lots', 'expects excused=<n>% or a share from 0 to 1 (e.g. excused=10%), got "lots"'],
    ['excused-after=5', 'expects excused-after=<min>..<max> in minutes (e.g. excused-after=5..120), got "5"'],
    ['calls=2000/s', '"calls=2000/s": callsPerMinute must be a number from 0 to 60000 (1000 a second)'],
    ['excused=150%', '"excused=150%": excusedShare must be a number from 0 to 1'],
  ])('refuses %s saying how to fix it', (text, message) => {
    expect(() => parseActivitySpec(text)).toThrow(message);
  });

  it('documents every key with its default in the help', () => {
    const usage = activityUsage();
    for (const pair of activitySpecText(DEFAULT_ACTIVITY).split(',')) expect(usage).toContain(pair);
  });
});
