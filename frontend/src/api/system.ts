/** The detailed readiness report (owners): key ring, database, encryption backend. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRecentPassword } from '../auth/ReauthProvider';
import { api, call, type Readiness, type Schemas } from './client';
import { keys } from './keys';

async function readiness(): Promise<Readiness> {
  // The detailed report is for owners (the public /health/ready says ready or not, nothing
  // more). It answers 503 with the same body when something is wrong: show it, not an error.
  const result = await api.GET('/api/v1/system/readiness').catch(() => null);
  if (result?.data) return result.data;
  const body = result?.error as unknown as Readiness | undefined;
  if (body && typeof body === 'object' && 'key_ring' in body) return body;
  return call(api.GET('/api/v1/system/readiness'));
}

export function useReadiness() {
  return useQuery({ queryKey: keys.readiness.all, queryFn: readiness, staleTime: 0, refetchInterval: 30_000 });
}

export type PracticeKey = Schemas['PracticeKeyRead'];

/** The KMS key that protects this practice's data keys (owners), and moving to its own. */
export function usePracticeKey() {
  return useQuery({
    queryKey: keys.practiceKey.all,
    queryFn: () => call(api.GET('/api/v1/workspace/encryption-key')),
    staleTime: 0,
  });
}

export function useSetPracticeKey() {
  const queryClient = useQueryClient();
  const recent = useRecentPassword();
  return useMutation({
    mutationFn: (kmsKeyId: string | null) =>
      recent(() => call(api.PUT('/api/v1/workspace/encryption-key', { body: { kms_key_id: kmsKeyId } }))),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.practiceKey.all });
      void queryClient.invalidateQueries({ queryKey: keys.readiness.all });
    },
  });
}
