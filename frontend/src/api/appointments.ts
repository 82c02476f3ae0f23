/** Appointments: the calendar's range read and the changes, which refresh every range. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type AppointmentCreate, type AppointmentUpdate } from './client';
import { createOnce } from './idempotency';
import { keys } from './keys';

export function useAppointments(start: Date, end: Date) {
  const startIso = start.toISOString();
  const endIso = end.toISOString();
  return useQuery({
    queryKey: keys.appointments.range(startIso, endIso),
    queryFn: () => call(api.GET('/api/v1/appointments', { params: { query: { start: startIso, end: endIso } } })),
    placeholderData: keepPreviousData,
  });
}

function useRefreshAppointments() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: keys.appointments.all });
}

export function useCreateAppointment() {
  const refresh = useRefreshAppointments();
  return useMutation({
    mutationFn: (body: AppointmentCreate) =>
      createOnce((header) => call(api.POST('/api/v1/appointments', { params: { header }, body }))),
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
