import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CALENDAR_DATE_PARAM, paths, routes } from './routes';

describe('routes', () => {
  it('build addresses that the declared patterns match, with the same params back', () => {
    const id = '0b7f1c2e-4d3a-4c1b-9a8e-5f6d7c8b9a0e';
    expect(routes.note(id)).toBe(`/notes/${id}`);
    expect(matchPath(paths.note, routes.note(id))?.params).toEqual({ noteId: id });
    expect(matchPath(paths.client, routes.client(id))?.params).toEqual({ clientId: id });
  });

  it('escape what would change the path', () => {
    expect(routes.client('a/b?c')).toBe('/clients/a%2Fb%3Fc');
  });

  it('put the calendar day in its search parameter', () => {
    expect(routes.calendar()).toBe('/calendar');
    const address = new URL(routes.calendar('2026-03-09'), 'http://ui.test');
    expect(address.pathname).toBe(paths.calendar);
    expect(address.searchParams.get(CALENDAR_DATE_PARAM)).toBe('2026-03-09');
  });
});
