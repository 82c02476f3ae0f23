/** Clients: the reads and the changes, with the cache entries each change refreshes. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Client, type ClientCreate, type ClientUpdate } from './client';
import { createOnce } from './idempotency';
import { keys } from './keys';

export const CLIENT_PAGE_SIZE = 25;

/** A page of clients, or of those matching `q`. The search term is PHI: it goes in a POST
 * body, never in a URL (proxy and server logs). */
export function useClientList(q: string, page: number, archived: boolean, enabled = true) {
  return useQuery({
    enabled,
    queryKey: keys.clients.list(q, page, archived),
    queryFn: () =>
      q
        ? call(
            api.POST('/api/v1/clients/search', {
              body: { q, page, page_size: CLIENT_PAGE_SIZE, include_archived: archived },
            }),
          )
        : call(
            api.GET('/api/v1/clients', {
              params: { query: { page, page_size: CLIENT_PAGE_SIZE, include_archived: archived } },
            }),
          ),
    placeholderData: keepPreviousData,
  });
}

export function useClient(clientId: string) {
  return useQuery({
    queryKey: keys.clients.detail(clientId),
    queryFn: () => call(api.GET('/api/v1/clients/{client_id}', { params: { path: { client_id: clientId } } })),
  });
}

function useClientSaved() {
  const queryClient = useQueryClient();
  return (saved: Client) => {
    queryClient.setQueryData(keys.clients.detail(saved.id), saved);
    void queryClient.invalidateQueries({ queryKey: keys.clients.all });
  };
}

export function useCreateClient() {
  const saved = useClientSaved();
  return useMutation({
    mutationFn: (body: ClientCreate) =>
      createOnce((header) => call(api.POST('/api/v1/clients', { params: { header }, body }))),
    onSuccess: saved,
  });
}

export function useUpdateClient() {
  const saved = useClientSaved();
  return useMutation({
    mutationFn: ({ clientId, changes }: { clientId: string; changes: ClientUpdate }) =>
      call(api.PATCH('/api/v1/clients/{client_id}', { params: { path: { client_id: clientId } }, body: changes })),
    onSuccess: saved,
  });
}

/** Archive a client (`restore` false) or bring them back. */
export function useArchiveClient(clientId: string) {
  const saved = useClientSaved();
  const path = { params: { path: { client_id: clientId } } };
  return useMutation({
    mutationFn: async (restore: boolean) => {
      if (restore) return call(api.POST('/api/v1/clients/{client_id}/restore', path));
      await call(api.DELETE('/api/v1/clients/{client_id}', path));
      return call(api.GET('/api/v1/clients/{client_id}', path));
    },
    onSuccess: saved,
  });
}
