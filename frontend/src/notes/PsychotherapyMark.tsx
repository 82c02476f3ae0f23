/** Marks a note as a psychotherapy note (45 CFR 164.501): a client's record export leaves it
 * out and says how many were left out. On a signed note the change is an amendment, with a reason. */
import { useId, useState } from 'react';
import type { Note } from '../api/client';
import { describeError } from '../api/errors';
import { useMarkPsychotherapy } from '../api/notes';
import { Banner, Dialog } from '../ui/components';
import type { AutosaveState } from './autosave';

export const PSYCHOTHERAPY_HINT = "Left out of the client's record export (the export says how many were left out).";

export function PsychotherapyMark({ note, state }: { note: Note; state: AutosaveState }) {
  const id = useId();
  const [asking, setAsking] = useState<boolean | null>(null);
  const [reason, setReason] = useState('');
  const marked = note.psychotherapy_note ?? false;
  // Only while the editor has nothing of its own in flight: the change takes the version it last saved.
  const idle = !state.dirty && state.busy === null && state.conflictVersion === null && state.mode !== 'amending';
  const mark = useMarkPsychotherapy(note);
  const change = {
    isPending: mark.isPending,
    isError: mark.isError,
    error: mark.error,
    mutate: ({ value, why }: { value: boolean; why: string }) =>
      mark.mutate(
        { version: state.version, value, reason: why },
        {
          onSuccess: () => {
            setAsking(null);
            setReason('');
          },
        },
      ),
  };
  const toggle = (value: boolean) => {
    if (state.noteStatus === 'finalized') setAsking(value);
    else change.mutate({ value, why: '' });
  };
  return (
    <div className="psychotherapy-mark">
      <label htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={marked}
          disabled={!idle || change.isPending}
          onChange={(event) => toggle(event.target.checked)}
        />{' '}
        Psychotherapy note
      </label>{' '}
      <span className="muted">{PSYCHOTHERAPY_HINT}</span>
      {change.isError && <Banner tone="danger">{describeError(change.error)}</Banner>}
      <Dialog
        title={asking ? 'Mark as a psychotherapy note?' : 'Unmark as a psychotherapy note?'}
        open={asking !== null}
        onClose={() => setAsking(null)}
      >
        <p>The note is signed: this change is an amendment, kept with a reason.</p>
        <label htmlFor={`${id}-reason`}>Reason (required)</label>
        <textarea id={`${id}-reason`} value={reason} onChange={(event) => setReason(event.target.value)} />
        <div className="actions">
          <button
            type="button"
            className="button button-primary"
            disabled={!reason.trim() || change.isPending}
            onClick={() => change.mutate({ value: asking ?? false, why: reason.trim() })}
          >
            Amend
          </button>
          <button type="button" className="button" onClick={() => setAsking(null)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </div>
  );
}
