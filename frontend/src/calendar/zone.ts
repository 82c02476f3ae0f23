/**
 * Calendar days and wall-clock times in the practice's time zone (the workspace's
 * `time_zone`), whatever the browser's zone: the calendar draws in it and agrees with the
 * server about "today". Days are 'YYYY-MM-DD' keys; times are minutes after midnight.
 */

const partsFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormats.set(zone, format);
  }
  return format;
}

export interface WallTime {
  /** The day in the zone, 'YYYY-MM-DD'. */
  key: string;
  /** Minutes after that day's midnight (0–1439). */
  minutes: number;
}

function wallParts(instant: number, zone: string) {
  const parts: Record<string, number> = {};
  for (const part of partsFormat(zone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { ...parts, hour: parts.hour % 24 } as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Where an instant falls on the zone's calendar and clock. */
export function wallTime(instant: Date | string | number, zone: string): WallTime {
  const ms = instant instanceof Date ? instant.getTime() : typeof instant === 'string' ? Date.parse(instant) : instant;
  const p = wallParts(ms, zone);
  return { key: `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`, minutes: p.hour * 60 + p.minute };
}

/** The zone's offset from UTC at an instant, in ms (Europe/Berlin in winter: +3 600 000). */
function offsetAt(instant: number, zone: string): number {
  const p = wallParts(instant, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - (instant - (((instant % 1000) + 1000) % 1000));
}

function keyToUtc(key: string): number {
  const [year, month, day] = key.split('-').map(Number);
  return Date.UTC(year, month - 1, day);
}

/** The instant of a wall-clock time on a day in the zone. A time skipped by a daylight-saving
 * change is taken an hour later (02:30 → 03:30), as the server does; a repeated one is its
 * first occurrence. */
export function zonedInstant(key: string, minutes: number, zone: string): Date {
  const guess = keyToUtc(key) + minutes * 60_000;
  // The offsets half a day before and after: a change of offset happens at most once a day.
  const before = offsetAt(guess - 43_200_000, zone);
  const after = offsetAt(guess + 43_200_000, zone);
  const fits = (instant: number) => {
    const back = wallTime(instant, zone);
    return back.key === key && back.minutes === minutes;
  };
  const candidates = [guess - before, guess - after].filter(fits);
  // Two fit (a repeated hour): the first, as Python's fold=0; none (a skipped hour): the
  // offset before the change, which lands an hour later, also as the server does.
  return new Date(candidates.length ? Math.min(...candidates) : guess - before);
}

/** 'HH:MM' → minutes after midnight. */
export function parseTime(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

export function formatMinutes(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

export function addDaysToKey(key: string, days: number): string {
  const date = new Date(keyToUtc(key) + days * 86_400_000);
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** The Monday of the week holding the day. */
export function weekStartKey(key: string): string {
  const sinceMonday = (new Date(keyToUtc(key)).getUTCDay() + 6) % 7;
  return addDaysToKey(key, -sinceMonday);
}

/** Today in the zone: the day the server calls the practice's today. */
export function todayIn(zone: string, now: Date = new Date()): string {
  return wallTime(now, zone).key;
}

/** "09:30" in the zone, in the browser's 12/24-hour convention. */
export function formatZonedTime(instant: Date | string, zone: string): string {
  let format = timeFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: zone });
    timeFormats.set(zone, format);
  }
  return format.format(typeof instant === 'string' ? new Date(instant) : instant);
}

/** "Europe/Berlin (GMT+1)": the zone and its offset at the instant. */
export function zoneLabel(zone: string, at: Date = new Date()): string {
  let offset: string;
  try {
    const part = new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'shortOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName');
    offset = part ? ` (${part.value})` : '';
  } catch {
    offset = '';
  }
  return `${zone.replace(/_/g, ' ')}${offset}`;
}

/** The browser's own zone, to say when it differs from the practice's. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
