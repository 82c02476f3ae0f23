/** Reads shared by several screens, as TanStack Query hooks with stable keys. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call, type Client } from './client';

export const keys = {
  clients: ['clients'] as const,
  clientDirectory: ['clients', 'directory'] as const,
  clientList: (q: string, page: number, archived: boolean) => ['clients', 'list', q, page, archived] as const,
  client: (id: string) => ['clients', 'one', id] as const,
  notes: ['notes'] as const,
  note: (id: string) => ['notes', 'one', id] as const,
  noteVersions: (id: string) => ['notes', 'versions', id] as const,
  clientNotes: (clientId: string, page: number) => ['notes', 'client', clientId, page] as const,
  appointments: ['appointments'] as const,
  appointmentRange: (start: string, end: string) => ['appointments', start, end] as const,
  users: ['users'] as const,
  tokens: ['tokens'] as const,
  audit: (filters: object) => ['audit', filters] as const,
  readiness: ['readiness'] as const,
};

const DIRECTORY_MAX_PAGES = 50;

/** Every client of the practice (archived too), to name the ones an appointment refers to. */
export function useClientDirectory() {
  return useQuery({
    queryKey: keys.clientDirectory,
    queryFn: async () => {
      const all: Client[] = [];
      for (let page = 1; page <= DIRECTORY_MAX_PAGES; page++) {
        const result = await call(
          api.GET('/api/v1/clients', { params: { query: { page, page_size: 100, include_archived: true } } }),
        );
        all.push(...result.items);
        if (all.length >= result.total || result.items.length === 0) break;
      }
      return new Map(all.map((client) => [client.id, client]));
    },
    staleTime: 60_000,
  });
}

export function useClient(id: string) {
  return useQuery({
    queryKey: keys.client(id),
    queryFn: () => call(api.GET('/api/v1/clients/{client_id}', { params: { path: { client_id: id } } })),
  });
}

export function useNote(id: string) {
  return useQuery({
    queryKey: keys.note(id),
    queryFn: () => call(api.GET('/api/v1/sessions/{note_id}', { params: { path: { note_id: id } } })),
    staleTime: 0,
  });
}

export function useNoteVersions(id: string) {
  return useQuery({
    queryKey: keys.noteVersions(id),
    // Amendments are few; one page of 100 holds a note's whole history.
    queryFn: () =>
      call(
        api.GET('/api/v1/sessions/{note_id}/versions', {
          params: { path: { note_id: id }, query: { page_size: 100 } },
        }),
      ),
    select: (page) => page.items,
  });
}

export function useClientNotes(clientId: string, page: number) {
  return useQuery({
    queryKey: keys.clientNotes(clientId, page),
    queryFn: () =>
      call(api.GET('/api/v1/sessions', { params: { query: { client_id: clientId, page, page_size: 20 } } })),
    placeholderData: keepPreviousData,
  });
}

export function useAppointments(start: Date, end: Date) {
  const startIso = start.toISOString();
  const endIso = end.toISOString();
  return useQuery({
    queryKey: keys.appointmentRange(startIso, endIso),
    queryFn: () => call(api.GET('/api/v1/appointments', { params: { query: { start: startIso, end: endIso } } })),
    placeholderData: keepPreviousData,
  });
}

export function useUsers(enabled = true) {
  return useQuery({
    queryKey: keys.users,
    // A practice's team fits one page of 100.
    queryFn: () => call(api.GET('/api/v1/users', { params: { query: { page_size: 100 } } })),
    select: (page) => page.items,
    enabled,
  });
}
