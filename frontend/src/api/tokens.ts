/** API tokens: the list, a new token (shown once), revoking. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRecentPassword } from '../auth/ReauthProvider';
import { api, call, type Schemas } from './client';
import { createOnce } from './idempotency';
import { keys } from './keys';

export type TokenCreate = Schemas['TokenCreate'];

/** The newest 100 tokens (the list is newest first); an owner sees the practice's. */
export function useTokens() {
  return useQuery({
    queryKey: keys.tokens.all,
    queryFn: () => call(api.GET('/api/v1/auth/tokens', { params: { query: { page_size: 100 } } })),
    select: (page) => page.items,
  });
}

/** A new token needs a recent password; the repeat after the prompt keeps the action's key. */
export function useCreateToken() {
  const queryClient = useQueryClient();
  const recent = useRecentPassword();
  return useMutation({
    mutationFn: (body: TokenCreate) =>
      createOnce((header) => recent(() => call(api.POST('/api/v1/auth/tokens', { params: { header }, body })))),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.tokens.all }),
  });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      call(api.DELETE('/api/v1/auth/tokens/{token_id}', { params: { path: { token_id: tokenId } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.tokens.all }),
  });
}
