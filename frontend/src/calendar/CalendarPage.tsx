import { useMemo, useState, type MouseEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAppointments } from '../api/appointments';
import type { Appointment } from '../api/client';
import { useClientDirectory } from '../api/clients';
import { describeError } from '../api/errors';
import { useOpenAppointmentNote } from '../api/notes';
import { dateKey, formatDate, formatLongDay, formatShortDay, formatTime, fullName, parseDateKey } from '../lib/format';
import { useDocumentTitle, useMediaQuery } from '../lib/hooks';
import { NoteNotYetPossible, sessionDateOf } from '../notes/openNote';
import { Banner, ErrorState, Loading } from '../ui/components';
import { AppointmentDialog, type DialogTarget } from './AppointmentDialog';
import { addDays, placeDay, sameDay, startOfDay, startOfWeek, visibleHours } from './layout';
import { CALENDAR_DATE_PARAM, routes } from '../routes';

const PX_PER_MINUTE = 1;

export function CalendarPage() {
  useDocumentTitle('Calendar');
  const [params, setParams] = useSearchParams();
  const narrow = useMediaQuery('(max-width: 760px)');
  // The day shown, as its YYYY-MM-DD key: a string, so the week is worked out once per day.
  const anchorKey = params.get(CALENDAR_DATE_PARAM) ?? dateKey(new Date());
  const days = useMemo(() => {
    const anchor = startOfDay(parseDateKey(anchorKey));
    const first = narrow ? anchor : startOfWeek(anchor);
    return Array.from({ length: narrow ? 1 : 7 }, (_, i) => addDays(first, i));
  }, [narrow, anchorKey]);
  const rangeStart = days[0];
  const rangeEnd = addDays(days[days.length - 1], 1);
  const appointments = useAppointments(rangeStart, rangeEnd);
  const directory = useClientDirectory();
  const [dialog, setDialog] = useState<DialogTarget | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const navigate = useNavigate();

  const openNote = useOpenAppointmentNote();
  function openNoteOf(appointment: Appointment) {
    setNotice(null);
    openNote.mutate(appointment, {
      onSuccess: (noteId) => void navigate(routes.note(noteId)),
      onError: (error) =>
        setNotice(
          error instanceof NoteNotYetPossible
            ? `The note for this session can be started on ${formatDate(parseDateKey(sessionDateOf(appointment)))}, the day of the session.`
            : `The note could not be opened: ${describeError(error)}`,
        ),
    });
  }

  const step = narrow ? 1 : 7;
  const go = (date: Date) => setParams({ [CALENDAR_DATE_PARAM]: dateKey(date) }, { replace: true });
  const items = appointments.data ?? [];
  const [firstHour, lastHour] = visibleHours(items);
  const today = new Date();
  const title = narrow ? formatLongDay(days[0]) : `${formatShortDay(days[0])} – ${formatDate(days[6])}`;

  const nameOf = (appointment: Appointment) => {
    const client = directory.data?.get(appointment.client_id);
    return client ? fullName(client) : directory.isPending ? 'Loading…' : 'Unknown client';
  };

  return (
    <section className="calendar" aria-labelledby="calendar-title">
      <header className="page-header calendar-header">
        <div>
          <h1 id="calendar-title">Calendar</h1>
          <p className="muted" aria-live="polite">
            {narrow ? 'Day' : 'Week'} of {title}
          </p>
        </div>
        <div className="toolbar" role="group" aria-label="Calendar navigation">
          <button type="button" className="button" onClick={() => go(addDays(days[0], -step))}>
            {narrow ? 'Previous day' : 'Previous week'}
          </button>
          <button type="button" className="button" onClick={() => go(today)}>
            Today
          </button>
          <button type="button" className="button" onClick={() => go(addDays(days[0], step))}>
            {narrow ? 'Next day' : 'Next week'}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() =>
              setDialog({ kind: 'new', date: dateKey(sameDayInRange(days, today) ? today : days[0]), time: '09:00' })
            }
          >
            New appointment
          </button>
        </div>
      </header>

      {notice && (
        <Banner tone="warning">
          <p>{notice}</p>
          <button type="button" className="button button-small" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </Banner>
      )}

      {appointments.isError && !appointments.data ? (
        <ErrorState
          error={appointments.error}
          onRetry={() => void appointments.refetch()}
          title="The calendar could not be loaded"
        />
      ) : (
        <div className="calendar-body">
          {appointments.isPending && <Loading label="Loading appointments…" />}
          {appointments.isSuccess && items.length === 0 && (
            <p className="calendar-empty" role="status">
              No appointments {narrow ? 'on this day' : 'this week'}. Use “New appointment”, or click a free time.
            </p>
          )}
          <div className="calendar-grid" style={{ ['--days' as string]: days.length }}>
            <div className="calendar-gutter" aria-hidden="true">
              <div className="day-heading" />
              <div className="hours" style={{ height: (lastHour - firstHour) * 60 * PX_PER_MINUTE }}>
                {Array.from({ length: lastHour - firstHour }, (_, i) => (
                  <div key={i} className="hour-label" style={{ top: i * 60 * PX_PER_MINUTE }}>
                    {String(firstHour + i).padStart(2, '0')}:00
                  </div>
                ))}
              </div>
            </div>
            {days.map((day) => (
              <DayColumn
                key={dateKey(day)}
                day={day}
                today={sameDay(day, today)}
                items={items}
                firstHour={firstHour}
                lastHour={lastHour}
                nameOf={nameOf}
                openingId={openNote.isPending ? openNote.variables?.id : undefined}
                onOpenNote={openNoteOf}
                onEdit={(appointment) => setDialog({ kind: 'edit', appointment })}
                onNewAt={(time) => setDialog({ kind: 'new', date: dateKey(day), time })}
              />
            ))}
          </div>
        </div>
      )}

      {dialog && (
        <AppointmentDialog
          target={dialog}
          clients={directory.data ? [...directory.data.values()] : []}
          clientsLoading={directory.isPending}
          appointments={items}
          nameOf={nameOf}
          onClose={() => setDialog(null)}
          onOpenNote={(appointment) => {
            setDialog(null);
            openNoteOf(appointment);
          }}
        />
      )}
    </section>
  );
}

function sameDayInRange(days: Date[], date: Date): boolean {
  return days.some((day) => sameDay(day, date));
}

function DayColumn({
  day,
  today,
  items,
  firstHour,
  lastHour,
  nameOf,
  openingId,
  onOpenNote,
  onEdit,
  onNewAt,
}: {
  day: Date;
  today: boolean;
  items: Appointment[];
  firstHour: number;
  lastHour: number;
  nameOf: (appointment: Appointment) => string;
  openingId: string | undefined;
  onOpenNote: (appointment: Appointment) => void;
  onEdit: (appointment: Appointment) => void;
  onNewAt: (time: string) => void;
}) {
  const placed = placeDay(items, day, firstHour, lastHour);
  const label = formatLongDay(day);
  const headingId = `day-${dateKey(day)}`;

  function clickFreeTime(event: MouseEvent<HTMLDivElement>) {
    if (event.target !== event.currentTarget) return;
    const offset = event.nativeEvent.offsetY / PX_PER_MINUTE;
    const minutes = firstHour * 60 + Math.floor(offset / 15) * 15;
    const pad = (n: number) => String(n).padStart(2, '0');
    onNewAt(`${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`);
  }

  return (
    <section className={`day${today ? ' day-today' : ''}`} aria-labelledby={headingId}>
      <h2 className="day-heading" id={headingId}>
        <span className="visually-hidden">{label}</span>
        <span aria-hidden="true">{formatShortDay(day)}</span>
        {today && <span className="today-tag"> · today</span>}
      </h2>
      <div
        className="day-slots"
        style={{ height: (lastHour - firstHour) * 60 * PX_PER_MINUTE }}
        onClick={clickFreeTime}
        title="Click a free time to book it"
      >
        <ul className="day-appointments" aria-label={`Appointments on ${label}`}>
          {placed.length === 0 && <li className="visually-hidden">No appointments</li>}
          {placed.map(({ item, top, height, lane, lanes }) => {
            const name = nameOf(item);
            const time = `${formatTime(item.starts_at)}–${formatTime(item.ends_at)}`;
            return (
              <li
                key={item.id}
                className={`appointment appointment-${item.status}${height < 40 ? ' appointment-short' : ''}`}
                style={{
                  top: top * PX_PER_MINUTE,
                  height: height * PX_PER_MINUTE,
                  left: `calc(${(lane / lanes) * 100}% + 2px)`,
                  width: `calc(${100 / lanes}% - 4px)`,
                }}
              >
                <button
                  type="button"
                  className="appointment-main"
                  aria-label={`Edit appointment: ${name}, ${label} ${time}, ${item.status}`}
                  onClick={() => onEdit(item)}
                >
                  <span className="appointment-time">{time}</span>
                  <span className="appointment-name">{name}</span>
                </button>
                <button
                  type="button"
                  className="appointment-note"
                  aria-label={`Open note for ${name}, ${label} ${formatTime(item.starts_at)}`}
                  disabled={openingId === item.id}
                  onClick={() => onOpenNote(item)}
                >
                  {openingId === item.id ? '…' : 'Note'}
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
