/**
 * Every address of the UI in one place: the patterns <App> declares, and typed builders for
 * links and navigation (`routes.note(id)`), so no screen spells a path by hand.
 */
import { generatePath, type PathParam } from 'react-router';

export const paths = {
  home: '/',
  calendar: '/calendar',
  clients: '/clients',
  client: '/clients/:clientId',
  worklist: '/notes',
  note: '/notes/:noteId',
  newNote: '/clients/:clientId/new-note',
  tokens: '/settings/tokens',
  account: '/settings/account',
  audit: '/admin/audit',
  team: '/admin/team',
  keys: '/admin/keys',
  practice: '/admin/practice',
  webhooks: '/admin/webhooks',
} as const;

export type RouteName = keyof typeof paths;

/** The params of a route, for `useParams<RouteParams<'note'>>()`. */
export type RouteParams<Name extends RouteName> = Record<PathParam<(typeof paths)[Name]>, string>;

/** The calendar's one search parameter: the day it shows (YYYY-MM-DD, local time). */
export const CALENDAR_DATE_PARAM = 'date';

export const routes = {
  home: () => paths.home,
  /** The week (or, on a phone, the day) of `date`, YYYY-MM-DD; today's without it. */
  calendar: (date?: string) =>
    date ? `${paths.calendar}?${new URLSearchParams({ [CALENDAR_DATE_PARAM]: date }).toString()}` : paths.calendar,
  clients: () => paths.clients,
  client: (clientId: string) => generatePath(paths.client, { clientId }),
  /** My unsigned notes and the notes awaiting my co-signature. */
  worklist: () => paths.worklist,
  note: (noteId: string) => generatePath(paths.note, { noteId }),
  /** A note not yet created: the first keystroke creates it (then the address becomes note's). */
  newNote: (clientId: string) => generatePath(paths.newNote, { clientId }),
  tokens: () => paths.tokens,
  account: () => paths.account,
  audit: () => paths.audit,
  team: () => paths.team,
  keys: () => paths.keys,
  practice: () => paths.practice,
  webhooks: () => paths.webhooks,
} satisfies Record<RouteName, (...args: never[]) => string>;
