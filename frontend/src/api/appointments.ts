/** Appointments: the calendar's range read and the changes, which refresh every range. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type AppointmentCreate, type AppointmentSeriesCreate, type AppointmentUpdate } from './client';
import { createOnce } from './idempotency';
import { keys } from './keys';

/** The appointments sharing time with the range; `clinicianIds`: only theirs (null: everyone's). */
export function useAppointments(start: Date, end: Date, clinicianIds: string[] | null = null) {
  const startIso = start.toISOString();
  const endIso = end.toISOString();
  return useQuery({
    queryKey: keys.appointments.range(startIso, endIso, clinicianIds),
    queryFn: () =>
      call(
        api.GET('/api/v1/appointments', {
          params: {
            query: { start: startIso, end: endIso, ...(clinicianIds ? { clinician_id: clinicianIds } : {}) },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** The practice's calendars (every user; disabled ones inactive), by name. */
export function useClinicians() {
  return useQuery({
    queryKey: keys.clinicians.all,
    queryFn: () => call(api.GET('/api/v1/clinicians')),
    staleTime: 5 * 60_000,
  });
}

function useRefreshAppointments() {
  const queryClient = useQueryClient();
  // Returned, so a change's callbacks run once the calendar shows it.
  return () => queryClient.invalidateQueries({ queryKey: keys.appointments.all });
}

export function useCreateAppointment() {
  const refresh = useRefreshAppointments();
  return useMutation({
    mutationFn: (body: AppointmentCreate) =>
      createOnce((header) => call(api.POST('/api/v1/appointments', { params: { header }, body }))),
    onSuccess: refresh,
  });
}

/** A weekly (every N weeks) series: every occurrence is booked, or none (409 names the clashes). */
export function useCreateSeries() {
  const refresh = useRefreshAppointments();
  return useMutation({
    mutationFn: (body: AppointmentSeriesCreate) =>
      createOnce((header) => call(api.POST('/api/v1/appointments/series', { params: { header }, body }))),
    onSuccess: refresh,
  });
}

export function useUpdateAppointment() {
  const refresh = useRefreshAppointments();
  return useMutation({
    mutationFn: ({ appointmentId, changes }: { appointmentId: string; changes: AppointmentUpdate }) =>
      call(
        api.PATCH('/api/v1/appointments/{appointment_id}', {
          params: { path: { appointment_id: appointmentId } },
          body: changes,
        }),
      ),
    onSuccess: refresh,
  });
}

/** Cancel an occurrence and every later scheduled one of its series. */
export function useCancelFollowing() {
  const refresh = useRefreshAppointments();
  return useMutation({
    mutationFn: (appointmentId: string) =>
      call(
        api.POST('/api/v1/appointments/{appointment_id}/cancel-following', {
          params: { path: { appointment_id: appointmentId } },
        }),
      ),
    onSuccess: refresh,
  });
}

export function useDeleteAppointment() {
  const refresh = useRefreshAppointments();
  return useMutation({
    mutationFn: (appointmentId: string) =>
      call(
        api.DELETE('/api/v1/appointments/{appointment_id}', { params: { path: { appointment_id: appointmentId } } }),
      ),
    onSuccess: refresh,
  });
}
