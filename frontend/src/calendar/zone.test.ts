import { describe, expect, it } from 'vitest';
import {
  addDaysToKey,
  formatMinutes,
  parseTime,
  todayIn,
  wallTime,
  weekStartKey,
  zoneLabel,
  zonedInstant,
} from './zone';

describe('wall-clock time in the practice zone', () => {
  it('names the day and time of an instant in the zone, not the browser', () => {
    const instant = '2026-11-27T23:30:00Z'; // Friday 23:30 UTC
    expect(wallTime(instant, 'UTC')).toEqual({ key: '2026-11-27', minutes: 23 * 60 + 30 });
    expect(wallTime(instant, 'Europe/Berlin')).toEqual({ key: '2026-11-28', minutes: 30 });
    expect(wallTime(instant, 'America/New_York')).toEqual({ key: '2026-11-27', minutes: 18 * 60 + 30 });
  });

  it("computes today as the server does: the practice's day, whatever the browser's", () => {
    // Friday evening in New York is already Saturday in UTC: the practice's today is Friday,
    // so a note on a Friday appointment is not "after the practice's today".
    const now = new Date('2026-11-28T01:00:00Z');
    expect(todayIn('America/New_York', now)).toBe('2026-11-27');
    expect(todayIn('UTC', now)).toBe('2026-11-28');
    expect(todayIn('Pacific/Auckland', new Date('2026-11-27T12:00:00Z'))).toBe('2026-11-28');
  });

  it('turns a day and time in the zone into the instant, across daylight-saving changes', () => {
    expect(zonedInstant('2026-11-25', 9 * 60, 'Europe/Berlin').toISOString()).toBe('2026-11-25T08:00:00.000Z');
    expect(zonedInstant('2026-07-01', 9 * 60, 'Europe/Berlin').toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(zonedInstant('2026-11-25', 9 * 60, 'America/New_York').toISOString()).toBe('2026-11-25T14:00:00.000Z');
    // 2026-03-29 02:30 does not exist in Berlin (clocks go 02:00 → 03:00): an hour later.
    expect(zonedInstant('2026-03-29', 2 * 60 + 30, 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // 2026-10-25 02:30 happens twice: the first one (still summer time).
    expect(zonedInstant('2026-10-25', 2 * 60 + 30, 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    for (const key of ['2026-03-29', '2026-10-25', '2026-11-25']) {
      for (const minutes of [0, 9 * 60, 23 * 60 + 45]) {
        expect(wallTime(zonedInstant(key, minutes, 'Europe/Berlin'), 'Europe/Berlin')).toEqual({ key, minutes });
      }
    }
  });

  it('steps days and weeks on keys (no browser-zone midnights)', () => {
    expect(addDaysToKey('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDaysToKey('2026-03-01', -1)).toBe('2026-02-28');
    expect(weekStartKey('2026-11-25')).toBe('2026-11-23');
    expect(weekStartKey('2026-11-29')).toBe('2026-11-23'); // Sunday
    expect(weekStartKey('2026-11-30')).toBe('2026-11-30'); // Monday
    expect(parseTime('09:05')).toBe(545);
    expect(formatMinutes(545)).toBe('09:05');
  });

  it('labels the zone with its offset', () => {
    expect(zoneLabel('Europe/Berlin', new Date('2026-11-25T12:00:00Z'))).toBe('Europe/Berlin (GMT+1)');
    expect(zoneLabel('America/New_York', new Date('2026-07-01T12:00:00Z'))).toBe('America/New York (GMT-4)');
  });
});
