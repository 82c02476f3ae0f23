/** The practice's team (owners): members, adding, disabling and temporary passwords. Each
 * change needs a recent password (see auth/reauth.ts). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRecentPassword } from '../auth/ReauthProvider';
import { api, call, type Schemas, type User } from './client';
import { keys } from './keys';

export type UserCreate = Schemas['UserCreate'];

export function useUsers(enabled = true) {
  return useQuery({
    queryKey: keys.users.all,
    // A practice's team fits one page of 100.
    queryFn: () => call(api.GET('/api/v1/users', { params: { query: { page_size: 100 } } })),
    select: (page) => page.items,
    enabled,
  });
}

function useRefreshUsers() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: keys.users.all });
}

export function useCreateUser() {
  const recent = useRecentPassword();
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: (body: UserCreate) => recent(() => call(api.POST('/api/v1/users', { body }))),
    onSuccess: refresh,
  });
}

/** Disabling signs the person out everywhere and revokes their tokens. */
export function useSetUserEnabled() {
  const queryClient = useQueryClient();
  const recent = useRecentPassword();
  return useMutation({
    mutationFn: ({ user, enable }: { user: User; enable: boolean }) => {
      const path = { params: { path: { user_id: user.id } } };
      return recent(() =>
        call(
          enable ? api.POST('/api/v1/users/{user_id}/enable', path) : api.POST('/api/v1/users/{user_id}/disable', path),
        ),
      );
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.users.all });
      void queryClient.invalidateQueries({ queryKey: keys.tokens.all });
    },
  });
}

export function useSetTemporaryPassword() {
  const recent = useRecentPassword();
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: ({ user, password }: { user: User; password: string }) =>
      recent(() =>
        call(
          api.POST('/api/v1/users/{user_id}/temporary-password', {
            params: { path: { user_id: user.id } },
            body: { temporary_password: password },
          }),
        ),
      ),
    onSuccess: refresh,
  });
}

export type UserUpdate = Schemas['UserUpdate'];

/** Owners: whether a user's signed notes await a co-signature, and who supervises them. */
export function useUpdateUser() {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: ({ user, changes }: { user: User; changes: UserUpdate }) =>
      call(api.PATCH('/api/v1/users/{user_id}', { params: { path: { user_id: user.id } }, body: changes })),
    onSuccess: refresh,
  });
}
