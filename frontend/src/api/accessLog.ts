/** A client's access history (owners): who read, listed, changed or exported their records. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { localToIso } from '../lib/dateRange';
import { api, call, type Schemas } from './client';
import { keys } from './keys';

export type AccessLogEntry = Schemas['AccessLogEntry'];
export type AccessKind = AccessLogEntry['kind'];
export type AccessLogPage = Schemas['Page_AccessLogEntry_'];
export const ACCESS_LOG_PAGE_SIZE = 25;

export const ACCESS_KINDS: Record<AccessKind, string> = {
  chart_read: 'Chart read',
  list_appearance: 'Appeared in a list',
  change: 'Change',
  export: 'Export',
  access_log: 'Read this history',
  other: 'Other',
};

export const VIA_LABELS: Record<AccessLogEntry['via'], string> = {
  ui: 'Web app',
  token: 'API token',
  system: 'Server command',
};

/** As typed in the filter form; `since` and `until` are datetime-local values (local time). */
export interface AccessLogFilters {
  since: string;
  until: string;
  kind: AccessKind | '';
  actor_user_id: string;
}

export const NO_ACCESS_FILTERS: AccessLogFilters = { since: '', until: '', kind: '', actor_user_id: '' };

/** The filters as the API's query parameters (empty ones left out). */
export function accessLogQuery(filters: AccessLogFilters) {
  return {
    since: localToIso(filters.since),
    until: localToIso(filters.until),
    kind: filters.kind || undefined,
    actor_user_id: filters.actor_user_id || undefined,
  };
}

export function useAccessLog(clientId: string, filters: AccessLogFilters, page: number) {
  return useQuery({
    queryKey: keys.clients.accessLog(clientId, filters, page),
    queryFn: (): Promise<AccessLogPage> =>
      // The operation also answers CSV (below); without `format` it is the JSON page.
      call(
        api.GET('/api/v1/clients/{client_id}/access-log', {
          params: {
            path: { client_id: clientId },
            query: { ...accessLogQuery(filters), page, page_size: ACCESS_LOG_PAGE_SIZE },
          },
        }),
      ) as Promise<AccessLogPage>,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** The file name a download of the history gets. */
export function accessLogFileName(clientId: string, now: Date): string {
  return `access-log-${clientId.slice(0, 8)}-${now.toISOString().slice(0, 10)}.csv`;
}

/** Every matching event as CSV (the server's export; itself audited), saved as a file. */
export async function downloadAccessLogCsv(clientId: string, filters: AccessLogFilters): Promise<void> {
  const csv: Blob = await call(
    api.GET('/api/v1/clients/{client_id}/access-log', {
      params: { path: { client_id: clientId }, query: { ...accessLogQuery(filters), format: 'csv' } },
      parseAs: 'blob',
    }),
  );
  const url = URL.createObjectURL(csv);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = accessLogFileName(clientId, new Date());
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
