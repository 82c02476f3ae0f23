import { useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import { usePracticeKey, useReadiness, useSetPracticeKey } from '../api/system';
import { ReauthCancelled } from '../auth/reauth';
import { formatDateTime, formatDuration } from '../lib/format';
import { useDocumentTitle } from '../lib/hooks';
import { Banner, ErrorState, Loading } from '../ui/components';
import type { Readiness } from '../api/client';

export function KeyStatusPage() {
  useDocumentTitle('Key status');
  const ready = useReadiness();
  return (
    <section aria-labelledby="keys-title">
      <header className="page-header">
        <div>
          <h1 id="keys-title">Key status</h1>
          <p className="muted">The encryption keys that protect client information, and the services they depend on.</p>
        </div>
        <button type="button" className="button" onClick={() => void ready.refetch()} disabled={ready.isFetching}>
          {ready.isFetching ? 'Checking…' : 'Check again'}
        </button>
      </header>
      {ready.isPending ? (
        <Loading label="Checking the key ring…" />
      ) : ready.isError ? (
        <ErrorState error={ready.error} onRetry={() => void ready.refetch()} title="The key status could not be read" />
      ) : (
        <KeyStatus data={ready.data} />
      )}
    </section>
  );
}

function KeyStatus({ data }: { data: Readiness }) {
  const ring = data.key_ring;
  const tone = data.status === 'ready' ? 'success' : data.status === 'degraded' ? 'warning' : 'danger';
  const overall = {
    ready: 'Everything is working',
    degraded: 'Working, with a problem to look at',
    unavailable: 'Not able to serve',
  }[data.status];
  return (
    <div className="stack">
      <Banner tone={tone} title={overall} role="status" />
      <div className="two-columns">
        <section className="panel" aria-labelledby="ring-title">
          <h2 id="ring-title">Key ring</h2>
          <dl className="details">
            <div>
              <dt>Active key version</dt>
              <dd>{ring.active_version ?? 'none'}</dd>
            </div>
            <div>
              <dt>Active key age</dt>
              <dd>{formatDuration(ring.active_key_age_seconds)}</dd>
            </div>
            <div>
              <dt>Last refresh</dt>
              <dd>{formatDateTime(ring.last_refresh_at)}</dd>
            </div>
            <div>
              <dt>Last successful refresh</dt>
              <dd>{formatDateTime(ring.last_success_at)}</dd>
            </div>
            <div>
              <dt>Last refresh error</dt>
              <dd>
                {ring.last_refresh_error ? <span className="text-danger">{ring.last_refresh_error}</span> : 'None'}
              </dd>
            </div>
            <div>
              <dt>Refreshed every</dt>
              <dd>{formatDuration(ring.refresh_interval_seconds)}</dd>
            </div>
            <div>
              <dt>Provider</dt>
              <dd>{PROVIDERS[ring.provider ?? 'local'] ?? ring.provider}</dd>
            </div>
            <div>
              <dt>Source</dt>
              <dd>{ring.source}</dd>
            </div>
            <div>
              <dt>Versions</dt>
              <dd>
                {Object.entries(ring.versions)
                  .map(([version, state]) => `${version}: ${state}`)
                  .join(', ') || 'none'}
              </dd>
            </div>
          </dl>
        </section>
        {ring.kms ? <KmsKeys kms={ring.kms} /> : null}
        {ring.kms ? <PracticeKeyPanel /> : null}
        <section className="panel" aria-labelledby="db-title">
          <h2 id="db-title">Database</h2>
          <dl className="details">
            <div>
              <dt>pgcrypto available</dt>
              <dd>{data.pgcrypto.available ? 'Yes' : 'No'}</dd>
            </div>
            <div>
              <dt>pgcrypto in use</dt>
              <dd>{data.pgcrypto.in_use ? 'Yes' : 'No'}</dd>
            </div>
            <div>
              <dt>Encryption backend</dt>
              <dd>{data.phi_backend}</dd>
            </div>
            <div>
              <dt>Database reachable</dt>
              <dd>{data.database.reachable ? 'Yes' : 'No'}</dd>
            </div>
            <div>
              <dt>Schema revision</dt>
              <dd>
                {data.database.schema_revision ?? '—'}
                {data.database.expected_revision && data.database.expected_revision !== data.database.schema_revision
                  ? ` (expected ${data.database.expected_revision})`
                  : ''}
              </dd>
            </div>
          </dl>
        </section>
      </div>
    </div>
  );
}

const PROVIDERS: Record<string, string> = {
  local: 'Local key-ring file (development)',
  env: 'Environment variable',
  aws: 'AWS Secrets Manager',
  kms: 'AWS KMS (master keys never leave KMS)',
};

const KEY_STATES: Record<string, string> = {
  Enabled: 'Enabled',
  Disabled: 'Disabled: its practices cannot be read',
  PendingDeletion: 'Scheduled for deletion: its practices cannot be read',
  unreachable: 'KMS cannot be reached',
  kms_access_denied: 'Access denied by the key policy',
  kms_key_not_found: 'Not found',
};

const REFUSALS: Record<string, string> = {
  kms_key_disabled: 'key disabled',
  kms_key_pending_deletion: 'key scheduled for deletion',
  kms_key_not_found: 'key not found',
  kms_access_denied: 'access denied',
};

function KmsKeys({ kms }: { kms: NonNullable<Readiness['key_ring']['kms']> }) {
  const refused = Object.entries(kms.practices_refused);
  return (
    <section className="panel" aria-labelledby="kms-title">
      <h2 id="kms-title">AWS KMS keys</h2>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Used by</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {kms.keys.map((key) => (
            <tr key={key.key_id}>
              <td className="mono">{key.key_id}</td>
              <td>{key.installation ? 'Every practice without its own key' : "A practice's own key"}</td>
              <td className={key.state === 'Enabled' ? undefined : 'text-danger'}>
                {KEY_STATES[key.state] ?? key.state}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="details">
        <div>
          <dt>Practices whose keys are held here</dt>
          <dd>{kms.practices_cached}</dd>
        </div>
        <div>
          <dt>Practices refused by KMS</dt>
          <dd>
            {refused.length === 0 ? (
              'None'
            ) : (
              <span className="text-danger">
                {refused.map(([code, count]) => `${count} (${REFUSALS[code] ?? code})`).join(', ')}
              </span>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** The owner's own practice: which KMS key protects it, and bringing its own (BYOK). */
function PracticeKeyPanel() {
  const current = usePracticeKey();
  const setKey = useSetPracticeKey();
  const [keyId, setKeyId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (keyId.trim()) setKey.mutate(keyId.trim(), { onSuccess: () => setKeyId('') });
  };
  const key = current.data;
  return (
    <section className="panel" aria-labelledby="practice-key-title">
      <h2 id="practice-key-title">This practice&apos;s key</h2>
      {key ? (
        <dl className="details">
          <div>
            <dt>KMS key</dt>
            <dd className="mono">{key.kms_key_id ?? '—'}</dd>
          </div>
          <div>
            <dt>Whose</dt>
            <dd>{key.own_key ? "The practice's own key" : "The installation's key"}</dd>
          </div>
          <div>
            <dt>State</dt>
            <dd className={key.state === 'Enabled' ? undefined : 'text-danger'}>
              {KEY_STATES[key.state ?? ''] ?? key.state ?? '—'}
            </dd>
          </div>
        </dl>
      ) : current.isError ? (
        <ErrorState
          error={current.error}
          onRetry={() => void current.refetch()}
          title="The practice key could not be read"
        />
      ) : (
        <Loading label="Reading the practice key…" />
      )}
      <form onSubmit={submit} className="stack">
        <label htmlFor="practice-kms-key">Move to the practice&apos;s own AWS KMS key (ARN)</label>
        <input
          id="practice-kms-key"
          value={keyId}
          onChange={(event) => setKeyId(event.target.value)}
          placeholder="arn:aws:kms:region:account:key/…"
          maxLength={2048}
        />
        <p className="muted">
          The practice&apos;s data keys are re-wrapped under it by KMS; nothing is re-encrypted. Disabling the key later
          cuts CareVault off this practice&apos;s data; enabling it restores access.
        </p>
        <div>
          <button type="submit" className="button" disabled={setKey.isPending || !keyId.trim()}>
            {setKey.isPending ? 'Moving…' : 'Use this key'}
          </button>
          {key?.own_key ? (
            <button type="button" className="button" disabled={setKey.isPending} onClick={() => setKey.mutate(null)}>
              Back to the installation&apos;s key
            </button>
          ) : null}
        </div>
        {setKey.isError && !(setKey.error instanceof ReauthCancelled) ? (
          <Banner tone="danger" title="The key was not changed" role="alert">
            {describeError(setKey.error)}
          </Banner>
        ) : null}
      </form>
    </section>
  );
}
