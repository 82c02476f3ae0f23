/** The practice's audit trail (owners), newest first. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { localToIso as toIso } from '../lib/dateRange';
import { api, call } from './client';
import { keys } from './keys';

export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_FILTERS = ['user_id', 'action', 'resource_type', 'resource_id', 'since', 'until', 'actor'] as const;
export type AuditFilter = (typeof AUDIT_FILTERS)[number];
type ActorKind = 'session' | 'token' | 'service_account' | 'system';
/** The form's "Who" choice, as the actor kinds the server filters by (`actor_kind`). */
export const ACTOR_CHOICES: ReadonlyArray<{ value: string; label: string; kinds: ActorKind[] }> = [
  { value: '', label: 'People and integrations', kinds: [] },
  { value: 'people', label: 'People only (signed in)', kinds: ['session'] },
  { value: 'integrations', label: 'Integrations only (API tokens)', kinds: ['token', 'service_account'] },
  { value: 'service_accounts', label: 'Service accounts only', kinds: ['service_account'] },
];

function actorKinds(choice: string): ActorKind[] | undefined {
  const kinds = ACTOR_CHOICES.find((candidate) => candidate.value === choice)?.kinds ?? [];
  return kinds.length > 0 ? kinds : undefined;
}

/** As typed in the filter form; `since` and `until` are datetime-local values (local time). */
export type AuditFilters = Record<AuditFilter, string>;

export function useAuditEvents(filters: AuditFilters, page: number) {
  return useQuery({
    queryKey: keys.audit.list(filters, page),
    queryFn: () =>
      call(
        api.GET('/api/v1/audit-events', {
          params: {
            query: {
              page,
              page_size: AUDIT_PAGE_SIZE,
              user_id: filters.user_id || undefined,
              action: filters.action.trim() || undefined,
              resource_type: filters.resource_type.trim() || undefined,
              resource_id: filters.resource_id.trim() || undefined,
              since: toIso(filters.since),
              until: toIso(filters.until),
              actor_kind: actorKinds(filters.actor),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
