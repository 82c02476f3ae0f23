/** Service accounts (owners): integration credentials that belong to the practice. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRecentPassword } from '../auth/ReauthProvider';
import { api, call, type Schemas } from './client';
import { createOnce } from './idempotency';
import { keys } from './keys';

export type ServiceAccountCreate = Schemas['ServiceAccountCreate'];

export function useServiceAccounts() {
  return useQuery({
    queryKey: keys.serviceAccounts.all,
    queryFn: () => call(api.GET('/api/v1/service-accounts', { params: { query: { page_size: 100 } } })),
    select: (page) => page.items,
  });
}

export function useServiceAccountTokens(accountId: string) {
  return useQuery({
    queryKey: keys.serviceAccounts.tokens(accountId),
    queryFn: () =>
      call(
        api.GET('/api/v1/service-accounts/{service_account_id}/tokens', {
          params: { path: { service_account_id: accountId }, query: { page_size: 100 } },
        }),
      ),
    select: (page) => page.items,
  });
}

/** Creating one needs a recent password; the repeat after the prompt keeps the action's key. */
export function useCreateServiceAccount() {
  const queryClient = useQueryClient();
  const recent = useRecentPassword();
  return useMutation({
    mutationFn: (body: ServiceAccountCreate) =>
      createOnce((header) => recent(() => call(api.POST('/api/v1/service-accounts', { params: { header }, body })))),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.serviceAccounts.all }),
  });
}

export function useIssueServiceAccountToken() {
  const queryClient = useQueryClient();
  const recent = useRecentPassword();
  return useMutation({
    mutationFn: ({ accountId, name }: { accountId: string; name: string }) =>
      createOnce((header) =>
        recent(() =>
          call(
            api.POST('/api/v1/service-accounts/{service_account_id}/tokens', {
              params: { header, path: { service_account_id: accountId } },
              body: { name },
            }),
          ),
        ),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.serviceAccounts.all }),
  });
}

export function useRevokeServiceAccountToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, tokenId }: { accountId: string; tokenId: string }) =>
      call(
        api.DELETE('/api/v1/service-accounts/{service_account_id}/tokens/{token_id}', {
          params: { path: { service_account_id: accountId, token_id: tokenId } },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.serviceAccounts.all }),
  });
}

export function useDeleteServiceAccount() {
  const queryClient = useQueryClient();
  const recent = useRecentPassword();
  return useMutation({
    mutationFn: (accountId: string) =>
      recent(() =>
        call(
          api.DELETE('/api/v1/service-accounts/{service_account_id}', {
            params: { path: { service_account_id: accountId } },
          }),
        ),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.serviceAccounts.all }),
  });
}
