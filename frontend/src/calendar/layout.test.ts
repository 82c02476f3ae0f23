import { describe, expect, it } from 'vitest';
import { maxLanes, placeDay, visibleHours } from './layout';
import { zonedInstant } from './zone';

const ZONE = 'Europe/Berlin';
const DAY = '2026-11-25'; // a Wednesday; Berlin is UTC+1 in November
const at = (hour: number, minute = 0, day = DAY) => zonedInstant(day, hour * 60 + minute, ZONE).toISOString();
const appt = (id: string, start: [number, number], end: [number, number]) => ({
  id,
  starts_at: at(...start),
  ends_at: at(...end),
});

describe('placeDay', () => {
  it('puts an appointment at its minutes, in the practice zone, from the first visible hour', () => {
    const [placed] = placeDay([appt('a', [9, 30], [10, 20])], DAY, ZONE, 7, 20);
    expect(placed).toMatchObject({ top: 150, height: 50, lane: 0, lanes: 1 });
    // The same instants in another practice's zone are other wall-clock times.
    const [elsewhere] = placeDay([appt('a', [9, 30], [10, 20])], DAY, 'UTC', 7, 20);
    expect(elsewhere).toMatchObject({ top: 90, height: 50 });
  });

  it('puts overlapping appointments side by side and leaves the others full width', () => {
    const placed = placeDay(
      [
        appt('a', [9, 0], [10, 0]),
        appt('b', [9, 30], [10, 30]),
        appt('c', [10, 0], [11, 0]),
        appt('d', [12, 0], [13, 0]),
      ],
      DAY,
      ZONE,
      7,
      20,
    );
    const byId = Object.fromEntries(placed.map((p) => [p.item.id, p]));
    expect(byId.a).toMatchObject({ lane: 0, lanes: 2 });
    expect(byId.b).toMatchObject({ lane: 1, lanes: 2 });
    expect(byId.c).toMatchObject({ lane: 0, lanes: 2 }); // a has ended: lane 0 is free again
    expect(byId.d).toMatchObject({ lane: 0, lanes: 1 });
    expect(maxLanes(placed)).toBe(2);
  });

  it('gives four appointments at the same time four lanes, so the column widens to four', () => {
    const placed = placeDay(
      ['a', 'b', 'c', 'd'].map((id) => appt(id, [9, 0], [9, 50])),
      DAY,
      ZONE,
      7,
      20,
    );
    expect(placed.map((p) => p.lane).sort()).toEqual([0, 1, 2, 3]);
    expect(placed.every((p) => p.lanes === 4)).toBe(true);
    expect(maxLanes(placed)).toBe(4);
    expect(maxLanes([])).toBe(1);
  });

  it('keeps a short appointment that touches the next one in its own lane (drawn 15 minutes tall)', () => {
    const placed = placeDay([appt('short', [9, 0], [9, 5]), appt('next', [9, 10], [10, 0])], DAY, ZONE, 7, 20);
    expect(placed.map((p) => [p.item.id, p.lane, p.lanes, p.height])).toEqual([
      ['short', 0, 2, 15],
      ['next', 1, 2, 50],
    ]);
  });

  it('leaves out other days of the zone and clips to the visible hours', () => {
    const placed = placeDay(
      [
        { id: 'yesterday', starts_at: at(9, 0, '2026-11-24'), ends_at: at(10, 0, '2026-11-24') },
        // 00:30 in Berlin is still the 24th in UTC: it belongs to the 25th here.
        { id: 'after-midnight', starts_at: at(0, 30), ends_at: at(1, 0) },
        appt('early', [6, 0], [8, 0]),
      ],
      DAY,
      ZONE,
      7,
      20,
    );
    expect(placed.map((p) => p.item.id).sort()).toEqual(['after-midnight', 'early']);
    expect(placed.find((p) => p.item.id === 'early')).toMatchObject({ top: 0, height: 60 });
  });
});

describe('visibleHours', () => {
  it('widens 07–20 to include early and late appointments, in the zone', () => {
    expect(visibleHours([], ZONE)).toEqual([7, 20]);
    expect(visibleHours([appt('a', [6, 30], [7, 30]), appt('b', [20, 0], [21, 15])], ZONE)).toEqual([6, 22]);
    expect(visibleHours([appt('a', [23, 0], [23, 59])], ZONE)).toEqual([7, 24]);
  });
});
