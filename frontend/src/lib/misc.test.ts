import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, describeError, fieldErrors, isTransient } from '../api/errors';
import { signInMessage } from '../auth/SignInPage';
import { endReasonFor } from '../auth/session';
import { canStartNote, durationOf, sessionDateOf } from '../notes/openNote';
import { dateKey, formatDuration, parseDateKey } from './format';

const response = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });

describe('API errors', () => {
  it('read the one error shape, with Retry-After', () => {
    const error = ApiError.from(response(429, { 'Retry-After': '120' }), {
      error: { code: 'rate_limited', message: 'too many failed sign-ins; try again later' },
    });
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 120 });
  });

  it('survive a body that is not the error shape', () => {
    const error = ApiError.from(response(502), '<html>Bad gateway</html>');
    expect(error).toMatchObject({ status: 502, code: 'http_502' });
  });

  it('tell transient failures from refusals', () => {
    expect(isTransient(new NetworkError())).toBe(true);
    expect(isTransient(new ApiError(503, 'x', 'down'))).toBe(true);
    expect(isTransient(new ApiError(429, 'rate_limited', 'slow'))).toBe(true);
    expect(isTransient(new ApiError(409, 'version_conflict', 'stale'))).toBe(false);
    expect(isTransient(new ApiError(422, 'validation_error', 'bad'))).toBe(false);
  });

  it('name the fields of a validation error', () => {
    const error = new ApiError(422, 'validation_error', 'the request is not valid', [
      { field: 'email', message: 'not an email address' },
    ]);
    expect(fieldErrors(error)).toEqual({ email: 'not an email address' });
    expect(describeError(error)).toBe('email: not an email address');
  });

  it('read the field from details.field whatever the shape of details', () => {
    // A parameter the endpoint does not declare: one object, the message is the error's.
    const unknown = new ApiError(400, 'unknown_parameter', 'unknown query parameter: clientid', {
      field: 'query.clientid',
      unknown: ['clientid'],
      allowed: ['client_id', 'page', 'page_size'],
    });
    expect(fieldErrors(unknown)).toEqual({ 'query.clientid': 'unknown query parameter: clientid' });
    // Body fields named with their place are the form's fields all the same.
    const body = new ApiError(422, 'validation_error', 'the request is not valid', [
      { field: 'body.plan', message: 'String should have at most 5000 characters' },
      { field: 'query.page_size', message: 'Input should be less than or equal to 100' },
    ]);
    expect(fieldErrors(body)).toEqual({
      plan: 'String should have at most 5000 characters',
      'query.page_size': 'Input should be less than or equal to 100',
    });
    // Details that name no field (a version conflict) are not field errors.
    expect(fieldErrors(new ApiError(409, 'version_conflict', 'stale', { current_version: 4 }))).toEqual({});
    expect(fieldErrors(new ApiError(422, 'validation_error', 'bad', ['plan', null]))).toEqual({});
  });
});

describe('sign-in messages', () => {
  it('say what went wrong for a wrong password, rate limiting and a lost connection', () => {
    expect(signInMessage(new ApiError(401, 'invalid_credentials', 'wrong email or password')).title).toBe(
      'Wrong email or password',
    );
    const limited = signInMessage(new ApiError(429, 'rate_limited', 'later', undefined, 600));
    expect(limited.title).toBe('Too many sign-in attempts');
    expect(limited.text).toContain('about 10 minutes');
    expect(signInMessage(new NetworkError()).title).toBe('CareVault could not be reached');
  });

  it('map 401 codes to why a session ended', () => {
    expect(endReasonFor('session_idle_timeout')).toBe('idle');
    expect(endReasonFor('session_expired')).toBe('expired');
    expect(endReasonFor('session_ended')).toBe('ended');
    expect(endReasonFor('invalid_credentials')).toBeNull();
  });
});

describe('notes for appointments', () => {
  const appointment = {
    starts_at: new Date(2026, 10, 23, 17, 0).toISOString(),
    ends_at: new Date(2026, 10, 23, 17, 50).toISOString(),
  };

  it('date the note on the local day of the appointment, for its length', () => {
    expect(sessionDateOf(appointment)).toBe('2026-11-23');
    expect(durationOf(appointment)).toBe(50);
    expect(durationOf({ starts_at: appointment.starts_at, ends_at: new Date(2026, 10, 24, 17, 0).toISOString() })).toBe(
      600,
    );
  });

  it('cannot start a note before the day of the session', () => {
    expect(canStartNote(appointment, new Date(2026, 10, 23, 8, 0))).toBe(true);
    expect(canStartNote(appointment, new Date(2026, 10, 22, 23, 59))).toBe(false);
  });
});

describe('format', () => {
  it('round-trips local calendar days', () => {
    expect(dateKey(parseDateKey('2026-03-29'))).toBe('2026-03-29');
  });

  it('says durations in words', () => {
    expect(formatDuration(93_784)).toBe('1 day 2 hours');
    expect(formatDuration(61)).toBe('1 minute 1 second');
    expect(formatDuration(null)).toBe('—');
  });
});
