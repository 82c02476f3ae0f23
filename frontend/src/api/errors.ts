/** Failures of API calls, in two kinds: the server answered with an error, or it did not. */

export interface ErrorBody {
  error?: { code?: string; message?: string; details?: unknown };
}

/** The server answered with the one JSON error shape (or something else that is not 2xx). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly retryAfterSeconds: number | null;

  constructor(status: number, code: string, message: string, details?: unknown, retryAfter?: number | null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.retryAfterSeconds = retryAfter ?? null;
  }

  static from(response: Response, body: unknown): ApiError {
    const error = (body as ErrorBody | undefined)?.error;
    const retryAfter = Number(response.headers.get('Retry-After'));
    return new ApiError(
      response.status,
      error?.code ?? `http_${response.status}`,
      error?.message ?? (response.statusText || `request failed with status ${response.status}`),
      error?.details,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
}

/** The request never got an answer: offline, the server is down, or a proxy dropped it. */
export class NetworkError extends Error {
  constructor(cause?: unknown) {
    super('CareVault could not be reached', { cause });
    this.name = 'NetworkError';
  }
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** Is it worth trying the same request again later (connection trouble, overload, 5xx)? */
export function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (error instanceof ApiError) return error.status >= 500 || error.status === 429 || error.status === 408;
  return false;
}

/** The field a `details.field` names, as the forms name it: body fields bare (`plan`, and
 * `body.plan` taken the same way), parameters and headers with their place
 * (`query.page_size`, `path.note_id`, `header.idempotency-key`). */
function formField(field: string): string {
  return field.startsWith('body.') ? field.slice('body.'.length) : field;
}

/**
 * The fields an error names, with why: `details` is a list of `{field, message}` (422
 * `validation_error` and the field checks of the services) or one object with a `field`
 * (such as 400 `unknown_parameter`, whose message is the error's own).
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.details === null || typeof error.details !== 'object') return {};
  const items: unknown[] = Array.isArray(error.details) ? error.details : [error.details];
  const result: Record<string, string> = {};
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    const { field, message } = item as { field?: unknown; message?: unknown };
    if (typeof field !== 'string' || !field) continue;
    result[formField(field)] = typeof message === 'string' ? message : error.message;
  }
  return result;
}

/** The server's "the session date cannot be after the practice's today (2026-11-26)": the
 * practice's day, or null for any other error. */
export function practiceTodayRefusal(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  for (const text of [error.message, ...Object.values(fieldErrors(error))]) {
    const match = /after the practice's today \((\d{4}-\d{2}-\d{2})\)/.exec(text);
    if (match) return match[1];
  }
  return null;
}

/** A sentence for people, for any failure. */
export function describeError(error: unknown): string {
  if (error instanceof NetworkError) return 'CareVault could not be reached. Check the connection and try again.';
  const practiceToday = practiceTodayRefusal(error);
  if (practiceToday) {
    const [year, month, day] = practiceToday.split('-').map(Number);
    const shown = new Date(year, month - 1, day).toLocaleDateString(undefined, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
    return `This session is after today in the practice’s time zone (today there is ${shown}). Its note can be written from the day of the session.`;
  }
  if (error instanceof ApiError) {
    if (error.code === 'validation_error') {
      const fields = Object.entries(fieldErrors(error));
      if (fields.length > 0) return fields.map(([field, message]) => `${field}: ${message}`).join('; ');
    }
    if (error.status === 403 && error.code === 'owner_required') return 'Only practice owners can see this.';
    if (error.status === 404) return 'Not found. It may have been deleted, or it belongs to another practice.';
    if (error.code === 'phi_decryption_failed') {
      return 'A protected field could not be decrypted. The incident was logged; contact your practice owner.';
    }
    if (error.status >= 500) return 'CareVault had a problem answering. Try again in a moment.';
    const message = error.message;
    return message.charAt(0).toUpperCase() + message.slice(1) + (message.endsWith('.') ? '' : '.');
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}
