import { describe, expect, it } from 'vitest';
import type { Workspace } from '../api/client';
import { formOf, settingsChanges, settingsErrors } from './settings';

const saved: Workspace = {
  id: 'w',
  name: 'Practice',
  time_zone: 'UTC',
  phone_region: 'US',
  late_entry_hours: 72,
  chart_access: 'practice',
  break_the_glass: false,
};

describe('practice settings form', () => {
  it('sends only what changed, normalised', () => {
    const form = formOf(saved);
    expect(settingsChanges(form, saved)).toEqual({});
    expect(
      settingsChanges({ ...form, time_zone: ' Europe/Berlin ', phone_region: 'gb', late_entry_hours: '48' }, saved),
    ).toEqual({ time_zone: 'Europe/Berlin', phone_region: 'GB', late_entry_hours: 48 });
    expect(settingsChanges({ ...form, chart_access: 'care_team', break_the_glass: true }, saved)).toEqual({
      chart_access: 'care_team',
      break_the_glass: true,
    });
    expect(settingsChanges({ ...form, phone_region: 'us' }, saved)).toEqual({});
  });

  it('takes the default late-entry hours when the server sent none', () => {
    expect(formOf({ ...saved, late_entry_hours: undefined }).late_entry_hours).toBe('72');
  });

  it('names each field it can tell is wrong', () => {
    expect(settingsErrors(formOf(saved))).toEqual({});
    const errors = settingsErrors({ ...formOf(saved), time_zone: ' ', phone_region: 'USA', late_entry_hours: '0' });
    expect(Object.keys(errors).sort()).toEqual(['late_entry_hours', 'phone_region', 'time_zone']);
    expect(settingsErrors({ ...formOf(saved), late_entry_hours: '8761' }).late_entry_hours).toMatch(/1 to 8760/);
    expect(settingsErrors({ ...formOf(saved), late_entry_hours: '2.5' }).late_entry_hours).toBeDefined();
    expect(settingsErrors({ ...formOf(saved), late_entry_hours: '8760' })).toEqual({});
  });
});
