import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useAppointments } from '../api/appointments';
import type { Client, Note } from '../api/client';
import { useArchiveClient, useClient } from '../api/clients';
import { describeError, isApiError } from '../api/errors';
import { useClientNotes } from '../api/notes';
import { AppointmentDialog } from '../calendar/AppointmentDialog';
import { addDays } from '../calendar/layout';
import { dateKey, formatDate, formatDateKey, formatDateTime, formatTime, fullName } from '../lib/format';
import { useDocumentTitle } from '../lib/hooks';
import { Banner, Dialog, EmptyState, ErrorState, Loading, StatusBadge } from '../ui/components';
import { useSignedIn } from '../auth/AuthProvider';
import { AccessHistory } from './AccessHistory';
import { CareTeamPanel, ChartOutsideCareTeam, GlassReview } from './CareTeam';
import { ClientFormDialog } from './ClientFormDialog';
import { ExportRecordDialog } from './ExportRecordDialog';
import { routes, type RouteParams } from '../routes';

export function ClientPage() {
  const { clientId = '' } = useParams<RouteParams<'client'>>();
  const client = useClient(clientId);
  useDocumentTitle(client.data ? fullName(client.data) : 'Client');
  if (client.isPending) return <Loading label="Loading the client…" />;
  if (client.isError && isApiError(client.error, 'chart_access_denied'))
    return <ChartOutsideCareTeam clientId={clientId} />;
  if (client.isError)
    return (
      <ErrorState error={client.error} title="This client could not be opened" onRetry={() => void client.refetch()} />
    );
  return <ClientDetails client={client.data} />;
}

/** The client page's tab (owners): `access` for the access history; the overview without it. */
const CLIENT_TAB_PARAM = 'tab';

const DETAILS: Array<[Exclude<keyof Client, 'metadata'>, string]> = [
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['date_of_birth', 'Date of birth'],
  ['address', 'Address'],
  ['emergency_contact_name', 'Emergency contact'],
  ['emergency_contact_phone', 'Emergency contact phone'],
  ['medical_history', 'Medical history'],
  ['notes', 'Notes'],
];

function ClientDetails({ client }: { client: Client }) {
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [booking, setBooking] = useState(false);
  const [confirmArchive, setConfirmArchive] = useState(false);
  const [exporting, setExporting] = useState(false);
  const archive = useArchiveClient(client.id);
  // Nothing is created until the first keystroke in the new note.
  const startNote = () => void navigate(routes.newNote(client.id));
  const owner = useSignedIn().user.role === 'owner';
  const [params, setParams] = useSearchParams();
  const tab = owner && params.get(CLIENT_TAB_PARAM) === 'access' ? 'access' : 'overview';

  return (
    <article aria-labelledby="client-title" className="client-page">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link to={routes.clients()}>Clients</Link>
      </nav>
      <header className="page-header">
        <div>
          <h1 id="client-title">
            {fullName(client)} {client.archived_at && <span className="badge badge-archived">Archived</span>}
          </h1>
          <p className="muted">Client since {formatDate(new Date(client.created_at))}</p>
        </div>
        <div className="toolbar">
          <button type="button" className="button button-primary" disabled={!!client.archived_at} onClick={startNote}>
            New note
          </button>
          <button type="button" className="button" disabled={!!client.archived_at} onClick={() => setBooking(true)}>
            Book appointment
          </button>
          <button type="button" className="button" onClick={() => setEditing(true)}>
            Edit details
          </button>
          <button type="button" className="button" onClick={() => setExporting(true)}>
            Export record
          </button>
          <button
            type="button"
            className="button"
            disabled={archive.isPending}
            onClick={() => (client.archived_at ? archive.mutate(true) : setConfirmArchive(true))}
          >
            {client.archived_at ? 'Restore client' : 'Archive client'}
          </button>
        </div>
      </header>
      {client.archived_at && (
        <Banner tone="info" title="This client is archived">
          <p>Archived {formatDateTime(client.archived_at)}. Restore the client to book appointments or start notes.</p>
        </Banner>
      )}
      {archive.isError && <Banner tone="danger">{describeError(archive.error)}</Banner>}
      <ExportRecordDialog clientId={client.id} open={exporting} onClose={() => setExporting(false)} />
      <Dialog
        title="Archive this client?"
        open={confirmArchive}
        onClose={() => setConfirmArchive(false)}
        role="alertdialog"
      >
        <p>
          {fullName(client)} will leave the client list and the booking form; their notes and appointments are kept. You
          can restore the client at any time.
        </p>
        <div className="actions">
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              setConfirmArchive(false);
              archive.mutate(false);
            }}
          >
            Archive client
          </button>
          <button type="button" className="button" onClick={() => setConfirmArchive(false)}>
            Keep the client
          </button>
        </div>
      </Dialog>

      {owner && (
        <div className="tabs" role="tablist" aria-label="Client sections">
          {(
            [
              ['overview', 'Overview'],
              ['access', 'Access history'],
            ] as const
          ).map(([name, label]) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`client-tab-${name}`}
              aria-selected={tab === name}
              aria-controls={`client-panel-${name}`}
              className={`tab${tab === name ? ' tab-active' : ''}`}
              onClick={() => setParams(name === 'overview' ? {} : { [CLIENT_TAB_PARAM]: name }, { replace: true })}
            >
              {label}
            </button>
          ))}
        </div>
      )}
      {tab === 'access' ? (
        <div role="tabpanel" id="client-panel-access" aria-labelledby="client-tab-access">
          <AccessHistory clientId={client.id} />
          <GlassReviewOnRequest clientId={client.id} />
        </div>
      ) : (
        <div
          className="client-columns"
          {...(owner
            ? { role: 'tabpanel', id: 'client-panel-overview', 'aria-labelledby': 'client-tab-overview' }
            : {})}
        >
          <section aria-labelledby="details-title" className="panel">
            <h2 id="details-title">Details</h2>
            <dl className="details">
              {DETAILS.map(([key, label]) => {
                const value = client[key];
                return (
                  <div key={key}>
                    <dt>{label}</dt>
                    <dd>
                      {value ? (
                        key === 'date_of_birth' ? (
                          formatDateKey(value)
                        ) : (
                          value
                        )
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </dd>
                  </div>
                );
              })}
            </dl>
          </section>
          <div className="stack">
            <CareTeamPanel clientId={client.id} />
            <UpcomingAppointments clientId={client.id} />
            <NotesTimeline clientId={client.id} />
          </div>
        </div>
      )}

      {editing && (
        <ClientFormDialog client={client} onClose={() => setEditing(false)} onSaved={() => setEditing(false)} />
      )}
      {booking && (
        <AppointmentDialog
          target={{ kind: 'new', date: dateKey(new Date()), time: '09:00', clientId: client.id }}
          clients={[client]}
          clientsLoading={false}
          appointments={[]}
          nameOf={() => fullName(client)}
          onClose={() => setBooking(false)}
          onOpenNote={() => setBooking(false)}
        />
      )}
    </article>
  );
}

/** The openings' reasons are read (and that read audited) only when an owner asks. */
function GlassReviewOnRequest({ clientId }: { clientId: string }) {
  const [shown, setShown] = useState(false);
  if (shown) return <GlassReview clientId={clientId} />;
  return (
    <div className="actions">
      <button type="button" className="button" onClick={() => setShown(true)}>
        Show break-the-glass openings
      </button>
    </div>
  );
}

function UpcomingAppointments({ clientId }: { clientId: string }) {
  const [start] = useState(() => {
    const now = new Date();
    now.setMinutes(0, 0, 0);
    return now;
  });
  const end = useMemo(() => addDays(start, 60), [start]);
  const appointments = useAppointments(start, end);
  const mine = (appointments.data ?? []).filter((item) => item.client_id === clientId && item.status !== 'cancelled');
  return (
    <section aria-labelledby="upcoming-title" className="panel">
      <h2 id="upcoming-title">Upcoming appointments</h2>
      {appointments.isPending ? (
        <Loading label="Loading appointments…" />
      ) : appointments.isError ? (
        <ErrorState error={appointments.error} onRetry={() => void appointments.refetch()} />
      ) : mine.length === 0 ? (
        <p className="muted">None in the next 60 days.</p>
      ) : (
        <ul className="plain-list">
          {mine.map((item) => (
            <li key={item.id}>
              <Link to={routes.calendar(dateKey(new Date(item.starts_at)))}>
                {formatDate(new Date(item.starts_at))}, {formatTime(item.starts_at)}–{formatTime(item.ends_at)}
              </Link>{' '}
              <StatusBadge status={item.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function excerpt(note: Note): string {
  const text = note.subjective || note.assessment || note.objective || note.plan || '';
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

function NotesTimeline({ clientId }: { clientId: string }) {
  const [page, setPage] = useState(1);
  const notes = useClientNotes(clientId, page);
  return (
    <section aria-labelledby="timeline-title" className="panel">
      <h2 id="timeline-title">Session notes</h2>
      {notes.isPending ? (
        <Loading label="Loading notes…" />
      ) : notes.isError ? (
        <ErrorState error={notes.error} onRetry={() => void notes.refetch()} />
      ) : notes.data.items.length === 0 ? (
        <EmptyState title="No session notes yet">
          <p className="muted">Start one with “New note”, or from an appointment in the calendar.</p>
        </EmptyState>
      ) : (
        <>
          <ol className="timeline">
            {notes.data.items.map((note) => (
              <li key={note.id}>
                <div className="timeline-head">
                  <Link to={routes.note(note.id)}>Note of {formatDateKey(note.session_date)}</Link>{' '}
                  <StatusBadge status={note.status} /> <span className="muted">· {note.duration_minutes} min</span>
                </div>
                {excerpt(note) ? (
                  <p className="timeline-excerpt">{excerpt(note)}</p>
                ) : (
                  <p className="muted">(empty so far)</p>
                )}
              </li>
            ))}
          </ol>
          {notes.data.total > notes.data.page * notes.data.page_size && (
            <button type="button" className="button" onClick={() => setPage(page + 1)}>
              Older notes
            </button>
          )}
          {page > 1 && (
            <button type="button" className="button" onClick={() => setPage(page - 1)}>
              Newer notes
            </button>
          )}
        </>
      )}
    </section>
  );
}
