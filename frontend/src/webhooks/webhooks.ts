/** What the Webhooks page shows and checks, apart from React: event-type choices, the form's
 * own checks, how a delivery and an endpoint's state read, and which endpoints need a notice. */
import type { Webhook, WebhookDelivery } from '../api/webhooks';

export interface EventChoice {
  value: string;
  label: string;
}

/** The choices offered when adding an endpoint (the API also takes single types). */
export const EVENT_CHOICES: EventChoice[] = [
  { value: 'client.*', label: 'Clients (created, updated, archived, restored, deleted)' },
  { value: 'appointment.*', label: 'Appointments (created, updated, cancelled, deleted)' },
  { value: 'note.*', label: 'Session notes (created, updated, signed, co-signed, amended, deleted, restored)' },
  { value: 'user.*', label: 'Users (created, updated, disabled, enabled)' },
  { value: 'webhook_endpoint.disabled', label: 'A webhook endpoint was disabled' },
];

export interface WebhookForm {
  url: string;
  description: string;
  eventTypes: string[];
}

/** Problems the form can name before sending (the server checks the address itself). */
export function webhookFormErrors(form: WebhookForm): Partial<Record<'url' | 'eventTypes', string>> {
  const errors: Partial<Record<'url' | 'eventTypes', string>> = {};
  const url = form.url.trim();
  let parsed: URL | null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed) errors.url = 'Enter the full address, starting with https://';
  else if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    errors.url = 'Webhook addresses start with https://';
  if (form.eventTypes.length === 0) errors.eventTypes = 'Choose at least one kind of event.';
  return errors;
}

/** The body of a new endpoint. */
export function webhookBody(form: WebhookForm) {
  return { url: form.url.trim(), description: form.description.trim(), event_types: form.eventTypes };
}

/** Endpoints CareVault stopped sending to because every delivery failed: the owners' notice. */
export function disabledByFailure(webhooks: Webhook[] | undefined): Webhook[] {
  return (webhooks ?? []).filter((webhook) => !webhook.enabled && webhook.disabled_reason === 'persistent_failure');
}

export function endpointState(webhook: Webhook): string {
  if (webhook.enabled)
    return webhook.consecutive_failures > 0 ? `Failing (${webhook.consecutive_failures} in a row)` : 'Active';
  if (webhook.disabled_reason === 'persistent_failure') return 'Disabled: every delivery failed for a day';
  return 'Disabled';
}

export function describeEventTypes(types: string[]): string {
  if (types.includes('*')) return 'Every event';
  return types.join(', ');
}

/** A delivery's outcome in words: never the receiver's answer, only its status and kind. */
export function deliveryOutcome(delivery: WebhookDelivery): string {
  if (delivery.status === 'succeeded') return `Delivered (HTTP ${delivery.last_status_code ?? '2xx'})`;
  const why = delivery.last_error
    ? errorLabel(delivery.last_error, delivery.last_status_code ?? null)
    : 'not tried yet';
  if (delivery.status === 'failed') return `Gave up: ${why}`;
  return delivery.attempts === 0 ? 'Waiting to be sent' : `Retrying: ${why}`;
}

export function errorLabel(error: string, statusCode: number | null): string {
  switch (error) {
    case 'http_status':
      return `answered HTTP ${statusCode ?? '?'}`;
    case 'redirect_not_followed':
      return `redirected (HTTP ${statusCode ?? '3xx'}); redirects are not followed`;
    case 'timeout':
      return 'no answer in time';
    case 'connect_error':
      return 'could not connect';
    case 'target_refused':
      return 'the address is not allowed (private or internal network)';
    default:
      return error.replaceAll('_', ' ');
  }
}
