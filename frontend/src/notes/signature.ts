/** What a note's signature says, for people: who signed and when, late entry, co-signature. */
import type { Note } from '../api/client';

export type NameOf = (userId: string | null | undefined) => string;

export const COSIGN_LABELS: Record<NonNullable<Note['cosign_status']>, string> = {
  awaiting: 'Awaiting co-signature',
  cosigned: 'Co-signed',
};

export interface SignatureFacts {
  signed: string | null;
  lateEntry: boolean;
  cosign: string | null;
}

/** The lines the note page shows under its title (dates formatted by `format`). */
export function signatureFacts(
  note: Pick<
    Note,
    | 'status'
    | 'signed_by'
    | 'signed_at'
    | 'finalized_at'
    | 'late_entry'
    | 'cosign_status'
    | 'cosigned_by'
    | 'cosigned_at'
  >,
  nameOf: NameOf,
  format: (iso: string) => string,
): SignatureFacts {
  if (note.status !== 'finalized') return { signed: null, lateEntry: false, cosign: null };
  const at = note.signed_at ?? note.finalized_at;
  const signed = note.signed_by
    ? `Signed by ${nameOf(note.signed_by)}${at ? ` on ${format(at)}` : ''}`
    : `Finalized${at ? ` on ${format(at)}` : ''} before notes were signed (no signer recorded)`;
  let cosign: string | null = null;
  if (note.cosign_status === 'awaiting') cosign = COSIGN_LABELS.awaiting;
  else if (note.cosign_status === 'cosigned')
    cosign = `Co-signed by ${nameOf(note.cosigned_by)}${note.cosigned_at ? ` on ${format(note.cosigned_at)}` : ''}`;
  return { signed, lateEntry: note.late_entry, cosign };
}

/** May this user co-sign the note? An owner or the author's supervisor, never the author,
 * and only while it awaits one. A clinician cannot read who supervises whom: the note being
 * in their awaiting-co-signature list (`listedForMe`) says it. The server decides; this only
 * offers the button. */
export function mayCosign(
  note: Pick<Note, 'author_id' | 'cosign_status'>,
  user: { id: string; role: string },
  listedForMe: boolean,
): boolean {
  if (note.cosign_status !== 'awaiting' || note.author_id === user.id) return false;
  return user.role === 'owner' || listedForMe;
}
