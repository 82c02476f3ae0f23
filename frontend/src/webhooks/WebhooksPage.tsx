import { useId, useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import { maxLength } from '../api/limits.generated';
import {
  DELIVERIES_PAGE_SIZE,
  useCreateWebhook,
  useDeleteWebhook,
  useRedeliver,
  useRotateWebhookSecret,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhooks,
  type Webhook,
} from '../api/webhooks';
import { ReauthCancelled } from '../auth/reauth';
import { formatDateTime } from '../lib/format';
import { useDocumentTitle } from '../lib/hooks';
import { Banner, Dialog, EmptyState, ErrorState, Loading, Pagination, ShownOnce } from '../ui/components';
import {
  EVENT_CHOICES,
  deliveryOutcome,
  describeEventTypes,
  disabledByFailure,
  endpointState,
  webhookBody,
  webhookFormErrors,
  type WebhookForm,
} from './webhooks';

const EMPTY_FORM: WebhookForm = { url: '', description: '', eventTypes: ['client.*', 'appointment.*'] };

function SecretReveal({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  return (
    <ShownOnce title={title} label="Signing secret" value={secret} copyLabel="Copy secret" onStored={onDone}>
      <strong>Copy the signing secret now: it is shown only this once.</strong> Your receiver uses it to check that each
      delivery came from CareVault.
    </ShownOnce>
  );
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(webhook.id, page);
  const redeliver = useRedeliver();
  return (
    <section className="panel" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries to {webhook.url}</h2>
      <p className="muted">
        Failed deliveries are retried for 24 hours, waiting longer each time. Only the receiver&apos;s status code is
        kept, never what it answered.
      </p>
      {redeliver.isError && <Banner tone="danger">{describeError(redeliver.error)}</Banner>}
      {deliveries.isPending ? (
        <Loading label="Loading deliveries…" />
      ) : deliveries.isError ? (
        <ErrorState error={deliveries.error} onRetry={() => void deliveries.refetch()} />
      ) : deliveries.data.items.length === 0 ? (
        <EmptyState title="Nothing delivered yet">
          <p className="muted">Changes made after the endpoint was added are sent within seconds.</p>
        </EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Deliveries</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Queued</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Next attempt</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.items.map((delivery) => (
                  <tr key={delivery.id}>
                    <td data-label="Event">
                      {delivery.event_type} <code>{delivery.event_id}</code>
                    </td>
                    <td data-label="Queued">{formatDateTime(delivery.created_at)}</td>
                    <td data-label="Attempts">{delivery.attempts}</td>
                    <td data-label="Outcome">{deliveryOutcome(delivery)}</td>
                    <td data-label="Next attempt">
                      {delivery.next_attempt_at ? formatDateTime(delivery.next_attempt_at) : '—'}
                    </td>
                    <td data-label="Actions">
                      <button
                        type="button"
                        className="button"
                        disabled={redeliver.isPending}
                        onClick={() => redeliver.mutate({ webhookId: webhook.id, deliveryId: delivery.id })}
                      >
                        Redeliver <span className="visually-hidden">{delivery.event_id}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            page={page}
            pageSize={DELIVERIES_PAGE_SIZE}
            total={deliveries.data.total}
            onPage={setPage}
            label="Deliveries pages"
          />
        </>
      )}
    </section>
  );
}

export function WebhooksPage() {
  useDocumentTitle('Webhooks');
  const webhooks = useWebhooks();
  const [form, setForm] = useState<WebhookForm>(EMPTY_FORM);
  const [submitted, setSubmitted] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const id = useId();

  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const errors = webhookFormErrors(form);
  const shown = submitted ? errors : {};

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    create.mutate(webhookBody(form), {
      onSuccess: (created) => {
        setSecret({ title: `Endpoint ${created.url} added`, value: created.secret });
        setForm(EMPTY_FORM);
        setSubmitted(false);
      },
    });
  }

  function toggleType(value: string, on: boolean) {
    setForm((current) => ({
      ...current,
      eventTypes: on ? [...current.eventTypes, value] : current.eventTypes.filter((candidate) => candidate !== value),
    }));
  }

  const failing = disabledByFailure(webhooks.data);
  const selectedWebhook = webhooks.data?.find((webhook) => webhook.id === selected) ?? null;
  const actionError = [update, rotate].find((action) => action.isError && !(action.error instanceof ReauthCancelled));

  return (
    <section aria-labelledby="webhooks-title">
      <header className="page-header">
        <div>
          <h1 id="webhooks-title">Webhooks</h1>
          <p className="muted">
            CareVault tells your integrations what changed (ids and kinds of change, never health information) by
            sending signed requests to the addresses below.
          </p>
        </div>
      </header>

      {failing.map((webhook) => (
        <Banner key={webhook.id} tone="warning" title="A webhook endpoint was turned off">
          <p>
            Every delivery to <code>{webhook.url}</code> failed for a day, so CareVault stopped sending to it on{' '}
            {formatDateTime(webhook.disabled_at)}. Fix the receiver, then turn it back on: what waited is sent then.
          </p>
        </Banner>
      ))}

      <section className="panel" aria-labelledby="new-webhook-title">
        <h2 id="new-webhook-title">Add an endpoint</h2>
        <form onSubmit={submit} className="stack" noValidate>
          <div className={`field${shown.url ? ' field-invalid' : ''}`}>
            <label htmlFor={`${id}-url`}>Endpoint URL</label>
            <input
              id={`${id}-url`}
              type="url"
              required
              maxLength={maxLength.WebhookCreate.url}
              value={form.url}
              placeholder="https://integrations.example.org/carevault"
              aria-invalid={shown.url ? true : undefined}
              onChange={(event) => setForm({ ...form, url: event.target.value })}
            />
            {shown.url && <p className="field-error">{shown.url}</p>}
          </div>
          <div className="field">
            <label htmlFor={`${id}-description`}>Description</label>
            <input
              id={`${id}-description`}
              maxLength={maxLength.WebhookCreate.description}
              value={form.description}
              placeholder="e.g. scheduling sync"
              onChange={(event) => setForm({ ...form, description: event.target.value })}
            />
          </div>
          <fieldset className="scope-grid">
            <legend>Events to send</legend>
            {EVENT_CHOICES.map((choice) => (
              <label key={choice.value} className="checkbox">
                <input
                  type="checkbox"
                  checked={form.eventTypes.includes(choice.value)}
                  onChange={(event) => toggleType(choice.value, event.target.checked)}
                />
                {choice.label}
              </label>
            ))}
          </fieldset>
          {shown.eventTypes && <p className="field-error">{shown.eventTypes}</p>}
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={create.isPending}>
              {create.isPending ? 'Adding…' : 'Add endpoint'}
            </button>
          </div>
        </form>
        {create.isError && !(create.error instanceof ReauthCancelled) && (
          <Banner tone="danger">{describeError(create.error)}</Banner>
        )}
        {secret && <SecretReveal title={secret.title} secret={secret.value} onDone={() => setSecret(null)} />}
      </section>

      <section className="panel" aria-labelledby="webhook-list-title">
        <h2 id="webhook-list-title">Endpoints</h2>
        {actionError && <Banner tone="danger">{describeError(actionError.error)}</Banner>}
        {webhooks.isPending ? (
          <Loading label="Loading endpoints…" />
        ) : webhooks.isError ? (
          <ErrorState error={webhooks.error} onRetry={() => void webhooks.refetch()} />
        ) : webhooks.data.length === 0 ? (
          <EmptyState title="No webhook endpoints yet" />
        ) : (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Webhook endpoints</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">Last success</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {webhooks.data.map((webhook) => (
                  <tr key={webhook.id}>
                    <td data-label="URL">
                      <code>{webhook.url}</code>
                      {webhook.description && <div className="muted">{webhook.description}</div>}
                    </td>
                    <td data-label="Events">{describeEventTypes(webhook.event_types)}</td>
                    <td data-label="State">{endpointState(webhook)}</td>
                    <td data-label="Last success">
                      {webhook.last_success_at ? formatDateTime(webhook.last_success_at) : 'Never'}
                    </td>
                    <td data-label="Actions" className="actions">
                      <button type="button" className="button" onClick={() => setSelected(webhook.id)}>
                        Deliveries <span className="visually-hidden">of {webhook.url}</span>
                      </button>
                      <button
                        type="button"
                        className="button"
                        disabled={update.isPending}
                        onClick={() => update.mutate({ id: webhook.id, body: { enabled: !webhook.enabled } })}
                      >
                        {webhook.enabled ? 'Turn off' : 'Turn on'}{' '}
                        <span className="visually-hidden">{webhook.url}</span>
                      </button>
                      <button
                        type="button"
                        className="button"
                        disabled={rotate.isPending}
                        onClick={() =>
                          rotate.mutate(webhook.id, {
                            onSuccess: (rotated) =>
                              setSecret({ title: `New secret for ${rotated.url}`, value: rotated.secret }),
                          })
                        }
                      >
                        New secret <span className="visually-hidden">for {webhook.url}</span>
                      </button>
                      <button type="button" className="button button-danger-quiet" onClick={() => setDeleting(webhook)}>
                        Delete <span className="visually-hidden">{webhook.url}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {selectedWebhook && <Deliveries key={selectedWebhook.id} webhook={selectedWebhook} />}

      <Dialog
        title="Delete this endpoint?"
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        role="alertdialog"
      >
        <p>Nothing more is sent to {deleting?.url}, and its delivery log is deleted with it.</p>
        {remove.isError && !(remove.error instanceof ReauthCancelled) && (
          <Banner tone="danger">{describeError(remove.error)}</Banner>
        )}
        <div className="actions">
          <button
            type="button"
            className="button button-danger"
            disabled={remove.isPending}
            onClick={() =>
              deleting &&
              remove.mutate(deleting.id, {
                onSuccess: () => {
                  if (selected === deleting.id) setSelected(null);
                  setDeleting(null);
                },
              })
            }
          >
            Delete endpoint
          </button>
          <button type="button" className="button" onClick={() => setDeleting(null)}>
            Keep it
          </button>
        </div>
      </Dialog>
    </section>
  );
}
