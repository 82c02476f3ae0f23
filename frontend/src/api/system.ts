/** The detailed readiness report (owners): key ring, database, encryption backend. */
import { useQuery } from '@tanstack/react-query';
import { api, call, type Readiness } from './client';
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
