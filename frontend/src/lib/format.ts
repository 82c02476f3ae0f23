/** Dates and times for people, in the browser's time zone and locale conventions (en-GB style). */

const dateFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const longDayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
const shortDayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const numberFormat = new Intl.NumberFormat('en');

/** 'YYYY-MM-DD' → a Date at local midnight of that day. */
export function parseDateKey(key: string): Date {
  const [year, month, day] = key.split('-').map(Number);
  return new Date(year, month - 1, day);
}

/** A Date → its local calendar day as 'YYYY-MM-DD'. */
export function dateKey(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function formatDateKey(key: string): string {
  return dateFormat.format(parseDateKey(key));
}

export function formatDate(date: Date): string {
  return dateFormat.format(date);
}

export function formatLongDay(date: Date): string {
  return longDayFormat.format(date);
}

export function formatShortDay(date: Date): string {
  return shortDayFormat.format(date);
}

export function formatTime(value: string | Date): string {
  return timeFormat.format(typeof value === 'string' ? new Date(value) : value);
}

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return dateTimeFormat.format(typeof value === 'string' ? new Date(value) : value);
}

export function formatCount(n: number): string {
  return numberFormat.format(n);
}

/** 93784 → "1 day 2 hours"; for ages and durations shown to people. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const units: Array<[string, number]> = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
    ['second', 1],
  ];
  const parts: string[] = [];
  let rest = Math.max(0, Math.floor(seconds));
  for (const [name, size] of units) {
    const count = Math.floor(rest / size);
    if (count > 0 && parts.length < 2) {
      parts.push(`${count} ${name}${count === 1 ? '' : 's'}`);
      rest -= count * size;
    }
  }
  return parts.length ? parts.join(' ') : '0 seconds';
}

/** "Jane Doe" for a client-like record. */
export function fullName(person: { first_name: string; last_name: string } | null | undefined): string {
  return person ? `${person.first_name} ${person.last_name}` : 'Unknown client';
}
