/** The pieces a person's API tokens (TokensPage) and a service account's tokens
 * (ServiceAccounts) share: what a token may do, the one-time reveal, the table, the revocation. */
import { describeError } from '../api/errors';
import { formatDateTime } from '../lib/format';
import { Banner, Dialog, ShownOnce } from '../ui/components';
import { SCOPES, describeScopes, type Scope } from './scopes';

/** The fields every token listing answers, a person's or a service account's. */
export interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export function ScopeChoices({
  legend,
  chosen,
  ownersToo,
  onToggle,
}: {
  legend: string;
  chosen: Scope[];
  /** Offer the scopes only owners may grant. */
  ownersToo: boolean;
  onToggle: (scope: Scope, on: boolean) => void;
}) {
  return (
    <fieldset className="scope-grid">
      <legend>{legend}</legend>
      {SCOPES.filter((scope) => ownersToo || !scope.ownersOnly).map((scope) => (
        <label key={scope.value} className="checkbox">
          <input
            type="checkbox"
            checked={chosen.includes(scope.value)}
            onChange={(event) => onToggle(scope.value, event.target.checked)}
          />
          {scope.label}
        </label>
      ))}
    </fieldset>
  );
}

/** A new token, shown once. */
export function TokenReveal({ title, token, onStored }: { title: string; token: string; onStored: () => void }) {
  return (
    <ShownOnce title={title} label="New token" value={token} copyLabel="Copy token" onStored={onStored}>
      <strong>Copy it now: it is shown only this once.</strong> CareVault keeps only a fingerprint of it.
    </ShownOnce>
  );
}

const never = (value: string | null) => (value ? formatDateTime(value) : 'Never');

/** The tokens as a table; `ownerOf` adds the Owner column, `detailed` what each may do and
 * when it expires. */
export function TokenTable<T extends TokenRow>({
  caption,
  tokens,
  ownerOf,
  detailed = false,
  onRevoke,
}: {
  caption: string;
  tokens: T[];
  ownerOf?: (token: T) => string;
  detailed?: boolean;
  onRevoke: (token: T) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Starts with</th>
            {ownerOf && <th scope="col">Owner</th>}
            {detailed && <th scope="col">May</th>}
            <th scope="col">Created</th>
            {detailed && <th scope="col">Expires</th>}
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id}>
              <td data-label="Name">{token.name}</td>
              <td data-label="Starts with">
                <code>{token.prefix}…</code>
              </td>
              {ownerOf && <td data-label="Owner">{ownerOf(token)}</td>}
              {detailed && <td data-label="May">{describeScopes(token.scopes)}</td>}
              <td data-label="Created">{formatDateTime(token.created_at)}</td>
              {detailed && <td data-label="Expires">{never(token.expires_at)}</td>}
              <td data-label="Last used">{never(token.last_used_at)}</td>
              <td data-label="Status">
                {token.revoked_at ? (
                  `Revoked ${formatDateTime(token.revoked_at)}`
                ) : (
                  <button type="button" className="button button-danger-quiet" onClick={() => onRevoke(token)}>
                    Revoke <span className="visually-hidden">{token.name}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "Revoke this token?": `consequence` says what stops working. */
export function RevokeTokenDialog({
  token,
  consequence,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  token: TokenRow | null;
  consequence: string;
  pending: boolean;
  error: unknown;
  onConfirm: (token: TokenRow) => void;
  onClose: () => void;
}) {
  return (
    <Dialog title="Revoke this token?" open={token !== null} onClose={onClose} role="alertdialog">
      <p>
        “{token?.name}” stops working at once. {consequence}
      </p>
      {error != null && <Banner tone="danger">{describeError(error)}</Banner>}
      <div className="actions">
        <button
          type="button"
          className="button button-danger"
          disabled={pending}
          onClick={() => token && onConfirm(token)}
        >
          Revoke token
        </button>
        <button type="button" className="button" onClick={onClose}>
          Keep it
        </button>
      </div>
    </Dialog>
  );
}
