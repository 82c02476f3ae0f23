import { describe, expect, it } from 'vitest';
import { dateKey } from '../lib/format';
import { placeDay, startOfWeek, visibleHours } from './layout';

const day = new Date(2026, 10, 25); // Wednesday 25 November 2026, local time
const at = (hour: number, minute = 0) => new Date(2026, 10, 25, hour, minute).toISOString();
const appt = (id: string, start: [number, number], end: [number, number]) => ({
  id,
  starts_at: at(...start),
  ends_at: at(...end),
});

describe('startOfWeek', () => {
  it('is the Monday of the week, at local midnight', () => {
    expect(dateKey(startOfWeek(day))).toBe('2026-11-23');
    expect(dateKey(startOfWeek(new Date(2026, 10, 29, 23, 30)))).toBe('2026-11-23'); // Sunday
    expect(dateKey(startOfWeek(new Date(2026, 10, 30, 0, 5)))).toBe('2026-11-30'); // Monday
  });
});

describe('placeDay', () => {
  it('puts an appointment at its minutes from the first visible hour', () => {
    const [placed] = placeDay([appt('a', [9, 30], [10, 20])], day, 7, 20);
    expect(placed).toMatchObject({ top: 150, height: 50, lane: 0, lanes: 1 });
  });

  it('puts overlapping appointments side by side and leaves the others full width', () => {
    const placed = placeDay(
      [
        appt('a', [9, 0], [10, 0]),
        appt('b', [9, 30], [10, 30]),
        appt('c', [10, 0], [11, 0]),
        appt('d', [12, 0], [13, 0]),
      ],
      day,
      7,
      20,
    );
    const byId = Object.fromEntries(placed.map((p) => [p.item.id, p]));
    expect(byId.a).toMatchObject({ lane: 0, lanes: 2 });
    expect(byId.b).toMatchObject({ lane: 1, lanes: 2 });
    expect(byId.c).toMatchObject({ lane: 0, lanes: 2 }); // a has ended: lane 0 is free again
    expect(byId.d).toMatchObject({ lane: 0, lanes: 1 });
  });

  it('leaves out other days and clips to the visible hours', () => {
    const placed = placeDay(
      [
        {
          id: 'yesterday',
          starts_at: new Date(2026, 10, 24, 9).toISOString(),
          ends_at: new Date(2026, 10, 24, 10).toISOString(),
        },
        appt('early', [6, 0], [8, 0]),
      ],
      day,
      7,
      20,
    );
    expect(placed.map((p) => p.item.id)).toEqual(['early']);
    expect(placed[0]).toMatchObject({ top: 0, height: 60 });
  });
});

describe('visibleHours', () => {
  it('widens 07–20 to include early and late appointments', () => {
    expect(visibleHours([])).toEqual([7, 20]);
    expect(visibleHours([appt('a', [6, 30], [7, 30]), appt('b', [20, 0], [21, 15])])).toEqual([6, 22]);
  });
});
