/** API token scopes as people read them. */
import type { Schemas } from '../api/client';

export type Scope = Schemas['TokenCreate']['scopes'][number];

/** `ownersOnly`: the server refuses it in a clinician's token (auth/scopes.py ROLE_SCOPES). */
export const SCOPES: ReadonlyArray<{ value: Scope; label: string; ownersOnly?: boolean }> = [
  { value: 'clients:read', label: 'Read clients' },
  { value: 'clients:write', label: 'Change clients' },
  { value: 'appointments:read', label: 'Read appointments' },
  { value: 'appointments:write', label: 'Change appointments' },
  { value: 'notes:read', label: 'Read session notes' },
  { value: 'notes:write', label: 'Change session notes' },
  { value: 'audit:read', label: 'Read the audit log (owners)', ownersOnly: true },
  { value: 'system:read', label: 'Read the key status and readiness report (owners)', ownersOnly: true },
  { value: 'events:read', label: 'Follow the change feed: ids and types only (owners)', ownersOnly: true },
];

export const EXPIRY_CHOICES: ReadonlyArray<{ days: number | null; label: string }> = [
  { days: 7, label: 'In 7 days' },
  { days: 30, label: 'In 30 days' },
  { days: 90, label: 'In 90 days' },
  { days: 365, label: 'In a year' },
  { days: null, label: 'Never (until revoked)' },
];

/** "Read clients, read appointments". A change that answers with the record (create, edit,
 * restore) needs its read scope too; a change scope alone only deletes or archives. */
export function describeScopes(scopes: readonly string[]): string {
  const labels = SCOPES.filter((scope) => scopes.includes(scope.value)).map((scope) => scope.label);
  const unknown = scopes.filter((scope) => !SCOPES.some((known) => known.value === scope));
  const all = [...labels, ...unknown];
  if (all.length === 0) return 'Nothing';
  return all.map((label, index) => (index === 0 ? label : label.charAt(0).toLowerCase() + label.slice(1))).join(', ');
}
