/** Calendar arithmetic and the placement of appointments in a day column. */
import { dateKey } from '../lib/format';

export function addDays(date: Date, days: number): Date {
  const copy = new Date(date);
  copy.setDate(copy.getDate() + days);
  return copy;
}

/** Local midnight of the Monday of the week holding `date`. */
export function startOfWeek(date: Date): Date {
  const midnight = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  const sinceMonday = (midnight.getDay() + 6) % 7;
  return addDays(midnight, -sinceMonday);
}

export function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

export function sameDay(a: Date, b: Date): boolean {
  return dateKey(a) === dateKey(b);
}

export interface Timed {
  id: string;
  starts_at: string;
  ends_at: string;
}

export interface Placed<T extends Timed> {
  item: T;
  /** Minutes from the top of the visible day. */
  top: number;
  height: number;
  lane: number;
  lanes: number;
}

/**
 * Place the appointments of one day: overlapping ones side by side in lanes. Times are
 * clipped to the day; `firstHour` is the hour at the top of the column.
 */
export function placeDay<T extends Timed>(items: T[], day: Date, firstHour: number, lastHour: number): Placed<T>[] {
  const dayStart = startOfDay(day).getTime();
  const top = dayStart + firstHour * 3_600_000;
  const bottom = dayStart + lastHour * 3_600_000;
  const spans = items
    .map((item) => ({ item, start: Date.parse(item.starts_at), end: Date.parse(item.ends_at) }))
    .filter(({ start, end }) => end > dayStart && start < dayStart + 86_400_000)
    .map((span) => ({
      ...span,
      start: Math.max(span.start, top),
      end: Math.min(Math.max(span.end, span.start), bottom),
    }))
    .sort((a, b) => a.start - b.start || b.end - a.end);

  const placed: Placed<T>[] = [];
  let cluster: Array<{ placed: Placed<T>; end: number }> = [];
  let clusterEnd = -Infinity;
  const closeCluster = () => {
    const lanes = Math.max(1, ...cluster.map((entry) => entry.placed.lane + 1));
    cluster.forEach((entry) => (entry.placed.lanes = lanes));
    cluster = [];
  };
  for (const span of spans) {
    if (span.start >= clusterEnd) {
      closeCluster();
      clusterEnd = -Infinity;
    }
    const busy = new Set(cluster.filter((entry) => entry.end > span.start).map((entry) => entry.placed.lane));
    let lane = 0;
    while (busy.has(lane)) lane += 1;
    const entry = {
      placed: {
        item: span.item,
        top: (span.start - top) / 60_000,
        height: Math.max(15, (span.end - span.start) / 60_000),
        lane,
        lanes: 1,
      },
      end: span.end,
    };
    cluster.push(entry);
    placed.push(entry.placed);
    clusterEnd = Math.max(clusterEnd, span.end);
  }
  closeCluster();
  return placed;
}

/** The hours to show: 07–20, widened to include every appointment of the range. */
export function visibleHours(items: Timed[], defaultFirst = 7, defaultLast = 20): [number, number] {
  let first = defaultFirst;
  let last = defaultLast;
  for (const item of items) {
    const start = new Date(item.starts_at);
    const end = new Date(item.ends_at);
    first = Math.min(first, start.getHours());
    const endHour = end.getHours() + (end.getMinutes() > 0 ? 1 : 0);
    if (sameDay(start, end)) last = Math.max(last, endHour);
    else last = 24;
  }
  return [first, Math.min(24, Math.max(last, first + 1))];
}
