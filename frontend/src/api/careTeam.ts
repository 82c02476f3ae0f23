/** Care teams and chart access: who is assigned to a client, and break-the-glass (a
 * clinician outside the team opening the chart for 60 minutes by stating why). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from './client';
import { maxLength } from './limits.generated';
import { keys } from './keys';

export type CareTeam = Schemas['CareTeamRead'];
export type GlassOpening = Schemas['ChartAccessGrantReview'];
export const BREAK_THE_GLASS_REASON = { min: 10, max: maxLength.BreakTheGlass.reason } as const;

export function useCareTeam(clientId: string) {
  return useQuery({
    queryKey: keys.clients.careTeam(clientId),
    queryFn: () =>
      call(api.GET('/api/v1/clients/{client_id}/care-team', { params: { path: { client_id: clientId } } })),
  });
}

/** Owners: the whole team (the users listed, and only they). */
export function useSetCareTeam(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clinicianIds: string[]) =>
      call(
        api.PUT('/api/v1/clients/{client_id}/care-team', {
          params: { path: { client_id: clientId } },
          body: { clinician_ids: clinicianIds },
        }),
      ),
    onSuccess: (team) => queryClient.setQueryData(keys.clients.careTeam(clientId), team),
  });
}

/** Open a chart outside my care team, stating why; then read it again. */
export function useBreakTheGlass(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) =>
      call(
        api.POST('/api/v1/clients/{client_id}/break-the-glass', {
          params: { path: { client_id: clientId } },
          body: { reason },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.clients.all }),
  });
}

/** Owners: who opened this chart by breaking the glass, why and when. */
export function useGlassReview(clientId: string) {
  return useQuery({
    queryKey: keys.clients.glassReview(clientId),
    queryFn: () =>
      call(api.GET('/api/v1/clients/{client_id}/break-the-glass', { params: { path: { client_id: clientId } } })),
    staleTime: 0,
  });
}

/** Is the reason long enough and not too long (the server checks the same)? */
export function glassReasonError(reason: string): string | null {
  const length = reason.trim().length;
  if (length < BREAK_THE_GLASS_REASON.min) return `At least ${BREAK_THE_GLASS_REASON.min} characters.`;
  if (length > BREAK_THE_GLASS_REASON.max) return `At most ${BREAK_THE_GLASS_REASON.max} characters.`;
  return null;
}
