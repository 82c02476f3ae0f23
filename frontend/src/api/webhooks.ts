/** Webhook endpoints (owners): the list, a new endpoint (its secret shown once), changes,
 * secret rotation, the delivery log and redelivery. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRecentPassword } from '../auth/ReauthProvider';
import { api, call, type Schemas } from './client';
import { createOnce } from './idempotency';
import { keys } from './keys';

export type Webhook = Schemas['WebhookRead'];
export type WebhookCreated = Schemas['WebhookCreated'];
export type WebhookCreate = Schemas['WebhookCreate'];
export type WebhookUpdate = Schemas['WebhookUpdate'];
export type WebhookDelivery = Schemas['WebhookDeliveryRead'];

export const DELIVERIES_PAGE_SIZE = 20;

/** The practice's endpoints (newest first). `enabled`: only fetch for owners. */
export function useWebhooks(enabled = true) {
  return useQuery({
    queryKey: keys.webhooks.all,
    queryFn: () => call(api.GET('/api/v1/webhooks', { params: { query: { page_size: 100 } } })),
    select: (page) => page.items,
    enabled,
  });
}

export function useWebhookDeliveries(webhookId: string | null, page: number) {
  return useQuery({
    queryKey: keys.webhooks.deliveries(webhookId ?? '', page),
    queryFn: () =>
      call(
        api.GET('/api/v1/webhooks/{webhook_id}/deliveries', {
          params: { path: { webhook_id: webhookId ?? '' }, query: { page, page_size: DELIVERIES_PAGE_SIZE } },
        }),
      ),
    enabled: webhookId !== null,
    placeholderData: keepPreviousData,
  });
}

/** Registering needs a recent password; the repeat after the prompt keeps the action's key. */
export function useCreateWebhook() {
  const queryClient = useQueryClient();
  const recent = useRecentPassword();
  return useMutation({
    mutationFn: (body: WebhookCreate) =>
      createOnce((header) => recent(() => call(api.POST('/api/v1/webhooks', { params: { header }, body })))),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.webhooks.all }),
  });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  const recent = useRecentPassword();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: WebhookUpdate }) =>
      recent(() => call(api.PATCH('/api/v1/webhooks/{webhook_id}', { params: { path: { webhook_id: id } }, body }))),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.webhooks.all }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  const recent = useRecentPassword();
  return useMutation({
    mutationFn: (id: string) =>
      recent(() => call(api.DELETE('/api/v1/webhooks/{webhook_id}', { params: { path: { webhook_id: id } } }))),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.webhooks.all }),
  });
}

export function useRotateWebhookSecret() {
  const recent = useRecentPassword();
  return useMutation({
    mutationFn: (id: string) =>
      recent(() =>
        call(api.POST('/api/v1/webhooks/{webhook_id}/rotate-secret', { params: { path: { webhook_id: id } } })),
      ),
  });
}

export function useRedeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) =>
      call(
        api.POST('/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver', {
          params: { path: { webhook_id: webhookId, delivery_id: deliveryId } },
        }),
      ),
    onSuccess: (_, { webhookId }) =>
      void queryClient.invalidateQueries({ queryKey: keys.webhooks.deliveriesOf(webhookId) }),
  });
}
