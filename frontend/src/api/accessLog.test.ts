import { describe, expect, it } from 'vitest';
import { NO_ACCESS_FILTERS, accessLogFileName, accessLogQuery } from './accessLog';
import { glassReasonError } from './careTeam';

describe('access history filters', () => {
  it('leave empty filters out and send times as instants', () => {
    expect(accessLogQuery(NO_ACCESS_FILTERS)).toEqual({
      since: undefined,
      until: undefined,
      kind: undefined,
      actor_user_id: undefined,
    });
    expect(accessLogQuery({ since: '2026-11-20T09:00', until: '', kind: 'chart_read', actor_user_id: 'u1' })).toEqual({
      since: new Date(2026, 10, 20, 9, 0).toISOString(),
      until: undefined,
      kind: 'chart_read',
      actor_user_id: 'u1',
    });
  });

  it('name the CSV file after the client and the day, without the full id', () => {
    expect(accessLogFileName('0b7f1c2e-4d3a-4c1b-9a8e-5f6d7c8b9a0e', new Date('2026-11-27T05:00:00Z'))).toBe(
      'access-log-0b7f1c2e-2026-11-27.csv',
    );
  });
});

describe('break-the-glass reason', () => {
  it('needs 10 to 500 characters once trimmed', () => {
    expect(glassReasonError('   urgent   ')).toMatch(/At least 10/);
    expect(glassReasonError('Covering today')).toBeNull();
    expect(glassReasonError('x'.repeat(501))).toMatch(/At most 500/);
  });
});
