import { useMemo, useRef, useState, type MouseEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAppointments, useClinicians, useUpdateAppointment } from '../api/appointments';
import type { Appointment, Clinician } from '../api/client';
import { describeError } from '../api/errors';
import { useOpenAppointmentNote } from '../api/notes';
import { useSignedIn } from '../auth/AuthProvider';
import { formatDate, formatLongDay, formatShortDay, parseDateKey } from '../lib/format';
import { useDocumentTitle, useMediaQuery } from '../lib/hooks';
import { NoteNotYetPossible, sessionDateOf } from '../notes/openNote';
import { Banner, ErrorState, Loading } from '../ui/components';
import { AppointmentDialog, type DialogTarget } from './AppointmentDialog';
import { appointmentName, conflictLines } from './conflicts';
import { maxLanes, placeDay, visibleHours, type Placed } from './layout';
import {
  addDaysToKey,
  browserZone,
  formatMinutes,
  formatZonedTime,
  todayIn,
  wallTime,
  weekStartKey,
  zoneLabel,
  zonedInstant,
} from './zone';
import { CALENDAR_DATE_PARAM, routes } from '../routes';

const PX_PER_MINUTE = 1;
/** Overlapping appointments get lanes at least this wide: the column widens (and the
 * calendar scrolls sideways) rather than squeezing them into unreadable strips. */
const MIN_LANE_REM = 9;
const VIEW_PARAM = 'view';
const WHO_PARAM = 'who';
const SNAP_MINUTES = 15;

interface Column {
  key: string;
  dayKey: string;
  /** The clinician whose calendar the column is (day view, side by side); null: everyone shown. */
  clinician: Clinician | null;
}

interface Move {
  id: string;
  starts_at: string;
  ends_at: string;
  clinician_id: string;
}

interface Preview {
  id: string;
  columnKey: string;
  minutes: number;
}

export function CalendarPage() {
  useDocumentTitle('Calendar');
  const { user, workspace } = useSignedIn();
  const zone = workspace.time_zone;
  const [params, setParams] = useSearchParams();
  const narrow = useMediaQuery('(max-width: 760px)');
  const today = todayIn(zone);
  const anchorKey = params.get(CALENDAR_DATE_PARAM) ?? today;
  const view: 'day' | 'week' = narrow || params.get(VIEW_PARAM) === 'day' ? 'day' : 'week';
  const who = params.get(WHO_PARAM);
  // Whose calendars: the signed-in clinician's own by default; owners see everyone's.
  const selection: string[] | 'all' =
    who === 'all' || (who === null && user.role === 'owner') ? 'all' : who ? who.split(',').filter(Boolean) : [user.id];

  const dayKeys = useMemo(() => {
    const first = view === 'day' ? anchorKey : weekStartKey(anchorKey);
    return Array.from({ length: view === 'day' ? 1 : 7 }, (_, i) => addDaysToKey(first, i));
  }, [view, anchorKey]);
  const rangeStart = zonedInstant(dayKeys[0], 0, zone);
  const rangeEnd = zonedInstant(addDaysToKey(dayKeys[dayKeys.length - 1], 1), 0, zone);
  const appointments = useAppointments(rangeStart, rangeEnd, selection === 'all' ? null : selection);
  const clinicians = useClinicians();
  const [dialog, setDialog] = useState<DialogTarget | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [moveRefused, setMoveRefused] = useState<{ message: string; lines: string[] } | null>(null);
  const [moving, setMoving] = useState<Move | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const suppressClick = useRef(false);
  const navigate = useNavigate();
  const update = useUpdateAppointment();

  const openNote = useOpenAppointmentNote(zone);
  function openNoteOf(appointment: Appointment) {
    setNotice(null);
    openNote.mutate(appointment, {
      onSuccess: (noteId) => void navigate(routes.note(noteId)),
      onError: (error) =>
        setNotice(
          error instanceof NoteNotYetPossible
            ? `The note for this session can be started on ${formatDate(parseDateKey(sessionDateOf(appointment, zone)))}, the day of the session.`
            : `The note could not be opened: ${describeError(error)}`,
        ),
    });
  }

  function setParam(name: string, value: string | null) {
    const next = new URLSearchParams(params);
    if (value === null) next.delete(name);
    else next.set(name, value);
    setParams(next, { replace: true });
  }
  const step = view === 'day' ? 1 : 7;
  const go = (key: string) => setParam(CALENDAR_DATE_PARAM, key);

  // A drag being saved shows where it was dropped until the calendar has the answer.
  const items = (appointments.data ?? []).map((item) =>
    moving && item.id === moving.id
      ? {
          ...item,
          ...moving,
          clinician:
            clinicians.data?.find((c) => c.id === moving.clinician_id) ??
            (moving.clinician_id === item.clinician_id
              ? item.clinician
              : { id: moving.clinician_id, display_name: '' }),
        }
      : item,
  );
  const [firstHour, lastHour] = visibleHours(items, zone);

  const allClinicians = useMemo(() => {
    const known = new Map<string, Clinician>();
    for (const clinician of clinicians.data ?? []) known.set(clinician.id, clinician);
    for (const item of appointments.data ?? [])
      if (!known.has(item.clinician_id))
        known.set(item.clinician_id, {
          id: item.clinician_id,
          display_name: item.clinician.display_name,
          active: true,
        });
    return [...known.values()];
  }, [clinicians.data, appointments.data]);
  const shown =
    selection === 'all'
      ? allClinicians.filter((c) => c.active || items.some((item) => item.clinician_id === c.id))
      : selection.map(
          (id) =>
            allClinicians.find((c) => c.id === id) ?? { id, display_name: id === user.id ? 'You' : '…', active: true },
        );

  const columns: Column[] =
    view === 'day' && shown.length > 1
      ? shown.map((clinician) => ({ key: `${dayKeys[0]}/${clinician.id}`, dayKey: dayKeys[0], clinician }))
      : dayKeys.map((dayKey) => ({
          key: dayKey,
          dayKey,
          clinician: selection !== 'all' && shown.length === 1 ? shown[0] : null,
        }));
  const placedByColumn = columns.map((column) =>
    placeDay(
      column.clinician && view === 'day' && shown.length > 1
        ? items.filter((item) => item.clinician_id === column.clinician?.id)
        : items,
      column.dayKey,
      zone,
      firstHour,
      lastHour,
    ),
  );
  const showClinicianOnCards = shown.length > 1 && !(view === 'day' && shown.length > 1);
  const template = [
    '3.5rem',
    ...placedByColumn.map((placed, index) => {
      const lanes = maxLanes(placed);
      const base = columns[index].clinician && columns.length > 1 && view === 'day' ? MIN_LANE_REM : 0;
      return `minmax(${Math.max(base, lanes > 1 ? lanes * MIN_LANE_REM : 0)}rem, 1fr)`;
    }),
  ].join(' ');

  const title =
    view === 'day'
      ? formatLongDay(parseDateKey(dayKeys[0]))
      : `${formatShortDay(parseDateKey(dayKeys[0]))} – ${formatDate(parseDateKey(dayKeys[6]))}`;
  const differentZone = browserZone() !== zone;

  function toggleClinician(id: string, on: boolean) {
    const current = selection === 'all' ? allClinicians.filter((c) => c.active).map((c) => c.id) : selection;
    const next = on ? [...new Set([...current, id])] : current.filter((other) => other !== id);
    setParam(WHO_PARAM, next.length ? next.join(',') : user.id);
  }

  // --- drag to reschedule (pointer); the edit dialog's time fields are the keyboard way ---
  function startDrag(item: Appointment, event: ReactPointerEvent<HTMLElement>) {
    if (event.button !== 0 || event.pointerType === 'touch' || update.isPending) return;
    const card = event.currentTarget.closest('li');
    if (!card) return;
    const grab = (event.clientY - card.getBoundingClientRect().top) / PX_PER_MINUTE;
    const startX = event.clientX;
    const startY = event.clientY;
    const duration = Math.round((Date.parse(item.ends_at) - Date.parse(item.starts_at)) / 60_000);
    let dragging = false;
    let target: { column: HTMLElement; minutes: number } | null = null;

    const move = (pointer: PointerEvent) => {
      if (!dragging && Math.hypot(pointer.clientX - startX, pointer.clientY - startY) < 5) return;
      dragging = true;
      pointer.preventDefault();
      const column = document
        .elementsFromPoint(pointer.clientX, pointer.clientY)
        .find((el): el is HTMLElement => el instanceof HTMLElement && el.dataset.dropColumn !== undefined);
      if (!column) {
        target = null;
        setPreview(null);
        return;
      }
      const first = Number(column.dataset.firstHour);
      const offset = (pointer.clientY - column.getBoundingClientRect().top) / PX_PER_MINUTE - grab;
      const snapped = Math.round((first * 60 + offset) / SNAP_MINUTES) * SNAP_MINUTES;
      const minutes = Math.min(Math.max(0, snapped), 24 * 60 - Math.min(duration, 24 * 60));
      target = { column, minutes };
      setPreview({ id: item.id, columnKey: column.dataset.dropColumn ?? '', minutes });
    };
    const end = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', cancel);
      setPreview(null);
      if (!dragging || !target) return;
      suppressClick.current = true;
      window.setTimeout(() => (suppressClick.current = false), 0);
      const dayKey = target.column.dataset.day ?? '';
      const clinicianId = target.column.dataset.clinician || item.clinician_id;
      const starts = zonedInstant(dayKey, target.minutes, zone);
      const ends = new Date(starts.getTime() + duration * 60_000);
      if (starts.toISOString() === new Date(item.starts_at).toISOString() && clinicianId === item.clinician_id) return;
      const changes = {
        starts_at: starts.toISOString(),
        ends_at: ends.toISOString(),
        ...(clinicianId !== item.clinician_id ? { clinician_id: clinicianId } : {}),
      };
      setMoveRefused(null);
      setMoving({ id: item.id, starts_at: changes.starts_at, ends_at: changes.ends_at, clinician_id: clinicianId });
      update.mutate(
        { appointmentId: item.id, changes },
        {
          onSuccess: () => setMoving(null),
          onError: (error) => {
            setMoving(null); // back where it was
            setMoveRefused({
              message: `${appointmentName(item)} was not moved: ${describeError(error)}`,
              lines: conflictLines(error, appointments.data ?? [], zone) ?? [],
            });
          },
        },
      );
    };
    const cancel = () => {
      dragging = false;
      end();
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', cancel);
  }

  return (
    <section className="calendar" aria-labelledby="calendar-title">
      <header className="page-header calendar-header">
        <div>
          <h1 id="calendar-title">Calendar</h1>
          <p className="muted" aria-live="polite">
            {view === 'day' ? 'Day' : 'Week'} of {title}
          </p>
          <p className="calendar-zone muted" data-testid="calendar-zone">
            Times in {zoneLabel(zone, rangeStart)}, the practice’s time zone
            {differentZone && <> (this computer: {zoneLabel(browserZone(), rangeStart)})</>}
          </p>
        </div>
        <div className="toolbar" role="group" aria-label="Calendar navigation">
          <button type="button" className="button" onClick={() => go(addDaysToKey(dayKeys[0], -step))}>
            {view === 'day' ? 'Previous day' : 'Previous week'}
          </button>
          <button type="button" className="button" onClick={() => go(today)}>
            Today
          </button>
          <button type="button" className="button" onClick={() => go(addDaysToKey(dayKeys[0], step))}>
            {view === 'day' ? 'Next day' : 'Next week'}
          </button>
          {!narrow && (
            <button
              type="button"
              className="button"
              onClick={() => {
                const next = new URLSearchParams(params);
                next.set(VIEW_PARAM, view === 'day' ? 'week' : 'day');
                if (view === 'week') next.set(CALENDAR_DATE_PARAM, dayKeys.includes(today) ? today : dayKeys[0]);
                setParams(next, { replace: true });
              }}
            >
              {view === 'day' ? 'Week view' : 'Day view'}
            </button>
          )}
          <button
            type="button"
            className="button button-primary"
            onClick={() =>
              setDialog({ kind: 'new', date: dayKeys.includes(today) ? today : dayKeys[0], time: '09:00' })
            }
          >
            New appointment
          </button>
        </div>
      </header>

      <details className="clinician-filter">
        <summary>
          Clinicians:{' '}
          {selection === 'all'
            ? 'all'
            : shown.map((c) => (c.id === user.id ? `${c.display_name} (you)` : c.display_name)).join(', ')}
        </summary>
        <fieldset>
          <legend className="visually-hidden">Whose calendars to show</legend>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={selection === 'all'}
              onChange={(event) => setParam(WHO_PARAM, event.target.checked ? 'all' : user.id)}
            />
            All clinicians
          </label>
          {allClinicians.map((clinician) => (
            <label className="checkbox" key={clinician.id}>
              <input
                type="checkbox"
                checked={selection === 'all' ? clinician.active : selection.includes(clinician.id)}
                onChange={(event) => toggleClinician(clinician.id, event.target.checked)}
              />
              {clinician.display_name}
              {clinician.id === user.id ? ' (you)' : ''}
              {!clinician.active ? ' (disabled)' : ''}
            </label>
          ))}
          {clinicians.isError && <p className="muted">The list of clinicians could not be loaded.</p>}
        </fieldset>
      </details>

      {notice && (
        <Banner tone="warning">
          <p>{notice}</p>
          <button type="button" className="button button-small" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </Banner>
      )}
      {moveRefused && (
        <Banner tone="warning" title="The appointment was not moved">
          <p>{moveRefused.message}</p>
          {moveRefused.lines.length > 0 && (
            <ul>
              {moveRefused.lines.map((line, index) => (
                <li key={index}>{line}</li>
              ))}
            </ul>
          )}
          <button type="button" className="button button-small" onClick={() => setMoveRefused(null)}>
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
              No appointments {view === 'day' ? 'on this day' : 'this week'}. Use “New appointment”, or click a free
              time.
            </p>
          )}
          <div className="calendar-scroll">
            <div className="calendar-grid" style={{ gridTemplateColumns: template }}>
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
              {columns.map((column, index) => (
                <DayColumn
                  key={column.key}
                  column={column}
                  heading={view === 'day' && columns.length > 1}
                  today={column.dayKey === today}
                  placed={placedByColumn[index]}
                  zone={zone}
                  firstHour={firstHour}
                  lastHour={lastHour}
                  showClinician={showClinicianOnCards}
                  preview={preview && preview.columnKey === column.key ? preview : null}
                  previewItem={preview ? items.find((item) => item.id === preview.id) : undefined}
                  draggingId={preview?.id ?? moving?.id}
                  savingId={moving?.id}
                  openingId={openNote.isPending ? openNote.variables?.id : undefined}
                  onOpenNote={openNoteOf}
                  onEdit={(appointment) => {
                    if (suppressClick.current) return;
                    setDialog({ kind: 'edit', appointment });
                  }}
                  onDragStart={startDrag}
                  onNewAt={(time) =>
                    // The click that ends a drag lands on the column, not a free time.
                    !suppressClick.current &&
                    setDialog({ kind: 'new', date: column.dayKey, time, clinicianId: column.clinician?.id })
                  }
                />
              ))}
            </div>
          </div>
        </div>
      )}

      {dialog && (
        <AppointmentDialog
          target={dialog}
          appointments={items}
          nameOf={appointmentName}
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

function DayColumn({
  column,
  heading,
  today,
  placed,
  zone,
  firstHour,
  lastHour,
  showClinician,
  preview,
  previewItem,
  draggingId,
  savingId,
  openingId,
  onOpenNote,
  onEdit,
  onDragStart,
  onNewAt,
}: {
  column: Column;
  /** Day view with several clinicians: the column is headed by the clinician. */
  heading: boolean;
  today: boolean;
  placed: Placed<Appointment>[];
  zone: string;
  firstHour: number;
  lastHour: number;
  showClinician: boolean;
  preview: Preview | null;
  previewItem: Appointment | undefined;
  draggingId: string | undefined;
  /** A drop being saved: drawn where it was dropped, marked busy. */
  savingId: string | undefined;
  openingId: string | undefined;
  onOpenNote: (appointment: Appointment) => void;
  onEdit: (appointment: Appointment) => void;
  onDragStart: (appointment: Appointment, event: ReactPointerEvent<HTMLElement>) => void;
  onNewAt: (time: string) => void;
}) {
  const day = parseDateKey(column.dayKey);
  const dayLabel = formatLongDay(day);
  const label = heading && column.clinician ? `${column.clinician.display_name}, ${dayLabel}` : dayLabel;
  const headingId = `col-${column.key.replace(/[^a-zA-Z0-9-]/g, '-')}`;

  function clickFreeTime(event: MouseEvent<HTMLDivElement>) {
    if (event.target !== event.currentTarget) return;
    const offset = event.nativeEvent.offsetY / PX_PER_MINUTE;
    onNewAt(formatMinutes(firstHour * 60 + Math.floor(offset / 15) * 15));
  }

  const previewDuration = previewItem
    ? Math.round((Date.parse(previewItem.ends_at) - Date.parse(previewItem.starts_at)) / 60_000)
    : 0;

  return (
    <section className={`day${today ? ' day-today' : ''}`} aria-labelledby={headingId}>
      <h2 className="day-heading" id={headingId}>
        <span className="visually-hidden">{label}</span>
        <span aria-hidden="true">
          {heading && column.clinician ? column.clinician.display_name : formatShortDay(day)}
        </span>
        {today && !heading && <span className="today-tag"> · today</span>}
      </h2>
      <div
        className="day-slots"
        style={{ height: (lastHour - firstHour) * 60 * PX_PER_MINUTE }}
        onClick={clickFreeTime}
        title="Click a free time to book it"
        data-drop-column={column.key}
        data-day={column.dayKey}
        data-clinician={column.clinician?.id ?? ''}
        data-first-hour={firstHour}
      >
        <ul className="day-appointments" aria-label={`Appointments: ${label}`}>
          {placed.length === 0 && <li className="visually-hidden">No appointments</li>}
          {placed.map(({ item, top, height, lane, lanes }) => {
            const name = appointmentName(item);
            const time = `${formatZonedTime(item.starts_at, zone)}–${formatZonedTime(item.ends_at, zone)}`;
            const full = [
              time,
              name,
              item.clinician.display_name,
              item.room,
              item.status !== 'scheduled' && item.status,
            ]
              .filter(Boolean)
              .join(' · ');
            const dayOfItem = formatLongDay(parseDateKey(wallTime(item.starts_at, zone).key));
            return (
              <li
                key={item.id}
                className={`appointment appointment-${item.status}${height < 40 ? ' appointment-short' : ''}${draggingId === item.id ? ' appointment-dragging' : ''}`}
                style={{
                  top: top * PX_PER_MINUTE,
                  height: height * PX_PER_MINUTE,
                  left: `calc(${(lane / lanes) * 100}% + 2px)`,
                  width: `calc(${100 / lanes}% - 4px)`,
                }}
                title={full}
                aria-busy={savingId === item.id || undefined}
              >
                <button
                  type="button"
                  className="appointment-main"
                  aria-label={`Edit appointment: ${name}, ${dayOfItem} ${time}, ${item.clinician.display_name}${item.room ? `, ${item.room}` : ''}, ${item.status}`}
                  onClick={() => onEdit(item)}
                  onPointerDown={(event) => onDragStart(item, event)}
                >
                  <span className="appointment-time">{time}</span>
                  <span className="appointment-name">{name}</span>
                  {showClinician && <span className="appointment-clinician">{item.clinician.display_name}</span>}
                  {item.room && <span className="appointment-room">{item.room}</span>}
                </button>
                <button
                  type="button"
                  className="appointment-note"
                  aria-label={`Open note for ${name}, ${dayOfItem} ${formatZonedTime(item.starts_at, zone)}`}
                  disabled={openingId === item.id}
                  onClick={() => onOpenNote(item)}
                >
                  {openingId === item.id ? '…' : 'Note'}
                </button>
              </li>
            );
          })}
        </ul>
        {preview && previewItem && (
          <div
            className="appointment-ghost"
            aria-hidden="true"
            style={{ top: (preview.minutes - firstHour * 60) * PX_PER_MINUTE, height: previewDuration * PX_PER_MINUTE }}
          >
            {formatMinutes(preview.minutes)} {appointmentName(previewItem)}
          </div>
        )}
      </div>
    </section>
  );
}
