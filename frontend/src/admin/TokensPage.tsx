import { useId, useState, type FormEvent } from 'react';
import type { Token, TokenCreated } from '../api/client';
import { describeError } from '../api/errors';
import { maxLength } from '../api/limits.generated';
import { useCreateToken, useRevokeToken, useTokens } from '../api/tokens';
import { useUsers } from '../api/users';
import { useSignedIn } from '../auth/AuthProvider';
import { ReauthCancelled } from '../auth/reauth';
import { useDocumentTitle } from '../lib/hooks';
import { Banner, EmptyState, ErrorState, Loading } from '../ui/components';
import { EXPIRY_CHOICES, type Scope } from './scopes';
import { RevokeTokenDialog, ScopeChoices, TokenReveal, TokenTable } from './tokenParts';

export function TokensPage() {
  useDocumentTitle('API tokens');
  const { user } = useSignedIn();
  const tokens = useTokens();
  const users = useUsers(user.role === 'owner');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['clients:read', 'appointments:read']);
  const [expiry, setExpiry] = useState<number | null>(90);
  const [created, setCreated] = useState<TokenCreated | null>(null);
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
          <ScopeChoices legend="What it may do" chosen={scopes} ownersToo={user.role === 'owner'} onToggle={toggle} />
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
          <TokenReveal
            title={`Token “${created.name}” created`}
            token={created.token}
            onStored={() => setCreated(null)}
          />
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
          <TokenTable
            caption="API tokens"
            tokens={tokens.data}
            ownerOf={(token) => ownerOf(token.user_id)}
            detailed
            onRevoke={setRevoking}
          />
        )}
      </section>

      <RevokeTokenDialog
        token={revoking}
        consequence="Anything using it will get “token revoked” until it is given a new token."
        pending={revoke.isPending}
        error={revoke.isError ? revoke.error : null}
        onConfirm={(token) => revoke.mutate(token.id, { onSuccess: () => setRevoking(null) })}
        onClose={() => setRevoking(null)}
      />
    </section>
  );
}
