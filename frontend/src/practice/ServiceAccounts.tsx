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
import { describeScopes, type Scope } from '../admin/scopes';
import { RevokeTokenDialog, ScopeChoices, TokenReveal, TokenTable } from '../admin/tokenParts';
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
        <ScopeChoices legend="What its tokens may do" chosen={scopes} ownersToo onToggle={toggle} />
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
        <TokenReveal
          title={`Token for “${account.name}” created`}
          token={created.token}
          onStored={() => setCreated(null)}
        />
      )}
      {tokens.isPending ? (
        <Loading label="Loading tokens…" />
      ) : tokens.isError ? (
        <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} />
      ) : tokens.data.length === 0 ? (
        <p className="muted">No tokens yet.</p>
      ) : (
        <TokenTable caption={`Tokens of ${account.name}`} tokens={tokens.data} onRevoke={setRevoking} />
      )}
      <RevokeTokenDialog
        token={revoking}
        consequence="The integration using it needs a new token."
        pending={revoke.isPending}
        error={revoke.isError ? revoke.error : null}
        onConfirm={(token) =>
          revoke.mutate({ accountId: account.id, tokenId: token.id }, { onSuccess: () => setRevoking(null) })
        }
        onClose={() => setRevoking(null)}
      />
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
