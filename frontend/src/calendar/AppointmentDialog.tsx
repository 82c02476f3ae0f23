import { useId, useState, type FormEvent } from 'react';
import {
  useCancelFollowing,
  useClinicians,
  useCreateAppointment,
  useCreateSeries,
  useDeleteAppointment,
  useUpdateAppointment,
} from '../api/appointments';
import type { Appointment, ClientSummary } from '../api/client';
import { useClientList } from '../api/clients';
import { describeError, fieldErrors, isApiError } from '../api/errors';
import { maxLength } from '../api/limits.generated';
import { useSignedIn } from '../auth/AuthProvider';
import { formatDateKey } from '../lib/format';
import { Banner, Dialog, Field } from '../ui/components';
import { conflictLines } from './conflicts';
import { formatMinutes, formatZonedTime, parseTime, wallTime, zoneLabel, zonedInstant } from './zone';

export type DialogTarget =
  | { kind: 'new'; date: string; time: string; clientId?: string; clinicianId?: string }
  | { kind: 'edit'; appointment: Appointment };

const DURATIONS = [15, 30, 45, 50, 60, 75, 90, 120, 180];
const STATUSES: Array<{ value: Appointment['status']; label: string }> = [
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'attended', label: 'Attended' },
  { value: 'no-show', label: 'No-show' },
  { value: 'cancelled', label: 'Cancelled' },
];

type Repeat = 'none' | 'weekly' | 'every';

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
  /** The clients to choose from (the client page: that one). Not given: a name search. */
  clients?: Pick<ClientSummary, 'id' | 'first_name' | 'last_name' | 'archived_at'>[];
  clientsLoading?: boolean;
  appointments: Appointment[];
  nameOf: (appointment: Appointment) => string;
  onClose: () => void;
  onOpenNote: (appointment: Appointment) => void;
}) {
  const id = useId();
  const { user, workspace } = useSignedIn();
  const zone = workspace.time_zone;
  const editing = target.kind === 'edit' ? target.appointment : null;
  const [clientId, setClientId] = useState(
    editing?.client_id ?? (target.kind === 'new' ? (target.clientId ?? '') : ''),
  );
  // Dates and times are the practice's, in its time zone, as the calendar draws them.
  const [date, setDate] = useState(
    editing ? wallTime(editing.starts_at, zone).key : target.kind === 'new' ? target.date : '',
  );
  const [time, setTime] = useState(
    editing ? formatMinutes(wallTime(editing.starts_at, zone).minutes) : target.kind === 'new' ? target.time : '09:00',
  );
  const [clinicianId, setClinicianId] = useState(
    editing?.clinician_id ?? (target.kind === 'new' ? (target.clinicianId ?? user.id) : user.id),
  );
  const [room, setRoom] = useState(editing?.room ?? '');
  const [clientQuery, setClientQuery] = useState('');
  const [repeat, setRepeat] = useState<Repeat>('none');
  const [everyWeeks, setEveryWeeks] = useState(2);
  const [ending, setEnding] = useState<'count' | 'until'>('count');
  const [count, setCount] = useState(4);
  const [until, setUntil] = useState('');
  const [confirmFollowing, setConfirmFollowing] = useState(false);
  const [duration, setDuration] = useState(
    editing ? Math.round((Date.parse(editing.ends_at) - Date.parse(editing.starts_at)) / 60_000) : 50,
  );
  const [location, setLocation] = useState(editing?.location ?? '');
  const [notes, setNotes] = useState(editing?.notes ?? '');
  const [status, setStatus] = useState<Appointment['status']>(editing?.status ?? 'scheduled');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);

  const create = useCreateAppointment();
  const createSeries = useCreateSeries();
  const update = useUpdateAppointment();
  const save = editing ? update : repeat === 'none' ? create : createSeries;
  const setStatusNow = useUpdateAppointment();
  const remove = useDeleteAppointment();
  const cancelFollowing = useCancelFollowing();
  const clinicians = useClinicians();
  const searched = useClientList(clientQuery.trim(), 1, false, !editing && !clients);
  const conflicts = conflictLines(save.error, appointments, zone);

  function saveWith(allowOverlap: boolean) {
    if (!date || !time) return;
    const starts = zonedInstant(date, parseTime(time), zone);
    const ends = new Date(starts.getTime() + duration * 60_000);
    const fields = {
      starts_at: starts.toISOString(),
      ends_at: ends.toISOString(),
      location: location.trim() || null,
      notes: notes.trim() || null,
      room: room.trim() || null,
      clinician_id: clinicianId,
      allow_overlap: allowOverlap,
    };
    if (editing) {
      update.mutate({ appointmentId: editing.id, changes: { ...fields, status } }, { onSuccess: onClose });
    } else if (repeat === 'none') {
      create.mutate({ ...fields, client_id: clientId }, { onSuccess: onClose });
    } else {
      createSeries.mutate(
        {
          ...fields,
          client_id: clientId,
          recurrence: {
            every_weeks: repeat === 'weekly' ? 1 : everyWeeks,
            ...(ending === 'count' ? { count } : { until }),
          },
        },
        { onSuccess: onClose },
      );
    }
  }

  function setStatusTo(next: Appointment['status']) {
    if (editing) setStatusNow.mutate({ appointmentId: editing.id, changes: { status: next } }, { onSuccess: onClose });
  }

  const errors = fieldErrors(save.error);
  const otherError = [save.error, setStatusNow.error, remove.error, cancelFollowing.error].find(
    (error) => error && !isApiError(error, 'appointment_conflict') && Object.keys(fieldErrors(error)).length === 0,
  );
  const choices = clients ?? searched.data?.items ?? [];
  const chosen = choices.some((client) => client.id === clientId);
  const activeClients = choices
    .filter((client) => !client.archived_at || client.id === clientId)
    .sort((a, b) => a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name));
  const loadingClients = clients ? Boolean(clientsLoading) : searched.isPending;
  const bookable = (clinicians.data ?? []).filter((c) => c.active || c.id === clinicianId);
  if (!bookable.some((c) => c.id === clinicianId))
    bookable.unshift({
      id: clinicianId,
      display_name: editing?.clinician.display_name ?? (clinicianId === user.id ? user.display_name : '…'),
      active: true,
    });

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
          <>
            {!clients && (
              <Field id={`${id}-find`} label="Find by name">
                <input
                  id={`${id}-find`}
                  type="search"
                  value={clientQuery}
                  placeholder="Name, email or phone"
                  onChange={(event) => setClientQuery(event.target.value)}
                />
              </Field>
            )}
            <Field id={`${id}-client`} label="Client" error={errors.client_id}>
              <select
                id={`${id}-client`}
                required
                value={chosen ? clientId : ''}
                onChange={(event) => setClientId(event.target.value)}
              >
                <option value="">
                  {loadingClients
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
          </>
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
        <div className="field-row">
          <Field id={`${id}-clinician`} label="Clinician" error={errors.clinician_id}>
            <select id={`${id}-clinician`} value={clinicianId} onChange={(event) => setClinicianId(event.target.value)}>
              {bookable.map((clinician) => (
                <option key={clinician.id} value={clinician.id}>
                  {clinician.display_name}
                  {clinician.id === user.id ? ' (you)' : ''}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-room`} label="Room (optional)" error={errors.room}>
            <input
              id={`${id}-room`}
              value={room}
              maxLength={maxLength.AppointmentCreate.room}
              onChange={(event) => setRoom(event.target.value)}
            />
          </Field>
        </div>
        {!editing && (
          <fieldset className="repeat">
            <legend>Repeat</legend>
            <div className="field-row">
              <Field id={`${id}-repeat`} label="Repeats">
                <select
                  id={`${id}-repeat`}
                  value={repeat}
                  onChange={(event) => setRepeat(event.target.value as Repeat)}
                >
                  <option value="none">Does not repeat</option>
                  <option value="weekly">Weekly</option>
                  <option value="every">Every N weeks</option>
                </select>
              </Field>
              {repeat === 'every' && (
                <Field id={`${id}-every`} label="Every (weeks)" error={errors['recurrence.every_weeks']}>
                  <input
                    id={`${id}-every`}
                    type="number"
                    min={1}
                    max={52}
                    required
                    value={everyWeeks}
                    onChange={(event) => setEveryWeeks(Number(event.target.value))}
                  />
                </Field>
              )}
            </div>
            {repeat !== 'none' && (
              <div className="field-row">
                <Field id={`${id}-ending`} label="Ends">
                  <select
                    id={`${id}-ending`}
                    value={ending}
                    onChange={(event) => setEnding(event.target.value as 'count' | 'until')}
                  >
                    <option value="count">After a number of appointments</option>
                    <option value="until">On a date</option>
                  </select>
                </Field>
                {ending === 'count' ? (
                  <Field id={`${id}-count`} label="Number of appointments" error={errors['recurrence.count']}>
                    <input
                      id={`${id}-count`}
                      type="number"
                      min={1}
                      max={100}
                      required
                      value={count}
                      onChange={(event) => setCount(Number(event.target.value))}
                    />
                  </Field>
                ) : (
                  <Field id={`${id}-until`} label="Last date" error={errors['recurrence.until']}>
                    <input
                      id={`${id}-until`}
                      type="date"
                      required
                      min={date}
                      value={until}
                      onChange={(event) => setUntil(event.target.value)}
                    />
                  </Field>
                )}
              </div>
            )}
          </fieldset>
        )}
        <p className="muted field-hint">Times in {zoneLabel(zone)}, the practice’s time zone.</p>
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

        {conflicts && (
          <Banner tone="warning" title="This time overlaps another appointment">
            {isApiError(save.error) && <p>{describeError(save.error)}</p>}
            <ul>
              {conflicts.map((line, index) => (
                <li key={index}>{line}</li>
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
            {save.isPending
              ? 'Saving…'
              : editing
                ? 'Save changes'
                : repeat === 'none'
                  ? 'Book appointment'
                  : 'Book appointments'}
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
          {editing.series_id && editing.status === 'scheduled' && (
            <button
              type="button"
              className="button"
              disabled={cancelFollowing.isPending}
              onClick={() => setConfirmFollowing(true)}
            >
              Cancel this and following
            </button>
          )}
          <Dialog
            title="Cancel this and the following appointments?"
            open={confirmFollowing}
            onClose={() => setConfirmFollowing(false)}
            role="alertdialog"
          >
            <p>
              {nameOf(editing)}: this appointment ({formatDateKey(wallTime(editing.starts_at, zone).key)}{' '}
              {formatZonedTime(editing.starts_at, zone)}) and every later scheduled one of its series will be marked
              cancelled. Attended and no-show ones are kept.
            </p>
            <div className="actions">
              <button
                type="button"
                className="button button-danger"
                onClick={() => {
                  setConfirmFollowing(false);
                  cancelFollowing.mutate(editing.id, { onSuccess: onClose });
                }}
              >
                Cancel this and following
              </button>
              <button type="button" className="button" onClick={() => setConfirmFollowing(false)}>
                Keep them
              </button>
            </div>
          </Dialog>
          <Dialog
            title="Cancel this appointment?"
            open={confirmCancel}
            onClose={() => setConfirmCancel(false)}
            role="alertdialog"
          >
            <p>
              {nameOf(editing)}, {formatZonedTime(editing.starts_at, zone)}–{formatZonedTime(editing.ends_at, zone)}{' '}
              will be marked cancelled. You can restore it later.
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
