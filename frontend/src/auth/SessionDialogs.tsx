/** The idle warning and the "confirm your password" prompt of a tab without a CSRF token. */
import { useId, useState, type FormEvent } from 'react';
import { describeError } from '../api/errors';
import { Banner, Dialog } from '../ui/components';
import { useNow } from '../lib/hooks';
import { useAuth } from './AuthProvider';

export function IdleWarning() {
  const { state, staySignedIn, signOut } = useAuth();
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
        <button type="button" className="button" onClick={() => void signOut()}>
          Sign out now
        </button>
      </div>
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
