import { describe, expect, it } from 'vitest';
import type { Appointment } from '../api/client';
import { ApiError } from '../api/errors';
import { canStartNote, sessionDateOf } from '../notes/openNote';
import { conflictLines } from './conflicts';
import { formatZonedTime } from './zone';

const ZONE = 'Europe/Berlin';
// 09:00–09:50 in Berlin, in the test machine's 12/24-hour convention.
const NINE = `${formatZonedTime('2030-03-04T08:00:00Z', ZONE)}–${formatZonedTime('2030-03-04T08:50:00Z', ZONE)}`;
const known = {
  id: 'a1',
  starts_at: '2030-03-04T08:00:00Z',
  ends_at: '2030-03-04T08:50:00Z',
  client: { id: 'c1', first_name: 'Ada', last_name: 'Example' },
  clinician: { id: 'u1', display_name: 'Dr. Example' },
  room: 'Room 2',
} as Appointment;

describe('conflictLines', () => {
  it('names each clashing appointment and what it shares', () => {
    const error = new ApiError(409, 'appointment_conflict', 'the time overlaps', {
      conflicting_ids: ['a1', 'zz'],
      conflicts: [
        { id: 'a1', shares: ['clinician', 'room'] },
        { id: 'zz', shares: ['client'], occurrence_starts_at: '2030-03-11T08:00:00Z' },
      ],
    });
    const lines = conflictLines(error, [known], ZONE) ?? [];
    expect(lines[0]).toBe(`${NINE}: Ada Example — same clinician (Dr. Example), same room (Room 2)`);
    expect(lines[1]).toMatch(/^On .*11.* 2030: An appointment outside this view — same client$/);
  });

  it('is null for any other error, and falls back to the ids alone', () => {
    expect(conflictLines(new ApiError(422, 'validation_error', 'no'), [known], ZONE)).toBeNull();
    const old = new ApiError(409, 'appointment_conflict', 'overlap', { conflicting_ids: ['a1'] });
    expect(conflictLines(old, [known], ZONE)).toEqual([`${NINE}: Ada Example`]);
  });
});

describe("a note's session date, in the practice's zone", () => {
  it("dates a Friday evening session on Friday in New York, and allows its note on the practice's Friday", () => {
    // Friday 27 November 2026, 19:00 in New York = Saturday 00:00 UTC.
    const friday = { starts_at: '2026-11-28T00:00:00Z' };
    expect(sessionDateOf(friday, 'America/New_York')).toBe('2026-11-27');
    // At 20:00 New York time (Saturday 01:00 UTC) the practice's today is still Friday.
    expect(canStartNote(friday, new Date('2026-11-28T01:00:00Z'), 'America/New_York')).toBe(true);
    // In Auckland the same instant is Saturday 13:00; on Friday there, no note yet.
    expect(sessionDateOf(friday, 'Pacific/Auckland')).toBe('2026-11-28');
    expect(canStartNote(friday, new Date('2026-11-27T09:00:00Z'), 'Pacific/Auckland')).toBe(false);
  });
});
