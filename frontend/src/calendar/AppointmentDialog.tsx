import { useId, useState, type FormEvent } from 'react';
import { useCreateAppointment, useDeleteAppointment, useUpdateAppointment } from '../api/appointments';
import type { Appointment, ClientSummary } from '../api/client';
import { describeError, fieldErrors, isApiError } from '../api/errors';
import { maxLength } from '../api/limits.generated';
import { dateKey, formatTime } from '../lib/format';
import { Banner, Dialog, Field } from '../ui/components';

export type DialogTarget =
  { kind: 'new'; date: string; time: string; clientId?: string } | { kind: 'edit'; appointment: Appointment };

const DURATIONS = [15, 30, 45, 50, 60, 75, 90, 120, 180];
const STATUSES: Array<{ value: Appointment['status']; label: string }> = [
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'attended', label: 'Attended' },
  { value: 'no-show', label: 'No-show' },
  { value: 'cancelled', label: 'Cancelled' },
];

function localTime(iso: string): string {
  const date = new Date(iso);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

export function AppointmentDialog({
  target,
  clients,
  clientsLoading,
  appointments,
  nameOf,
  onClose,
  onOpenNote,
}: {
  target: DialogTarget;
  /** Whole records or list summaries: only names and archived are shown. */
  clients: Pick<ClientSummary, 'id' | 'first_name' | 'last_name' | 'archived_at'>[];
  clientsLoading: boolean;
  appointments: Appointment[];
  nameOf: (appointment: Appointment) => string;
  onClose: () => void;
  onOpenNote: (appointment: Appointment) => void;
}) {
  const id = useId();
  const editing = target.kind === 'edit' ? target.appointment : null;
  const [clientId, setClientId] = useState(
    editing?.client_id ?? (target.kind === 'new' ? (target.clientId ?? '') : ''),
  );
  const [date, setDate] = useState(
    editing ? dateKey(new Date(editing.starts_at)) : target.kind === 'new' ? target.date : '',
  );
  const [time, setTime] = useState(
    editing ? localTime(editing.starts_at) : target.kind === 'new' ? target.time : '09:00',
  );
  const [duration, setDuration] = useState(
    editing ? Math.round((Date.parse(editing.ends_at) - Date.parse(editing.starts_at)) / 60_000) : 50,
  );
  const [location, setLocation] = useState(editing?.location ?? '');
  const [notes, setNotes] = useState(editing?.notes ?? '');
  const [status, setStatus] = useState<Appointment['status']>(editing?.status ?? 'scheduled');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);

  const create = useCreateAppointment();
  const update = useUpdateAppointment();
  const save = editing ? update : create;
  const setStatusNow = useUpdateAppointment();
  const remove = useDeleteAppointment();
  const conflictIds = isApiError(save.error, 'appointment_conflict')
    ? ((save.error.details as { conflicting_ids?: string[] } | undefined)?.conflicting_ids ?? [])
    : null;

  function saveWith(allowOverlap: boolean) {
    const starts = new Date(`${date}T${time}`);
    const ends = new Date(starts.getTime() + duration * 60_000);
    const fields = {
      starts_at: starts.toISOString(),
      ends_at: ends.toISOString(),
      location: location.trim() || null,
      notes: notes.trim() || null,
      allow_overlap: allowOverlap,
    };
    if (editing) {
      update.mutate({ appointmentId: editing.id, changes: { ...fields, status } }, { onSuccess: onClose });
    } else {
      create.mutate({ ...fields, client_id: clientId }, { onSuccess: onClose });
    }
  }

  function setStatusTo(next: Appointment['status']) {
    if (editing) setStatusNow.mutate({ appointmentId: editing.id, changes: { status: next } }, { onSuccess: onClose });
  }

  const errors = fieldErrors(save.error);
  const otherError = [save.error, setStatusNow.error, remove.error].find(
    (error) => error && !isApiError(error, 'appointment_conflict') && Object.keys(fieldErrors(error)).length === 0,
  );
  const activeClients = clients
    .filter((client) => !client.archived_at || client.id === clientId)
    .sort((a, b) => a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name));
  const conflicting = (conflictIds ?? []).map((conflictId) => appointments.find((item) => item.id === conflictId));

  function submit(event: FormEvent) {
    event.preventDefault();
    saveWith(false);
  }

  return (
    <Dialog title={editing ? 'Edit appointment' : 'New appointment'} open onClose={onClose}>
      <form onSubmit={submit} className="stack" noValidate={false}>
        {editing ? (
          <p>
            <strong>{nameOf(editing)}</strong>
          </p>
        ) : (
          <Field id={`${id}-client`} label="Client" error={errors.client_id}>
            <select id={`${id}-client`} required value={clientId} onChange={(event) => setClientId(event.target.value)}>
              <option value="">
                {clientsLoading
                  ? 'Loading clients…'
                  : activeClients.length
                    ? 'Choose a client'
                    : 'No clients yet: add one first'}
              </option>
              {activeClients.map((client) => (
                <option key={client.id} value={client.id}>
                  {client.last_name}, {client.first_name}
                </option>
              ))}
            </select>
          </Field>
        )}
        <div className="field-row">
          <Field id={`${id}-date`} label="Date" error={errors.starts_at}>
            <input
              id={`${id}-date`}
              type="date"
              required
              value={date}
              onChange={(event) => setDate(event.target.value)}
            />
          </Field>
          <Field id={`${id}-time`} label="Start time">
            <input
              id={`${id}-time`}
              type="time"
              required
              step={300}
              value={time}
              onChange={(event) => setTime(event.target.value)}
            />
          </Field>
          <Field id={`${id}-duration`} label="Duration (minutes)" error={errors.ends_at}>
            <select
              id={`${id}-duration`}
              value={duration}
              onChange={(event) => setDuration(Number(event.target.value))}
            >
              {[...new Set([...DURATIONS, duration])]
                .sort((a, b) => a - b)
                .map((minutes) => (
                  <option key={minutes} value={minutes}>
                    {minutes}
                  </option>
                ))}
            </select>
          </Field>
        </div>
        {editing && (
          <Field id={`${id}-status`} label="Status">
            <select
              id={`${id}-status`}
              value={status}
              onChange={(event) => setStatus(event.target.value as Appointment['status'])}
            >
              {STATUSES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field id={`${id}-location`} label="Location" error={errors.location}>
          <input
            id={`${id}-location`}
            value={location}
            maxLength={maxLength.AppointmentCreate.location}
            onChange={(event) => setLocation(event.target.value)}
          />
        </Field>
        <Field id={`${id}-notes`} label="Scheduling notes" error={errors.notes}>
          <textarea
            id={`${id}-notes`}
            rows={2}
            value={notes}
            maxLength={maxLength.AppointmentCreate.notes}
            onChange={(event) => setNotes(event.target.value)}
          />
        </Field>

        {conflictIds && (
          <Banner tone="warning" title="This time overlaps another appointment">
            <ul>
              {conflicting.map((item, index) => (
                <li key={conflictIds[index]}>
                  {item
                    ? `${formatTime(item.starts_at)}–${formatTime(item.ends_at)}: ${nameOf(item)}`
                    : 'An appointment outside this view'}
                </li>
              ))}
            </ul>
            <p>Choose another time, or book it anyway if the overlap is intended.</p>
            <button type="button" className="button" onClick={() => saveWith(true)} disabled={save.isPending}>
              {editing ? 'Save anyway' : 'Book anyway'}
            </button>
          </Banner>
        )}
        {otherError !== undefined && <Banner tone="danger">{describeError(otherError)}</Banner>}
        {Object.keys(errors).length > 0 && <Banner tone="danger">{describeError(save.error)}</Banner>}

        <div className="actions">
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : editing ? 'Save changes' : 'Book appointment'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
      {editing && (
        <div className="dialog-footer">
          <button type="button" className="button" onClick={() => onOpenNote(editing)}>
            Open note
          </button>
          {editing.status === 'cancelled' ? (
            <button
              type="button"
              className="button"
              disabled={setStatusNow.isPending}
              onClick={() => setStatusTo('scheduled')}
            >
              Restore appointment
            </button>
          ) : (
            <button
              type="button"
              className="button"
              disabled={setStatusNow.isPending}
              onClick={() => setConfirmCancel(true)}
            >
              Cancel appointment
            </button>
          )}
          <Dialog
            title="Cancel this appointment?"
            open={confirmCancel}
            onClose={() => setConfirmCancel(false)}
            role="alertdialog"
          >
            <p>
              {nameOf(editing)}, {formatTime(editing.starts_at)}–{formatTime(editing.ends_at)} will be marked cancelled.
              You can restore it later.
            </p>
            <div className="actions">
              <button
                type="button"
                className="button button-danger"
                onClick={() => {
                  setConfirmCancel(false);
                  setStatusTo('cancelled');
                }}
              >
                Cancel appointment
              </button>
              <button type="button" className="button" onClick={() => setConfirmCancel(false)}>
                Keep the appointment
              </button>
            </div>
          </Dialog>
          {confirmDelete ? (
            <span className="confirm-inline" role="group" aria-label="Confirm deletion">
              Delete for good? Its note stays.{' '}
              <button
                type="button"
                className="button button-danger"
                onClick={() => remove.mutate(editing.id, { onSuccess: onClose })}
              >
                Yes, delete
              </button>{' '}
              <button type="button" className="button" onClick={() => setConfirmDelete(false)}>
                No
              </button>
            </span>
          ) : (
            <button type="button" className="button button-danger-quiet" onClick={() => setConfirmDelete(true)}>
              Delete appointment
            </button>
          )}
        </div>
      )}
    </Dialog>
  );
}
