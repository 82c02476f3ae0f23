/** From an appointment to its note: the rules (api/notes.ts findOrCreateNote does the calls). */
import type { Appointment } from '../api/client';
import { dateKey } from '../lib/format';

export class NoteNotYetPossible extends Error {}

export function sessionDateOf(appointment: Pick<Appointment, 'starts_at'>): string {
  return dateKey(new Date(appointment.starts_at));
}

export function durationOf(appointment: Pick<Appointment, 'starts_at' | 'ends_at'>): number {
  const minutes = Math.round((Date.parse(appointment.ends_at) - Date.parse(appointment.starts_at)) / 60_000);
  return Math.min(600, Math.max(1, minutes));
}

/** Session notes cannot be dated in the future: a note starts on the day of the session. */
export function canStartNote(appointment: Pick<Appointment, 'starts_at'>, today = new Date()): boolean {
  return sessionDateOf(appointment) <= dateKey(today);
}
