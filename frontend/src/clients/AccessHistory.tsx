/** A client's access history (owners): who read, listed, changed or exported their records,
 * filterable, and downloadable as CSV (the download is itself audited). */
import { useId, useState, type FormEvent } from 'react';
import {
  ACCESS_KINDS,
  ACCESS_LOG_PAGE_SIZE,
  NO_ACCESS_FILTERS,
  VIA_LABELS,
  downloadAccessLogCsv,
  useAccessLog,
  type AccessKind,
  type AccessLogEntry,
  type AccessLogFilters,
} from '../api/accessLog';
import { describeError } from '../api/errors';
import { useUsers } from '../api/users';
import { dateRangeError } from '../lib/dateRange';
import { formatDateTime } from '../lib/format';
import { Banner, EmptyState, ErrorState, Loading, Pagination } from '../ui/components';

export function AccessHistory({ clientId }: { clientId: string }) {
  const id = useId();
  const [draft, setDraft] = useState<AccessLogFilters>(NO_ACCESS_FILTERS);
  const [applied, setApplied] = useState<AccessLogFilters>(NO_ACCESS_FILTERS);
  const [page, setPage] = useState(1);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [download, setDownload] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const users = useUsers();
  const log = useAccessLog(clientId, applied, page);

  function apply(event: FormEvent) {
    event.preventDefault();
    const inverted = dateRangeError(draft.since, draft.until);
    setRangeError(inverted);
    if (inverted) return;
    setApplied(draft);
    setPage(1);
  }

  async function downloadCsv() {
    setDownload({ busy: true, error: null });
    try {
      await downloadAccessLogCsv(clientId, applied);
      setDownload({ busy: false, error: null });
    } catch (error) {
      setDownload({ busy: false, error });
    }
  }

  const field = (name: 'since' | 'until') => ({
    id: `${id}-${name}`,
    type: 'datetime-local',
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });

  return (
    <section aria-labelledby={`${id}-title`} className="panel">
      <h2 id={`${id}-title`}>Access history</h2>
      <p className="muted">
        Everyone who read, listed, changed or exported this client’s chart, notes or appointments, newest first.
      </p>
      <form className="filters" onSubmit={apply} aria-label="Filter the access history">
        <div className="field">
          <label htmlFor={`${id}-kind`}>What</label>
          <select
            id={`${id}-kind`}
            value={draft.kind}
            onChange={(event) => setDraft({ ...draft, kind: event.target.value as AccessKind | '' })}
          >
            <option value="">Everything</option>
            {Object.entries(ACCESS_KINDS).map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-actor`}>Who</label>
          <select
            id={`${id}-actor`}
            value={draft.actor_user_id}
            onChange={(event) => setDraft({ ...draft, actor_user_id: event.target.value })}
          >
            <option value="">Anyone</option>
            {users.data?.map((user) => (
              <option key={user.id} value={user.id}>
                {user.display_name || user.email}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-since`}>From</label>
          <input {...field('since')} />
        </div>
        <div className={`field${rangeError ? ' field-invalid' : ''}`}>
          <label htmlFor={`${id}-until`}>Until</label>
          <input
            {...field('until')}
            aria-invalid={rangeError ? true : undefined}
            aria-describedby={rangeError ? `${id}-range-error` : undefined}
          />
          {rangeError && (
            <p className="field-error" id={`${id}-range-error`}>
              {rangeError}
            </p>
          )}
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary">
            Apply filters
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              setDraft(NO_ACCESS_FILTERS);
              setApplied(NO_ACCESS_FILTERS);
              setRangeError(null);
              setPage(1);
            }}
          >
            Clear filters
          </button>
          <button type="button" className="button" disabled={download.busy} onClick={() => void downloadCsv()}>
            {download.busy ? 'Preparing the file…' : 'Download CSV'}
          </button>
        </div>
      </form>
      {download.error !== null && (
        <Banner tone="danger" title="The file could not be made">
          <p>{describeError(download.error)}</p>
        </Banner>
      )}
      {log.isPending ? (
        <Loading label="Loading the access history…" />
      ) : log.isError ? (
        <ErrorState
          error={log.error}
          onRetry={() => void log.refetch()}
          title="The access history could not be loaded"
        />
      ) : log.data.items.length === 0 ? (
        <EmptyState title="No access matches these filters" />
      ) : (
        <>
          <p className="muted" role="status">
            {log.data.total} event{log.data.total === 1 ? '' : 's'}
          </p>
          <div className="table-wrap">
            <table className="table table-compact">
              <caption className="visually-hidden">Access history</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Via</th>
                </tr>
              </thead>
              <tbody>
                {log.data.items.map((entry) => (
                  <AccessRow key={entry.id} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            label="Access history pages"
            page={page}
            pageSize={ACCESS_LOG_PAGE_SIZE}
            total={log.data.total}
            onPage={setPage}
          />
        </>
      )}
    </section>
  );
}

const RECORD_LABELS: Record<string, string> = { client: 'chart', session: 'note', appointment: 'appointment' };

function AccessRow({ entry }: { entry: AccessLogEntry }) {
  const who = entry.actor_name ?? (entry.via === 'system' ? 'CareVault (server command)' : 'A former user');
  return (
    <tr>
      <td data-label="When">{formatDateTime(entry.occurred_at)}</td>
      <td data-label="Who">
        {who}
        {entry.actor_role && <span className="muted"> ({entry.actor_role})</span>}
      </td>
      <td data-label="What">
        {ACCESS_KINDS[entry.kind]}
        {entry.resource_type && (
          <span className="muted"> · {RECORD_LABELS[entry.resource_type] ?? entry.resource_type}</span>
        )}
        <div className="muted">
          <code>{entry.action}</code>
        </div>
      </td>
      <td data-label="Via">
        {VIA_LABELS[entry.via]}
        {entry.token_name && <> “{entry.token_name}”</>}
        {entry.ip_address && <div className="muted">{entry.ip_address}</div>}
      </td>
    </tr>
  );
}
