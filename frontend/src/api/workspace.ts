/** The practice's settings (owners): time zone, phone region, late-entry hours. */
import { useMutation } from '@tanstack/react-query';
import { useAuth } from '../auth/AuthProvider';
import { api, call, type Schemas } from './client';

export type WorkspaceUpdate = Schemas['WorkspaceUpdate'];

export function useUpdateWorkspace() {
  const { workspaceChanged } = useAuth();
  return useMutation({
    mutationFn: (body: WorkspaceUpdate) => call(api.PATCH('/api/v1/workspace', { body })),
    onSuccess: workspaceChanged,
  });
}
