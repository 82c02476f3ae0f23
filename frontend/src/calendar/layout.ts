/** The placement of appointments in a day column, in the practice's time zone. */
import { addDaysToKey, wallTime, zonedInstant } from './zone';

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

/** Does the item share time with the day (`key`, in `zone`)? */
export function onDay(item: Timed, key: string, zone: string): boolean {
  const dayStart = zonedInstant(key, 0, zone).getTime();
  const dayEnd = zonedInstant(addDaysToKey(key, 1), 0, zone).getTime();
  const start = Date.parse(item.starts_at);
  const end = Date.parse(item.ends_at);
  return start < dayEnd && (end > dayStart || (end === start && start >= dayStart));
}

/**
 * Place the appointments of one day (`key` in `zone`): overlapping ones side by side in
 * lanes, each cluster of overlapping ones as many lanes as it needs at once. Times are
 * wall-clock minutes in the zone, clipped to the visible hours (`firstHour`–`lastHour`).
 */
export function placeDay<T extends Timed>(
  items: T[],
  key: string,
  zone: string,
  firstHour: number,
  lastHour: number,
): Placed<T>[] {
  const top = firstHour * 60;
  const bottom = lastHour * 60;
  const spans = items
    .filter((item) => onDay(item, key, zone))
    .map((item) => {
      const start = wallTime(item.starts_at, zone);
      const end = wallTime(item.ends_at, zone);
      const startMinutes = start.key < key ? 0 : start.minutes;
      const endMinutes = end.key > key ? 24 * 60 : end.minutes;
      const clippedStart = Math.min(Math.max(startMinutes, top), bottom);
      return { item, start: clippedStart, end: Math.min(Math.max(endMinutes, clippedStart), bottom) };
    })
    .sort((a, b) => a.start - b.start || b.end - a.end || a.item.id.localeCompare(b.item.id));

  const placed: Placed<T>[] = [];
  let cluster: Array<{ placed: Placed<T>; end: number }> = [];
  let clusterEnd = -Infinity;
  const closeCluster = () => {
    const lanes = Math.max(1, ...cluster.map((entry) => entry.placed.lane + 1));
    cluster.forEach((entry) => (entry.placed.lanes = lanes));
    cluster = [];
  };
  for (const span of spans) {
    // Drawn at least 15 minutes tall: a short one overlaps what it visibly touches.
    const drawnEnd = Math.max(span.end, span.start + 15);
    if (span.start >= clusterEnd) {
      closeCluster();
      clusterEnd = -Infinity;
    }
    const busy = new Set(cluster.filter((entry) => entry.end > span.start).map((entry) => entry.placed.lane));
    let lane = 0;
    while (busy.has(lane)) lane += 1;
    const entry = {
      placed: { item: span.item, top: span.start - top, height: drawnEnd - span.start, lane, lanes: 1 },
      end: drawnEnd,
    };
    cluster.push(entry);
    placed.push(entry.placed);
    clusterEnd = Math.max(clusterEnd, drawnEnd);
  }
  closeCluster();
  return placed;
}

/** The most lanes any cluster of the column needs: its minimum width is that many lanes. */
export function maxLanes(placed: Array<{ lanes: number }>): number {
  return Math.max(1, ...placed.map((p) => p.lanes));
}

/** The hours to show: 07–20, widened to include every appointment of the range. */
export function visibleHours(items: Timed[], zone: string, defaultFirst = 7, defaultLast = 20): [number, number] {
  let first = defaultFirst;
  let last = defaultLast;
  for (const item of items) {
    const start = wallTime(item.starts_at, zone);
    const end = wallTime(item.ends_at, zone);
    first = Math.min(first, Math.floor(start.minutes / 60));
    if (start.key === end.key) last = Math.max(last, Math.ceil(end.minutes / 60));
    else last = 24;
  }
  return [first, Math.min(24, Math.max(last, first + 1))];
}

/** A date `days` later, same local time (for the browser-local callers, such as the client page). */
export function addDays(date: Date, days: number): Date {
  const copy = new Date(date);
  copy.setDate(copy.getDate() + days);
  return copy;
}
