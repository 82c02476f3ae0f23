import { useNoteVersions } from '../api/notes';
import { useUsers } from '../api/users';
import { useSignedIn } from '../auth/AuthProvider';
import { formatDateTime } from '../lib/format';
import { EmptyState, ErrorState, Loading } from '../ui/components';
import { SECTION_LABELS } from './sections';
import { SOAP_FIELDS } from './autosave';

export function VersionHistory({
  noteId,
  finalized,
  currentVersion,
}: {
  noteId: string;
  finalized: boolean;
  currentVersion: number;
}) {
  const versions = useNoteVersions(noteId);
  const { user } = useSignedIn();
  const users = useUsers(user.role === 'owner');
  const nameOf = (id: string | null | undefined) => {
    if (!id) return 'someone';
    if (id === user.id) return 'you';
    const member = users.data?.find((candidate) => candidate.id === id);
    return member ? member.display_name || member.email : 'a team member';
  };
  return (
    <section className="history" aria-labelledby="history-title">
      <h2 id="history-title">Version history</h2>
      <p className="muted">Current version: {currentVersion}.</p>
      {versions.isPending ? (
        <Loading label="Loading the version history…" />
      ) : versions.isError ? (
        <ErrorState error={versions.error} onRetry={() => void versions.refetch()} />
      ) : versions.data.length === 0 ? (
        <EmptyState title="No amendments">
          <p className="muted">
            {finalized
              ? 'When this note is amended, the text it replaces is kept here.'
              : 'Drafts are saved as you type. Once the note is finalized, every amendment keeps the earlier text here.'}
          </p>
        </EmptyState>
      ) : (
        <ol className="history-list" aria-label="Earlier versions">
          {versions.data.map((version) => (
            <li key={version.id}>
              <details>
                <summary>
                  Version {version.version}, replaced {formatDateTime(version.amended_at)} by{' '}
                  {nameOf(version.amended_by)}
                </summary>
                <dl className="history-content">
                  {SOAP_FIELDS.map((field) => (
                    <div key={field}>
                      <dt>{SECTION_LABELS[field].label}</dt>
                      <dd>{version[field] || <span className="muted">(empty)</span>}</dd>
                    </div>
                  ))}
                </dl>
              </details>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
