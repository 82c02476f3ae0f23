/** A signed note's signature: who signed and when, late entry, co-signature (with the
 * "Co-sign" action for an owner or the author's supervisor), and the addenda with reasons. */
import { useState } from 'react';
import type { Note } from '../api/client';
import { describeError } from '../api/errors';
import { useAttestations, useAwaitingCosign, useCosign } from '../api/notes';
import { useUsers } from '../api/users';
import { useSignedIn } from '../auth/AuthProvider';
import { formatDateTime } from '../lib/format';
import { Banner, Dialog } from '../ui/components';
import { mayCosign, signatureFacts } from './signature';

export function SignaturePanel({ note, canAct }: { note: Note; canAct: boolean }) {
  const { user } = useSignedIn();
  const owner = user.role === 'owner';
  const users = useUsers(owner);
  // Only a clinician needs the list to know they supervise the author (owners always may).
  const awaiting = useAwaitingCosign(!owner && note.cosign_status === 'awaiting' && note.author_id !== user.id);
  const attestations = useAttestations();
  const cosign = useCosign();
  const [confirming, setConfirming] = useState(false);
  if (note.status !== 'finalized') return null;

  const nameOf = (id: string | null | undefined) => {
    if (!id) return 'someone';
    if (id === user.id) return 'you';
    const member = users.data?.find((candidate) => candidate.id === id);
    return member ? member.display_name || member.email : 'a team member';
  };
  const facts = signatureFacts(note, nameOf, formatDateTime);
  const listed = awaiting.data?.items.some((item) => item.id === note.id) ?? false;
  const offerCosign = canAct && mayCosign(note, user, listed);
  const addenda = note.addenda ?? [];

  return (
    <section className="panel signature" aria-labelledby="signature-title">
      <h2 id="signature-title" className="visually-hidden">
        Signature
      </h2>
      <p>
        {facts.signed}
        {facts.lateEntry && (
          <>
            {' '}
            <span className="badge badge-late" title="Signed later than the practice's late-entry limit">
              Late entry
            </span>
          </>
        )}
      </p>
      {facts.cosign && (
        <p>
          <span className={`badge badge-${note.cosign_status}`}>{facts.cosign}</span>
        </p>
      )}
      {note.attestation && <p className="muted">Attested: “{note.attestation}”</p>}
      {cosign.isError && <Banner tone="danger">{describeError(cosign.error)}</Banner>}
      {offerCosign && (
        <div className="actions">
          <button
            type="button"
            className="button button-primary"
            disabled={cosign.isPending}
            onClick={() => setConfirming(true)}
          >
            {cosign.isPending ? 'Co-signing…' : 'Co-sign'}
          </button>
        </div>
      )}
      {addenda.length > 0 && (
        <>
          <h3>Addenda</h3>
          <ol className="plain-list addenda">
            {addenda.map((addendum) => (
              <li key={addendum.version}>
                Amended {formatDateTime(addendum.amended_at)} by {nameOf(addendum.amended_by)} (version{' '}
                {addendum.version}):{' '}
                {addendum.reason ? <q>{addendum.reason}</q> : <span className="muted">no reason recorded</span>}
              </li>
            ))}
          </ol>
        </>
      )}
      <Dialog title="Co-sign this note?" open={confirming} onClose={() => setConfirming(false)}>
        <p>
          Signed by {nameOf(note.signed_by)} on {formatDateTime(note.signed_at ?? note.finalized_at)}. Your co-signature
          is recorded with the note and in the audit trail.
        </p>
        {attestations.data ? (
          <p>
            By co-signing you attest: <strong>{attestations.data.cosignature.text}</strong>
          </p>
        ) : attestations.isError ? (
          <Banner tone="danger">{describeError(attestations.error)}</Banner>
        ) : (
          <p className="muted">Loading the statement you attest…</p>
        )}
        <div className="actions">
          <button
            type="button"
            className="button button-primary"
            disabled={!attestations.data}
            onClick={() => {
              setConfirming(false);
              cosign.mutate(note);
            }}
          >
            Co-sign note
          </button>
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </section>
  );
}
