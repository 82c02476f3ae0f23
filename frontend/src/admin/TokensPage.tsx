import { useId, useState, type FormEvent } from 'react';
import type { Token, TokenCreated } from '../api/client';
import { describeError } from '../api/errors';
import { maxLength } from '../api/limits.generated';
import { useCreateToken, useRevokeToken, useTokens } from '../api/tokens';
import { useUsers } from '../api/users';
import { useSignedIn } from '../auth/AuthProvider';
import { ReauthCancelled } from '../auth/reauth';
import { formatDateTime } from '../lib/format';
import { useDocumentTitle } from '../lib/hooks';
import { Banner, Dialog, EmptyState, ErrorState, Loading } from '../ui/components';
import { EXPIRY_CHOICES, SCOPES, describeScopes, type Scope } from './scopes';

export function TokensPage() {
  useDocumentTitle('API tokens');
  const { user } = useSignedIn();
  const tokens = useTokens();
  const users = useUsers(user.role === 'owner');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['clients:read', 'appointments:read']);
  const [expiry, setExpiry] = useState<number | null>(90);
  const [created, setCreated] = useState<TokenCreated | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<Token | null>(null);
  const id = useId();

  const create = useCreateToken();
  const revoke = useRevokeToken();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (scopes.length === 0) return;
    create.mutate(
      { name: name.trim(), scopes, expires_in_days: expiry },
      {
        onSuccess: (token) => {
          setCreated(token);
          setCopied(false);
          setName('');
        },
      },
    );
  }

  function toggle(scope: Scope, on: boolean) {
    setScopes((current) => (on ? [...current, scope] : current.filter((candidate) => candidate !== scope)));
  }

  const ownerOf = (userId: string) =>
    userId === user.id ? 'You' : (users.data?.find((candidate) => candidate.id === userId)?.email ?? 'A team member');

  return (
    <section aria-labelledby="tokens-title">
      <header className="page-header">
        <div>
          <h1 id="tokens-title">API tokens</h1>
          <p className="muted">
            Tokens let integrations and scripts call the CareVault API as you.{' '}
            {user.role === 'owner' ? 'As an owner you see every token of the practice.' : ''}
          </p>
        </div>
      </header>

      <section className="panel" aria-labelledby="new-token-title">
        <h2 id="new-token-title">Create a token</h2>
        <form onSubmit={submit} className="stack">
          <div className="inline-form">
            <div className="field">
              <label htmlFor={`${id}-name`}>Token name</label>
              <input
                id={`${id}-name`}
                required
                maxLength={maxLength.TokenCreate.name}
                value={name}
                placeholder="e.g. billing export"
                onChange={(event) => setName(event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-expiry`}>Expires</label>
              <select
                id={`${id}-expiry`}
                value={expiry === null ? 'never' : String(expiry)}
                onChange={(event) => setExpiry(event.target.value === 'never' ? null : Number(event.target.value))}
              >
                {EXPIRY_CHOICES.map((choice) => (
                  <option key={choice.label} value={choice.days === null ? 'never' : String(choice.days)}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <fieldset className="scope-grid">
            <legend>What it may do</legend>
            {SCOPES.filter((scope) => user.role === 'owner' || !scope.ownersOnly).map((scope) => (
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
          {scopes.length === 0 && <p className="field-error">Choose at least one thing the token may do.</p>}
          <p className="muted">Tokens can never manage people, tokens or passwords; those need a signed-in session.</p>
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={create.isPending || scopes.length === 0}>
              {create.isPending ? 'Creating…' : 'Create token'}
            </button>
          </div>
        </form>
        {create.isError && !(create.error instanceof ReauthCancelled) && (
          <Banner tone="danger">{describeError(create.error)}</Banner>
        )}
        {created && (
          <Banner tone="success" title={`Token “${created.name}” created`}>
            <p>
              <strong>Copy it now: it is shown only this once.</strong> CareVault keeps only a fingerprint of it.
            </p>
            <div className="token-reveal">
              <label htmlFor={`${id}-token`}>New token</label>
              <input id={`${id}-token`} readOnly value={created.token} onFocus={(event) => event.target.select()} />
              <button
                type="button"
                className="button"
                onClick={() =>
                  void navigator.clipboard?.writeText(created.token).then(
                    () => setCopied(true),
                    () => setCopied(false),
                  )
                }
              >
                {copied ? 'Copied' : 'Copy token'}
              </button>
              <button type="button" className="button" onClick={() => setCreated(null)}>
                I have stored it
              </button>
            </div>
          </Banner>
        )}
      </section>

      <section className="panel" aria-labelledby="token-list-title">
        <h2 id="token-list-title">Tokens</h2>
        {tokens.isPending ? (
          <Loading label="Loading tokens…" />
        ) : tokens.isError ? (
          <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} />
        ) : tokens.data.length === 0 ? (
          <EmptyState title="No API tokens yet" />
        ) : (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">API tokens</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Starts with</th>
                  <th scope="col">Owner</th>
                  <th scope="col">May</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
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
                    <td data-label="Owner">{ownerOf(token.user_id)}</td>
                    <td data-label="May">{describeScopes(token.scopes)}</td>
                    <td data-label="Created">{formatDateTime(token.created_at)}</td>
                    <td data-label="Expires">{token.expires_at ? formatDateTime(token.expires_at) : 'Never'}</td>
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
      </section>

      <Dialog title="Revoke this token?" open={revoking !== null} onClose={() => setRevoking(null)} role="alertdialog">
        <p>
          “{revoking?.name}” stops working at once. Anything using it will get “token revoked” until it is given a new
          token.
        </p>
        {revoke.isError && <Banner tone="danger">{describeError(revoke.error)}</Banner>}
        <div className="actions">
          <button
            type="button"
            className="button button-danger"
            disabled={revoke.isPending}
            onClick={() => revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
          >
            Revoke token
          </button>
          <button type="button" className="button" onClick={() => setRevoking(null)}>
            Keep it
          </button>
        </div>
      </Dialog>
    </section>
  );
}
