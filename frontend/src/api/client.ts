/** The typed API client: openapi-fetch over the generated `paths`, on the page's own origin. */
import createClient, { type Middleware } from 'openapi-fetch';
import { endReasonFor, csrf, noteContact, noteEnded } from '../auth/session';
import { ApiError, NetworkError } from './errors';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];
export type User = Schemas['UserRead'];
export type Workspace = Schemas['WorkspaceRead'];
export type Note = Schemas['SessionNoteRead'];
export type NoteVersion = Schemas['SessionNoteVersionRead'];
export type NoteUpdate = Schemas['SessionNoteUpdate'];
export type Client = Schemas['ClientRead'];
/** What lists and searches show of a client (the minimum necessary); the chart is `Client`. */
export type ClientSummary = Schemas['ClientSummary'];
export type ClientCreate = Schemas['ClientCreate'];
export type ClientUpdate = Schemas['ClientUpdate'];
export type Appointment = Schemas['AppointmentRead'];
export type AppointmentCreate = Schemas['AppointmentCreate'];
export type AppointmentUpdate = Schemas['AppointmentUpdate'];
export type AppointmentSeriesCreate = Schemas['AppointmentSeriesCreate'];
export type Clinician = Schemas['ClinicianRead'];
export type AuditEvent = Schemas['AuditEventRead'];
export type Token = Schemas['TokenRead'];
export type TokenCreated = Schemas['TokenCreated'];
export type ServiceAccount = Schemas['ServiceAccountRead'];
export type ServiceAccountToken = Schemas['ServiceAccountTokenRead'];
export type ServiceAccountTokenCreated = Schemas['ServiceAccountTokenCreated'];
export type Readiness = Schemas['Readiness'];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const NOT_A_SESSION_CHECK = ['/api/v1/auth/login'];

const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    const token = csrf();
    if (!SAFE_METHODS.has(request.method) && token) request.headers.set('X-CSRF-Token', token);
    return request;
  },
  async onResponse({ request, response }) {
    const path = new URL(request.url).pathname;
    if (!path.startsWith('/api/') || NOT_A_SESSION_CHECK.includes(path)) return response;
    if (response.ok) {
      noteContact();
    } else if (response.status === 401) {
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { error?: { code?: string } } | null;
      const reason = endReasonFor(body?.error?.code ?? '');
      if (reason) noteEnded(reason);
    }
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: globalThis.location?.origin ?? '' });
api.use(sessionMiddleware);

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Await an openapi-fetch call: its data, or an ApiError / NetworkError. */
export async function call<T>(request: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await request;
  } catch (error) {
    if (error instanceof ApiError || (error instanceof DOMException && error.name === 'AbortError')) throw error;
    throw new NetworkError(error);
  }
  if (!result.response.ok) throw ApiError.from(result.response, result.error);
  return result.data as T;
}
