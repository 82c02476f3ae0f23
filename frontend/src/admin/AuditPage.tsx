import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import {
  ACTOR_CHOICES,
  AUDIT_FILTERS,
  AUDIT_PAGE_SIZE,
  useAuditEvents,
  type AuditFilter,
  type AuditFilters,
} from '../api/audit';
import { useUsers } from '../api/users';
import { dateRangeError } from '../lib/dateRange';
import { formatDateTime } from '../lib/format';
import { useDocumentTitle } from '../lib/hooks';
import { Banner, EmptyState, ErrorState, Loading, Pagination } from '../ui/components';

const KNOWN_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.login_rate_limited',
  'auth.login_throttled',
  'auth.logout',
  'auth.reauthenticate',
  'auth.reauthenticate_failed',
  'auth.password_change',
  'auth.password_change_failed',
  'auth.token_used',
  'api_token.create',
  'api_token.revoke',
  'service_account.create',
  'service_account.disable',
  'service_account.enable',
  'service_account.delete',
  'service_account.token_create',
  'service_account.token_revoke',
  'audit.read',
  'user.create',
  'user.disable',
  'user.enable',
  'user.temporary_password',
  'user.update',
  'workspace.update',
  'client.create',
  'client.read',
  'client.list',
  'client.update',
  'client.archive',
  'client.restore',
  'client.import',
  'client.access_log',
  'client.care_team',
  'client.break_the_glass',
  'client.break_the_glass_review',
  'appointment.create',
  'appointment.read',
  'appointment.list',
  'appointment.update',
  'appointment.delete',
  'session.create',
  'session.read',
  'session.list',
  'session.update',
  'session.finalize',
  'session.cosign',
  'session.amend',
  'session.versions_read',
  'session.delete',
  'session.restore',
  'phi.decryption_failed',
];
const RESOURCE_TYPES = [
  'session',
  'client',
  'appointment',
  'user',
  'api_token',
  'service_account',
  'login_session',
  'audit_event',
];

export function AuditPage() {
  useDocumentTitle('Audit log');
  const [params, setParams] = useSearchParams();
  const applied = Object.fromEntries(AUDIT_FILTERS.map((name) => [name, params.get(name) ?? ''])) as AuditFilters;
  const [draft, setDraft] = useState(applied);
  const page = Number(params.get('page') ?? '1') || 1;
  const users = useUsers();
  const id = useId();
  // An inverted range is refused here before the server would (422 invalid_date_range).
  const [rangeError, setRangeError] = useState<string | null>(null);

  const events = useAuditEvents(applied, page);

  function apply(event: FormEvent) {
    event.preventDefault();
    const inverted = dateRangeError(draft.since, draft.until);
    setRangeError(inverted);
    if (inverted) return;
    const next = new URLSearchParams();
    for (const name of AUDIT_FILTERS) if (draft[name].trim()) next.set(name, draft[name].trim());
    setParams(next);
  }

  function clear() {
    setDraft(Object.fromEntries(AUDIT_FILTERS.map((name) => [name, ''])) as AuditFilters);
    setRangeError(null);
    setParams(new URLSearchParams());
  }

  const roleLabel = (role: string | null) => (role === 'owner' ? 'owner' : role === 'clinician' ? 'clinician' : role);
  const field = (name: AuditFilter) => ({
    id: `${id}-${name}`,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });

  return (
    <section aria-labelledby="audit-title">
      <header className="page-header">
        <div>
          <h1 id="audit-title">Audit log</h1>
          <p className="muted">
            Every read and change of protected information, every sign-in and token use. Newest first.
          </p>
        </div>
      </header>
      <form className="filters" onSubmit={apply} aria-label="Filter audit events">
        <div className="field">
          <label htmlFor={`${id}-user_id`}>User</label>
          <select {...field('user_id')}>
            <option value="">Anyone</option>
            {users.data?.map((user) => (
              <option key={user.id} value={user.id}>
                {user.display_name || user.email}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-actor`}>Who acted</label>
          <select {...field('actor')}>
            {ACTOR_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-action`}>Action</label>
          <input {...field('action')} list={`${id}-actions`} placeholder="e.g. session.read" />
          <datalist id={`${id}-actions`}>
            {KNOWN_ACTIONS.map((action) => (
              <option key={action} value={action} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor={`${id}-resource_type`}>Resource type</label>
          <input {...field('resource_type')} list={`${id}-types`} placeholder="e.g. session" />
          <datalist id={`${id}-types`}>
            {RESOURCE_TYPES.map((type) => (
              <option key={type} value={type} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor={`${id}-resource_id`}>Resource id</label>
          <input {...field('resource_id')} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-since`}>From</label>
          <input type="datetime-local" {...field('since')} />
        </div>
        <div className={`field${rangeError ? ' field-invalid' : ''}`}>
          <label htmlFor={`${id}-until`}>Until</label>
          <input
            type="datetime-local"
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
          <button type="button" className="button" onClick={clear}>
            Clear filters
          </button>
        </div>
      </form>

      {rangeError && <Banner tone="danger">{rangeError} Nothing was searched.</Banner>}
      {events.isPending ? (
        <Loading label="Loading audit events…" />
      ) : events.isError ? (
        <ErrorState
          error={events.error}
          onRetry={() => void events.refetch()}
          title="The audit log could not be loaded"
        />
      ) : events.data.items.length === 0 ? (
        <EmptyState title="No audit events match these filters" />
      ) : (
        <>
          <p className="muted" role="status">
            {events.data.total} event{events.data.total === 1 ? '' : 's'}
          </p>
          <div className="table-wrap">
            <table className="table table-compact">
              <caption className="visually-hidden">Audit events</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Resource</th>
                  <th scope="col">Address</th>
                </tr>
              </thead>
              <tbody>
                {events.data.items.map((event) => (
                  <tr key={event.id}>
                    <td data-label="When">{formatDateTime(event.occurred_at)}</td>
                    <td data-label="Who">
                      {event.actor_name ?? (event.actor_user_id ? 'A former user' : 'The system')}
                      {event.actor_role && <span className="muted"> ({roleLabel(event.actor_role)})</span>}
                      {event.actor_kind === 'service_account' && <span className="muted"> (service account)</span>}
                      {(event.token_name || event.actor_token_id) && (
                        <div className="muted">
                          via API token {event.token_name ? `“${event.token_name}”` : '(name unknown)'}
                        </div>
                      )}
                    </td>
                    <td data-label="Action">
                      <code>{event.action}</code>
                      {event.details?.break_the_glass === true && (
                        <>
                          {' '}
                          <span className="badge badge-late">Break-the-glass</span>
                        </>
                      )}
                    </td>
                    <td data-label="Resource">
                      {event.resource_type ?? '—'}
                      {event.resource_ids && event.resource_ids.length > 0 && (
                        <span className="muted ids" title={event.resource_ids.join(', ')}>
                          {' '}
                          {event.resource_ids.length === 1
                            ? event.resource_ids[0]
                            : `${event.resource_ids.length} records`}
                        </span>
                      )}
                    </td>
                    <td data-label="Address">{event.ip_address ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            label="Audit log pages"
            page={page}
            pageSize={AUDIT_PAGE_SIZE}
            total={events.data.total}
            onPage={(next) => {
              const merged = new URLSearchParams(params);
              merged.set('page', String(next));
              setParams(merged);
            }}
          />
        </>
      )}
    </section>
  );
}
