/** The "confirm it's you" password prompt that sensitive changes may need (see reauth.ts). */
import {
  createContext,
  useCallback,
  useContext,
  useId,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
} from 'react';
import { api, call } from '../api/client';
import { describeError, isApiError } from '../api/errors';
import { Banner, Dialog } from '../ui/components';
import { ReauthCancelled, withRecentPassword } from './reauth';

type Run = <T>(change: () => Promise<T>) => Promise<T>;

const ReauthContext = createContext<Run | null>(null);

interface Pending {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function ReauthProvider({ children }: { children: ReactNode }) {
  const pending = useRef<Pending | null>(null);
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const ask = useCallback(
    () =>
      new Promise<void>((resolve, reject) => {
        pending.current = { resolve, reject };
        setPassword('');
        setError(null);
        setOpen(true);
      }),
    [],
  );

  const run = useCallback<Run>((change) => withRecentPassword(change, ask), [ask]);

  function close() {
    setOpen(false);
    pending.current?.reject(new ReauthCancelled());
    pending.current = null;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await call(api.POST('/api/v1/auth/reauth', { body: { password } }));
      setOpen(false);
      setPassword('');
      pending.current?.resolve();
      pending.current = null;
    } catch (caught) {
      setError(caught);
      setPassword('');
    } finally {
      setBusy(false);
    }
  }

  const message = isApiError(error, 'invalid_credentials')
    ? 'That is not your password. Try again.'
    : error
      ? describeError(error)
      : null;
  return (
    <ReauthContext.Provider value={run}>
      {children}
      <Dialog title="Confirm it’s you" open={open} onClose={close}>
        <form onSubmit={(event) => void submit(event)} className="stack">
          <p>This change needs your password again (it is asked for every few minutes before changes like this).</p>
          {message && <Banner tone="danger">{message}</Banner>}
          <div className="field">
            <label htmlFor={`${id}-password`}>Your password</label>
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
              {busy ? 'Checking…' : 'Confirm and continue'}
            </button>
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
    </ReauthContext.Provider>
  );
}

/** Wrap a sensitive change: `run(() => call(api.POST(…)))`. */
export function useRecentPassword(): Run {
  const run = useContext(ReauthContext);
  const fallback = useMemo<Run>(() => (change) => change(), []);
  return run ?? fallback;
}
