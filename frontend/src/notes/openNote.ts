/** From an appointment to its note: the existing one, or a new draft for it. */
import { api, call, type Appointment } from '../api/client';
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

export async function findOrCreateNote(appointment: Appointment): Promise<string> {
  const notes = await call(
    api.GET('/api/v1/sessions', { params: { query: { client_id: appointment.client_id, page_size: 100 } } }),
  );
  const existing = notes.items.find((note) => note.appointment_id === appointment.id);
  if (existing) return existing.id;
  if (!canStartNote(appointment)) throw new NoteNotYetPossible('future');
  const created = await call(
    api.POST('/api/v1/sessions', {
      body: {
        client_id: appointment.client_id,
        appointment_id: appointment.id,
        session_date: sessionDateOf(appointment),
        duration_minutes: durationOf(appointment),
      },
    }),
  );
  return created.id;
}
