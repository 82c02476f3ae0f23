/**
 * Sensitive changes (adding or disabling people, temporary passwords, new API tokens) need
 * the password again when it was last proved more than five minutes ago. The server answers
 * 403 `reauthentication_required`; we then ask for the password once and repeat the change.
 */
import { isApiError } from '../api/errors';

export const REAUTH_REQUIRED = 'reauthentication_required';

/** Thrown by `ask` when the person closes the password prompt. */
export class ReauthCancelled extends Error {
  constructor() {
    super('The change was not made: your password was not confirmed.');
    this.name = 'ReauthCancelled';
  }
}

/** Run `change`; if the server wants the password again, `ask` for it (which proves it to
 * the server) and run `change` once more. */
export async function withRecentPassword<T>(change: () => Promise<T>, ask: () => Promise<void>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!isApiError(error, REAUTH_REQUIRED)) throw error;
    await ask();
    return change();
  }
}

export const MIN_PASSWORD_LENGTH = 10;

/** What is wrong with a new password before it is sent (the server checks again). */
export function newPasswordProblem(current: string, next: string, repeated: string): string | null {
  if (next.length < MIN_PASSWORD_LENGTH) return `The new password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (next === current) return 'The new password must differ from the current one.';
  if (next !== repeated) return 'The two new passwords do not match.';
  return null;
}
