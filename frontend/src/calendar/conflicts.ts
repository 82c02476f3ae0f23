/** What a 409 `appointment_conflict` says, for people: which appointment, and what it shares. */
import type { Appointment } from '../api/client';
import { isApiError } from '../api/errors';
import { formatDateKey } from '../lib/format';
import { formatZonedTime, wallTime } from './zone';

interface ConflictDetail {
  id: string;
  shares?: string[];
  occurrence_starts_at?: string;
}

const SHARED: Record<string, string> = { clinician: 'clinician', client: 'client', room: 'room' };

/** One line per clashing appointment ("17:00–17:50: Ada Example — same client"); null when
 * the error is not a conflict. `known`: the appointments on screen, to name the clashes. */
export function conflictLines(error: unknown, known: Appointment[], zone: string): string[] | null {
  if (!isApiError(error, 'appointment_conflict')) return null;
  const details = (error.details ?? {}) as { conflicts?: ConflictDetail[]; conflicting_ids?: string[] };
  const conflicts: ConflictDetail[] = details.conflicts ?? (details.conflicting_ids ?? []).map((id) => ({ id }));
  return conflicts.map((conflict) => {
    const item = known.find((candidate) => candidate.id === conflict.id);
    const shares = (conflict.shares ?? []).map((share) => {
      const what = SHARED[share] ?? share;
      if (share === 'clinician' && item) return `same ${what} (${item.clinician.display_name})`;
      if (share === 'room' && item?.room) return `same ${what} (${item.room})`;
      return `same ${what}`;
    });
    const when = conflict.occurrence_starts_at
      ? `On ${formatDateKey(wallTime(conflict.occurrence_starts_at, zone).key)}: `
      : '';
    const what = item
      ? `${formatZonedTime(item.starts_at, zone)}–${formatZonedTime(item.ends_at, zone)}: ${appointmentName(item)}`
      : 'An appointment outside this view';
    return `${when}${what}${shares.length ? ` — ${shares.join(', ')}` : ''}`;
  });
}

/** The client's name as the appointment carries it (a token without clients:read gets none). */
export function appointmentName(item: Pick<Appointment, 'client'>): string {
  return item.client ? `${item.client.first_name} ${item.client.last_name}` : 'Client';
}
