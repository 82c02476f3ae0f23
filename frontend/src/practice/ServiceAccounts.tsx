import { useId, useState, type FormEvent } from 'react';
import type { ServiceAccount, ServiceAccountToken, ServiceAccountTokenCreated } from '../api/client';
import { describeError } from '../api/errors';
import { maxLength } from '../api/limits.generated';
import {
  useCreateServiceAccount,
  useDeleteServiceAccount,
  useIssueServiceAccountToken,
  useRevokeServiceAccountToken,
  useServiceAccountTokens,
  useServiceAccounts,
} from '../api/serviceAccounts';
import { ReauthCancelled } from '../auth/reauth';
import { SCOPES, describeScopes, type Scope } from '../admin/scopes';
import { formatDateTime } from '../lib/format';
import { Banner, Dialog, EmptyState, ErrorState, Loading } from '../ui/components';

/** Practice settings → Service accounts (owners): integrations' credentials that belong to the
 * practice, so they keep working when the person who set them up leaves. */
export function ServiceAccounts() {
  const accounts = useServiceAccounts();
  const create = useCreateServiceAccount();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['clients:read', 'appointments:read']);
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (scopes.length === 0) return;
    create.mutate({ name: name.trim(), scopes }, { onSuccess: () => setName('') });
  }

  function toggle(scope: Scope, on: boolean) {
    setScopes((current) => (on ? [...current, scope] : current.filter((candidate) => candidate !== scope)));
  }

  return (
    <section className="panel stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Service accounts</h2>
      <p className="muted">
        Credentials for integrations that belong to the practice, not to a person: their tokens keep working when the
        owner who created them leaves, and the audit log names the service account. They can never manage people, tokens
        or settings, nor write or sign notes.
      </p>
      <form onSubmit={submit} className="stack" aria-label="New service account">
        <div className="field">
          <label htmlFor={`${id}-name`}>Service account name</label>
          <input
            id={`${id}-name`}
            required
            maxLength={maxLength.ServiceAccountCreate.name}
            value={name}
            placeholder="e.g. scheduling sync"
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <fieldset className="scope-grid">
          <legend>What its tokens may do</legend>
          {SCOPES.map((scope) => (
            <label key={scope.value} className="checkbox">
              <input
                type="checkbox"
                checked={scopes.includes(scope.value)}
                onChange={(event) => toggle(scope.value, event.target.checked)}
              />
              {scope.label}
            </label>
          ))}
        </fieldset>
        {scopes.length === 0 && <p className="field-error">Choose at least one thing it may do.</p>}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={create.isPending || scopes.length === 0}>
            {create.isPending ? 'Creating…' : 'Create service account'}
          </button>
        </div>
      </form>
      {create.isError && !(create.error instanceof ReauthCancelled) && (
        <Banner tone="danger">{describeError(create.error)}</Banner>
      )}
      {accounts.isPending ? (
        <Loading label="Loading service accounts…" />
      ) : accounts.isError ? (
        <ErrorState error={accounts.error} onRetry={() => void accounts.refetch()} />
      ) : accounts.data.length === 0 ? (
        <EmptyState title="No service accounts yet" />
      ) : (
        <ul className="stack" aria-label="Service accounts">
          {accounts.data.map((account) => (
            <li key={account.id}>
              <AccountCard account={account} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AccountCard({ account }: { account: ServiceAccount }) {
  const tokens = useServiceAccountTokens(account.id);
  const issue = useIssueServiceAccountToken();
  const revoke = useRevokeServiceAccountToken();
  const remove = useDeleteServiceAccount();
  const [created, setCreated] = useState<ServiceAccountTokenCreated | null>(null);
  const [revoking, setRevoking] = useState<ServiceAccountToken | null>(null);
  const [deleting, setDeleting] = useState(false);
  const id = useId();

  return (
    <article className="stack" aria-labelledby={`${id}-name`}>
      <h3 id={`${id}-name`}>{account.name}</h3>
      <p className="muted">
        May: {describeScopes(account.scopes)}. Created {formatDateTime(account.created_at)}
        {account.disabled_at ? ` · disabled ${formatDateTime(account.disabled_at)}` : ''}
        {account.expires_at ? ` · expires ${formatDateTime(account.expires_at)}` : ''}
      </p>
      <div className="actions">
        <button
          type="button"
          className="button"
          disabled={issue.isPending || account.disabled_at !== null}
          onClick={() =>
            issue.mutate(
              { accountId: account.id, name: `token ${new Date().toISOString().slice(0, 10)}` },
              { onSuccess: (token) => setCreated(token) },
            )
          }
        >
          New token <span className="visually-hidden">for {account.name}</span>
        </button>
        <button type="button" className="button button-danger-quiet" onClick={() => setDeleting(true)}>
          Delete <span className="visually-hidden">{account.name}</span>
        </button>
      </div>
      {issue.isError && !(issue.error instanceof ReauthCancelled) && (
        <Banner tone="danger">{describeError(issue.error)}</Banner>
      )}
      {created && (
        <Banner tone="success" title={`Token for “${account.name}” created`}>
          <p>
            <strong>Copy it now: it is shown only this once.</strong> CareVault keeps only a fingerprint of it.
          </p>
          <div className="token-reveal">
            <label htmlFor={`${id}-token`}>New token</label>
            <input id={`${id}-token`} readOnly value={created.token} onFocus={(event) => event.target.select()} />
            <button type="button" className="button" onClick={() => setCreated(null)}>
              I have stored it
            </button>
          </div>
        </Banner>
      )}
      {tokens.isPending ? (
        <Loading label="Loading tokens…" />
      ) : tokens.isError ? (
        <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} />
      ) : tokens.data.length === 0 ? (
        <p className="muted">No tokens yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Tokens of {account.name}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((token) => (
                <tr key={token.id}>
                  <td data-label="Name">{token.name}</td>
                  <td data-label="Starts with">
                    <code>{token.prefix}…</code>
                  </td>
                  <td data-label="Created">{formatDateTime(token.created_at)}</td>
                  <td data-label="Last used">{token.last_used_at ? formatDateTime(token.last_used_at) : 'Never'}</td>
                  <td data-label="Status">
                    {token.revoked_at ? (
                      `Revoked ${formatDateTime(token.revoked_at)}`
                    ) : (
                      <button type="button" className="button button-danger-quiet" onClick={() => setRevoking(token)}>
                        Revoke <span className="visually-hidden">{token.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog title="Revoke this token?" open={revoking !== null} onClose={() => setRevoking(null)} role="alertdialog">
        <p>“{revoking?.name}” stops working at once. The integration using it needs a new token.</p>
        {revoke.isError && <Banner tone="danger">{describeError(revoke.error)}</Banner>}
        <div className="actions">
          <button
            type="button"
            className="button button-danger"
            disabled={revoke.isPending}
            onClick={() =>
              revoking &&
              revoke.mutate({ accountId: account.id, tokenId: revoking.id }, { onSuccess: () => setRevoking(null) })
            }
          >
            Revoke token
          </button>
          <button type="button" className="button" onClick={() => setRevoking(null)}>
            Keep it
          </button>
        </div>
      </Dialog>
      <Dialog
        title="Delete this service account?"
        open={deleting}
        onClose={() => setDeleting(false)}
        role="alertdialog"
      >
        <p>Every token of “{account.name}” stops working at once, for good. The audit log keeps naming it.</p>
        {remove.isError && !(remove.error instanceof ReauthCancelled) && (
          <Banner tone="danger">{describeError(remove.error)}</Banner>
        )}
        <div className="actions">
          <button
            type="button"
            className="button button-danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate(account.id, { onSuccess: () => setDeleting(false) })}
          >
            Delete service account
          </button>
          <button type="button" className="button" onClick={() => setDeleting(false)}>
            Keep it
          </button>
        </div>
      </Dialog>
    </article>
  );
}
