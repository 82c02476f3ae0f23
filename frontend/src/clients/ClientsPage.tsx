import { useEffect, useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CLIENT_PAGE_SIZE, useClientList } from '../api/clients';
import { formatDateKey, fullName } from '../lib/format';
import { useDebounced, useDocumentTitle } from '../lib/hooks';
import { EmptyState, ErrorState, Loading, Pagination } from '../ui/components';
import { ClientFormDialog } from './ClientFormDialog';
import { routes } from '../routes';

// A search term is PHI (a name, an email, a phone number), so it never goes into the page's
// URL (browser history, bookmarks, Referer) nor a request's URL (proxy and server logs): it
// lives in memory only, kept here so that coming back from a client shows the same search.
let rememberedSearch = '';

export function ClientsPage() {
  useDocumentTitle('Clients');
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(rememberedSearch);
  const q = useDebounced(text.trim(), 300);
  const page = Number(params.get('page') ?? '1') || 1;
  const archived = params.get('archived') === '1';
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const id = useId();

  useEffect(() => {
    rememberedSearch = text;
  }, [text]);

  useEffect(() => {
    // An old bookmark may still carry ?q=: take it out of the address bar.
    if (params.has('q')) {
      const cleaned = new URLSearchParams(params);
      cleaned.delete('q');
      setParams(cleaned, { replace: true });
    }
  }, [params, setParams]);

  const clients = useClientList(q, page, archived);

  const update = (next: Record<string, string | null>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) merged.set(key, value);
      else merged.delete(key);
    }
    setParams(merged, { replace: true });
  };

  return (
    <section aria-labelledby="clients-title">
      <header className="page-header">
        <h1 id="clients-title">Clients</h1>
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          New client
        </button>
      </header>
      <form
        role="search"
        className="search"
        onSubmit={(event) => {
          event.preventDefault();
          update({ page: null });
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-q`}>Search clients</label>
          <input
            id={`${id}-q`}
            type="search"
            value={text}
            aria-describedby={`${id}-q-hint`}
            onChange={(event) => {
              setText(event.target.value);
              update({ page: null });
            }}
          />
          <p className="field-hint" id={`${id}-q-hint`}>
            Part of a first or last name, or an exact email address or phone number.
          </p>
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={archived}
            onChange={(event) => update({ archived: event.target.checked ? '1' : null, page: null })}
          />
          Include archived clients
        </label>
      </form>

      {clients.isPending ? (
        <Loading label="Loading clients…" />
      ) : clients.isError ? (
        <ErrorState error={clients.error} onRetry={() => void clients.refetch()} title="Clients could not be loaded" />
      ) : clients.data.items.length === 0 ? (
        q ? (
          <EmptyState title={`No clients match “${q}”`}>
            <p className="muted">Names match in part; email addresses and phone numbers must match exactly.</p>
          </EmptyState>
        ) : (
          <EmptyState title="No clients yet">
            <p className="muted">Add your first client to book appointments and write notes.</p>
            <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
              Add a client
            </button>
          </EmptyState>
        )
      ) : (
        <>
          <p className="muted" role="status">
            {clients.data.total} client{clients.data.total === 1 ? '' : 's'}
            {q ? ` matching “${q}”` : ''}
          </p>
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Clients</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Date of birth</th>
                </tr>
              </thead>
              <tbody>
                {clients.data.items.map((client) => (
                  <tr key={client.id}>
                    <td data-label="Name">
                      <Link to={routes.client(client.id)}>{fullName(client)}</Link>
                      {client.archived_at && <span className="badge badge-archived">Archived</span>}
                    </td>
                    <td data-label="Date of birth">
                      {client.date_of_birth ? formatDateKey(client.date_of_birth) : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            label="Client pages"
            page={page}
            pageSize={CLIENT_PAGE_SIZE}
            total={clients.data.total}
            onPage={(next) => update({ page: String(next) })}
          />
        </>
      )}
      {creating && (
        <ClientFormDialog
          client={null}
          onClose={() => setCreating(false)}
          onSaved={(client) => void navigate(routes.client(client.id))}
        />
      )}
    </section>
  );
}
