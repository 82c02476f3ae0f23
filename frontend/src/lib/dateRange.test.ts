import { describe, expect, it } from 'vitest';
import { dateRangeError, localToIso } from './dateRange';

describe('date ranges', () => {
  it('turns a datetime-local value into an ISO instant, and nothing into undefined', () => {
    expect(localToIso('')).toBeUndefined();
    expect(localToIso('not a date')).toBeUndefined();
    expect(localToIso('2026-11-23T10:00')).toBe(new Date(2026, 10, 23, 10, 0).toISOString());
  });

  it('refuses a start after the end, and only that', () => {
    expect(dateRangeError('2026-11-24T10:00', '2026-11-23T10:00')).toMatch(/before/);
    expect(dateRangeError('2026-11-23T10:00', '2026-11-23T10:01')).toBeNull();
    expect(dateRangeError('2026-11-23T10:00', '2026-11-23T10:00')).toBeNull();
    expect(dateRangeError('2026-11-24T10:00', '')).toBeNull();
    expect(dateRangeError('', '2026-11-23T10:00')).toBeNull();
  });
});
