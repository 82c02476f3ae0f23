/** From an appointment to its note: the rules (api/notes.ts findOrCreateNote does the calls). */
import type { Appointment } from '../api/client';
import { dateKey } from '../lib/format';
import { wallTime } from '../calendar/zone';

export class NoteNotYetPossible extends Error {}

/** The session's day: in the practice's time zone when given (as the server dates it),
 * else the browser's. */
export function sessionDateOf(appointment: Pick<Appointment, 'starts_at'>, zone?: string): string {
  return zone ? wallTime(appointment.starts_at, zone).key : dateKey(new Date(appointment.starts_at));
}

export function durationOf(appointment: Pick<Appointment, 'starts_at' | 'ends_at'>): number {
  const minutes = Math.round((Date.parse(appointment.ends_at) - Date.parse(appointment.starts_at)) / 60_000);
  return Math.min(600, Math.max(1, minutes));
}

/** Session notes cannot be dated in the future: a note starts on the day of the session. */
export function canStartNote(appointment: Pick<Appointment, 'starts_at'>, today = new Date(), zone?: string): boolean {
  return sessionDateOf(appointment, zone) <= (zone ? wallTime(today, zone).key : dateKey(today));
}
