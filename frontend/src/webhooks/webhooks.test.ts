import { describe, expect, it } from 'vitest';
import type { Webhook, WebhookDelivery } from '../api/webhooks';
import {
  deliveryOutcome,
  describeEventTypes,
  disabledByFailure,
  endpointState,
  webhookBody,
  webhookFormErrors,
} from './webhooks';

const endpoint: Webhook = {
  id: 'w1',
  url: 'https://sync.example.org/hook',
  description: 'sync',
  event_types: ['client.*'],
  enabled: true,
  disabled_at: null,
  disabled_reason: null,
  consecutive_failures: 0,
  failing_since: null,
  last_success_at: null,
  created_at: '2026-01-01T09:00:00Z',
  updated_at: '2026-01-01T09:00:00Z',
};

const delivery: WebhookDelivery = {
  id: 'd1',
  endpoint_id: 'w1',
  event_id: 'ev_1',
  event_type: 'client.updated',
  status: 'pending',
  attempts: 2,
  created_at: '2026-01-01T09:00:00Z',
  next_attempt_at: '2026-01-01T09:01:30Z',
  give_up_at: '2026-01-02T09:00:00Z',
  last_attempt_at: '2026-01-01T09:00:30Z',
  last_status_code: 503,
  last_error: 'http_status',
  delivered_at: null,
  payload: {},
  recent_attempts: [],
};

describe('webhooks page', () => {
  it('checks the form before sending and trims what it sends', () => {
    expect(webhookFormErrors({ url: 'https://a.example/h', description: '', eventTypes: ['*'] })).toEqual({});
    const errors = webhookFormErrors({ url: 'a.example/h', description: '', eventTypes: [] });
    expect(Object.keys(errors).sort()).toEqual(['eventTypes', 'url']);
    expect(webhookFormErrors({ url: 'ftp://a.example', description: '', eventTypes: ['*'] }).url).toMatch(/https/);
    expect(webhookBody({ url: ' https://a.example/h ', description: ' x ', eventTypes: ['note.*'] })).toEqual({
      url: 'https://a.example/h',
      description: 'x',
      event_types: ['note.*'],
    });
  });

  it('gives notice only of endpoints disabled by persistent failure', () => {
    const failed = { ...endpoint, id: 'w2', enabled: false, disabled_reason: 'persistent_failure' };
    const paused = { ...endpoint, id: 'w3', enabled: false, disabled_reason: 'disabled_by_owner' };
    expect(disabledByFailure([endpoint, failed, paused]).map((w) => w.id)).toEqual(['w2']);
    expect(disabledByFailure(undefined)).toEqual([]);
    expect(endpointState(failed)).toMatch(/every delivery failed/);
    expect(endpointState(paused)).toBe('Disabled');
    expect(endpointState({ ...endpoint, consecutive_failures: 3 })).toBe('Failing (3 in a row)');
  });

  it('reads a delivery by its status and error class, never a response body', () => {
    expect(deliveryOutcome(delivery)).toBe('Retrying: answered HTTP 503');
    expect(deliveryOutcome({ ...delivery, status: 'succeeded', last_status_code: 204 })).toBe('Delivered (HTTP 204)');
    expect(deliveryOutcome({ ...delivery, status: 'failed', last_error: 'timeout' })).toBe(
      'Gave up: no answer in time',
    );
    expect(deliveryOutcome({ ...delivery, attempts: 0, last_error: null })).toBe('Waiting to be sent');
    expect(describeEventTypes(['*'])).toBe('Every event');
    expect(describeEventTypes(['client.*', 'note.signed'])).toBe('client.*, note.signed');
  });
});
