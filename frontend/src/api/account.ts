/** The signed-in person's own account. */
import { useMutation } from '@tanstack/react-query';
import { api, call } from './client';

/** Changing the password signs out every other session of this person. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) =>
      call(api.POST('/api/v1/auth/password', { body })),
  });
}
