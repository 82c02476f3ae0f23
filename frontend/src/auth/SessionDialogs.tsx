/** The idle warning, the "confirm your password" prompt of a tab without a CSRF token, and
 * the lock that keeps unsaved text on screen when the session ends. */
import { useId, useState, type FormEvent } from 'react';
import { describeError, isApiError } from '../api/errors';
import { Banner, Dialog } from '../ui/components';
import { useNow } from '../lib/hooks';
import { anyUnsavedWork, saveAllUnsaved } from '../lib/unsaved';
import { canKeepDrafts } from '../notes/drafts';
import { formatTime } from '../lib/format';
import { OtherAccount, useAuth } from './AuthProvider';

export function IdleWarning() {
  const { state, staySignedIn } = useAuth();
  const signOut = useSignOutSafely();
  const now = useNow(1_000);
  const [error, setError] = useState<unknown>(null);
  const deadline = state.status === 'signed-in' ? state.warningDeadline : null;
  const seconds = deadline ? Math.max(0, Math.ceil((deadline - now) / 1000)) : 0;
  return (
    <Dialog
      title="Are you still there?"
      open={deadline !== null}
      onClose={() => void staySignedIn()}
      role="alertdialog"
    >
      <p>
        For your clients' privacy you will be signed out in{' '}
        <strong>
          {seconds} second{seconds === 1 ? '' : 's'}
        </strong>{' '}
        unless you continue.
      </p>
      {error !== null && <Banner tone="danger">{describeError(error)}</Banner>}
      <div className="actions">
        <button
          type="button"
          className="button button-primary"
          autoFocus
          onClick={() => void staySignedIn().then(() => setError(null), setError)}
        >
          Stay signed in
        </button>
        <button type="button" className="button" onClick={signOut.start}>
          Sign out now
        </button>
      </div>
      {signOut.dialog}
    </Dialog>
  );
}

export function ConfirmPasswordBanner() {
  const { state, confirmPassword } = useAuth();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const id = useId();
  if (state.status !== 'signed-in' || state.canWrite) return null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await confirmPassword(password);
      setOpen(false);
      setPassword('');
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  }

  return (
    <>
      <Banner tone="warning" title="Confirm your password to make changes">
        <p>
          This tab was reloaded, so it can show your practice but not save changes yet. CareVault keeps its save key
          only in memory, never on disk.
        </p>
        <button type="button" className="button button-primary" onClick={() => setOpen(true)}>
          Confirm password
        </button>
      </Banner>
      <Dialog title="Confirm your password" open={open} onClose={() => setOpen(false)}>
        <form onSubmit={(event) => void submit(event)} className="stack">
          <p>Signed in as {state.user.email}.</p>
          {error !== null && <Banner tone="danger">{describeError(error)}</Banner>}
          <div className="field">
            <label htmlFor={`${id}-password`}>Password</label>
            <input
              id={`${id}-password`}
              type="password"
              autoComplete="current-password"
              required
              autoFocus
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          <div className="actions">
            <button type="submit" className="button button-primary">
              Confirm
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

const LOCK_REASONS = {
  idle: 'You were away for a while, so CareVault locked this screen.',
  expired: 'Your session reached its 12-hour limit.',
  ended: 'Your session has ended.',
  'signed-out': 'You were signed out in another tab.',
  renew: 'Sign in again now to start a new 12-hour session without interruption.',
} as const;

/**
 * The session ended while text typed here was not saved: instead of the sign-in page (which
 * would take the text), the screen stays and this asks for the password in place, then
 * saves. The backdrop hides the app meanwhile (an unattended screen shows nothing).
 */
export function SessionLock() {
  const { state, unlock, signOut, cancelRenew } = useAuth();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  if (state.status !== 'signed-in' || state.locked === null) return null;
  const renewing = state.locked === 'renew';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await unlock(password);
      setPassword('');
      setError(null);
    } catch (caught) {
      setError(caught);
      setPassword('');
    } finally {
      setBusy(false);
    }
  }

  const message =
    error instanceof OtherAccount
      ? error.message
      : isApiError(error, 'invalid_credentials')
        ? 'That is not your password. Try again.'
        : error
          ? describeError(error)
          : null;
  return (
    <Dialog
      title={renewing ? 'Sign in again' : 'Sign in again to save your work'}
      open
      onClose={() => (renewing ? cancelRenew() : undefined)}
      lock={!renewing}
    >
      <form onSubmit={(event) => void submit(event)} className="stack">
        <p>{LOCK_REASONS[state.locked]}</p>
        {!renewing && (
          <p>
            <strong>Your unsaved text is kept here.</strong> Enter your password to continue; it is saved at once.
          </p>
        )}
        {message && <Banner tone="danger">{message}</Banner>}
        <p className="muted">Signed in as {state.user.email}.</p>
        <div className="field">
          <label htmlFor={`${id}-password`}>Password</label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="current-password"
            required
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Checking…' : renewing ? 'Sign in again' : 'Sign in and save'}
          </button>
          {renewing ? (
            <button type="button" className="button" onClick={cancelRenew}>
              Not now
            </button>
          ) : (
            <button type="button" className="button" onClick={() => void signOut()}>
              Sign out
            </button>
          )}
        </div>
        {!renewing && (
          <p className="muted">
            {canKeepDrafts()
              ? 'If you sign out, your unsaved text stays on this device, encrypted, and is offered back when you sign in again and open the note.'
              : 'If you sign out, your unsaved text is lost.'}
          </p>
        )}
      </form>
    </Dialog>
  );
}

/** Shortly before the session's 12-hour limit: say so, and offer to sign in again now. */
export function SessionExpiryNotice() {
  const { state, renew } = useAuth();
  const now = useNow(15_000);
  if (state.status !== 'signed-in' || !state.sessionExpiresAt || state.locked !== null) return null;
  if (state.sessionExpiresAt - now > 5 * 60_000) return null;
  return (
    <Banner tone="warning" title={`Your session ends at ${formatTime(new Date(state.sessionExpiresAt))}`}>
      <p>Sessions last at most 12 hours. Sign in again now to keep working without interruption.</p>
      <button type="button" className="button" onClick={renew}>
        Sign in again
      </button>
    </Banner>
  );
}

/** "Sign out" that saves first, and asks when something typed still is not saved. */
export function useSignOutSafely(): { start: () => void; dialog: React.ReactNode } {
  const { signOut } = useAuth();
  const [asking, setAsking] = useState(false);
  const start = () =>
    void (async () => {
      if (anyUnsavedWork() && !(await saveAllUnsaved())) setAsking(true);
      else await signOut();
    })();
  const dialog = (
    <Dialog title="Sign out with unsaved text?" open={asking} onClose={() => setAsking(false)} role="alertdialog">
      <p>
        Some text you typed is not saved yet.{' '}
        {canKeepDrafts()
          ? 'If you sign out, it stays on this device, encrypted, and is offered back when you sign in again.'
          : 'If you sign out, it is lost.'}
      </p>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={() => setAsking(false)}>
          Stay signed in
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={() => {
            setAsking(false);
            void signOut();
          }}
        >
          Sign out
        </button>
      </div>
    </Dialog>
  );
  return { start, dialog };
}
