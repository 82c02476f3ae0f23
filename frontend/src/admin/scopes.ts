/** API token scopes as people read them. */
import type { Schemas } from '../api/client';

export type Scope = Schemas['TokenCreate']['scopes'][number];

export const SCOPES: ReadonlyArray<{ value: Scope; label: string }> = [
  { value: 'clients:read', label: 'Read clients' },
  { value: 'clients:write', label: 'Change clients' },
  { value: 'appointments:read', label: 'Read appointments' },
  { value: 'appointments:write', label: 'Change appointments' },
  { value: 'notes:read', label: 'Read session notes' },
  { value: 'notes:write', label: 'Change session notes' },
  { value: 'audit:read', label: 'Read the audit log (owners)' },
];

export const EXPIRY_CHOICES: ReadonlyArray<{ days: number | null; label: string }> = [
  { days: 7, label: 'In 7 days' },
  { days: 30, label: 'In 30 days' },
  { days: 90, label: 'In 90 days' },
  { days: 365, label: 'In a year' },
  { days: null, label: 'Never (until revoked)' },
];

/** "Read clients, read appointments": a change scope implies nothing about reading. */
export function describeScopes(scopes: readonly string[]): string {
  const labels = SCOPES.filter((scope) => scopes.includes(scope.value)).map((scope) => scope.label);
  const unknown = scopes.filter((scope) => !SCOPES.some((known) => known.value === scope));
  const all = [...labels, ...unknown];
  if (all.length === 0) return 'Nothing';
  return all.map((label, index) => (index === 0 ? label : label.charAt(0).toLowerCase() + label.slice(1))).join(', ');
}
