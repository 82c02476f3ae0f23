/** The notes a clinician works through: their unsigned drafts, and the signed notes of
 * trainees awaiting their co-signature. Each row opens the note. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Note } from '../api/client';
import { useAwaitingCosign, useMyDrafts } from '../api/notes';
import { useUsers } from '../api/users';
import { useSignedIn } from '../auth/AuthProvider';
import { formatDateKey, formatDateTime } from '../lib/format';
import { useDocumentTitle } from '../lib/hooks';
import { EmptyState, ErrorState, Loading } from '../ui/components';
import { routes } from '../routes';

export function WorklistPage() {
  useDocumentTitle('Notes to finish');
  const { user } = useSignedIn();
  const drafts = useMyDrafts(user.id);
  const awaiting = useAwaitingCosign();
  // Only owners can read the team; a supervisor sees "a clinician you supervise".
  const users = useUsers(user.role === 'owner');
  const nameOf = (id: string) => {
    const member = users.data?.find((candidate) => candidate.id === id);
    return member ? member.display_name || member.email : 'A clinician you supervise';
  };

  return (
    <section aria-labelledby="worklist-title">
      <header className="page-header">
        <div>
          <h1 id="worklist-title">Notes to finish</h1>
          <p className="muted">Your unsigned notes, and the notes waiting for your co-signature.</p>
        </div>
      </header>
      <div className="stack">
        <section className="panel" aria-labelledby="drafts-title">
          <h2 id="drafts-title">Your unsigned notes</h2>
          {drafts.isPending ? (
            <Loading label="Loading your drafts…" />
          ) : drafts.isError ? (
            <ErrorState error={drafts.error} onRetry={() => void drafts.refetch()} />
          ) : drafts.data.items.length === 0 ? (
            <EmptyState title="No unsigned notes">
              <p className="muted">Every note you wrote is signed.</p>
            </EmptyState>
          ) : (
            <NoteTable
              caption="Your unsigned notes"
              notes={drafts.data.items}
              total={drafts.data.total}
              extra={{ heading: 'Last saved', cell: (note) => formatDateTime(note.updated_at) }}
            />
          )}
        </section>
        <section className="panel" aria-labelledby="cosign-title">
          <h2 id="cosign-title">Awaiting your co-signature</h2>
          {awaiting.isPending ? (
            <Loading label="Loading notes awaiting co-signature…" />
          ) : awaiting.isError ? (
            <ErrorState error={awaiting.error} onRetry={() => void awaiting.refetch()} />
          ) : awaiting.data.items.length === 0 ? (
            <EmptyState title="Nothing awaits your co-signature" />
          ) : (
            <NoteTable
              caption="Notes awaiting your co-signature"
              notes={awaiting.data.items}
              total={awaiting.data.total}
              extra={{
                heading: 'Signed',
                cell: (note) => (
                  <>
                    {nameOf(note.author_id)}, {formatDateTime(note.signed_at ?? note.finalized_at)}
                    {note.late_entry && (
                      <>
                        {' '}
                        <span className="badge badge-late">Late entry</span>
                      </>
                    )}
                  </>
                ),
              }}
            />
          )}
        </section>
      </div>
    </section>
  );
}

function NoteTable({
  caption,
  notes,
  total,
  extra,
}: {
  caption: string;
  notes: Note[];
  total: number;
  extra: { heading: string; cell: (note: Note) => ReactNode };
}) {
  return (
    <>
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Session</th>
              <th scope="col">Length</th>
              <th scope="col">{extra.heading}</th>
            </tr>
          </thead>
          <tbody>
            {notes.map((note) => (
              <tr key={note.id}>
                <td data-label="Session">
                  <Link to={routes.note(note.id)}>Note of {formatDateKey(note.session_date)}</Link>
                </td>
                <td data-label="Length">{note.duration_minutes} min</td>
                <td data-label={extra.heading}>{extra.cell(note)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > notes.length && (
        <p className="muted">
          Showing {notes.length} of {total}; finish these to see the rest.
        </p>
      )}
    </>
  );
}
