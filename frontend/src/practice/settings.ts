/** The practice settings form: what is typed, checked here, and only what changed is sent. */
import type { Workspace } from '../api/client';
import type { WorkspaceUpdate } from '../api/workspace';

export const LATE_ENTRY_MIN_HOURS = 1;
export const LATE_ENTRY_MAX_HOURS = 8760;
export const DEFAULT_LATE_ENTRY_HOURS = 72;

export type ChartAccess = Workspace['chart_access'];

export interface SettingsForm {
  time_zone: string;
  phone_region: string;
  late_entry_hours: string;
  chart_access: ChartAccess;
  break_the_glass: boolean;
}

export function formOf(workspace: Workspace): SettingsForm {
  return {
    time_zone: workspace.time_zone,
    phone_region: workspace.phone_region,
    late_entry_hours: String(workspace.late_entry_hours ?? DEFAULT_LATE_ENTRY_HOURS),
    chart_access: workspace.chart_access,
    break_the_glass: workspace.break_the_glass,
  };
}

/** The time zones this browser knows (the server checks against its own list). */
export function knownTimeZones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  const zones = supported ? supported('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

/** Fields that are not typed text (nothing to check before sending). */
type Typed = 'time_zone' | 'phone_region' | 'late_entry_hours';

/** Problems the form can name before sending (the server has the last word). */
export function settingsErrors(form: SettingsForm): Partial<Record<Typed, string>> {
  const errors: Partial<Record<Typed, string>> = {};
  if (!form.time_zone.trim()) errors.time_zone = 'Choose a time zone.';
  if (!/^[A-Za-z]{2}$/.test(form.phone_region.trim()))
    errors.phone_region = 'Two letters, the ISO 3166 code of a country or region (e.g. US, GB).';
  const hours = Number(form.late_entry_hours);
  if (!/^\d+$/.test(form.late_entry_hours.trim()) || hours < LATE_ENTRY_MIN_HOURS || hours > LATE_ENTRY_MAX_HOURS)
    errors.late_entry_hours = `A whole number of hours from ${LATE_ENTRY_MIN_HOURS} to ${LATE_ENTRY_MAX_HOURS}.`;
  return errors;
}

/** The request body: the fields that differ from the saved settings (empty when none do). */
export function settingsChanges(form: SettingsForm, saved: Workspace): WorkspaceUpdate {
  const changes: WorkspaceUpdate = {};
  const zone = form.time_zone.trim();
  if (zone !== saved.time_zone) changes.time_zone = zone;
  const region = form.phone_region.trim().toUpperCase();
  if (region !== saved.phone_region.toUpperCase()) changes.phone_region = region;
  const hours = Number(form.late_entry_hours);
  if (hours !== (saved.late_entry_hours ?? DEFAULT_LATE_ENTRY_HOURS)) changes.late_entry_hours = hours;
  if (form.chart_access !== saved.chart_access) changes.chart_access = form.chart_access;
  if (form.break_the_glass !== saved.break_the_glass) changes.break_the_glass = form.break_the_glass;
  return changes;
}
