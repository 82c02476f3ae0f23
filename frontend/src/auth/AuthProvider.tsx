/** Who is signed in, the sign-in/out calls, the idle timer, and what to do when a session ends. */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, call, type User, type Workspace } from '../api/client';
import { isApiError } from '../api/errors';
import { realClock } from '../lib/clock';
import { IdleTimer } from './idle';
import {
  csrf,
  endReasonFor,
  noteContact,
  noteEnded,
  onContact,
  onEnded,
  requestCsrfFromOtherTabs,
  setCsrf,
  type EndReason,
} from './session';

export type AuthState =
  | { status: 'checking' }
  | { status: 'unreachable'; error: unknown }
  | { status: 'signed-out'; reason: EndReason | null }
  | {
      status: 'signed-in';
      user: User;
      workspace: Workspace;
      idleTimeoutSeconds: number | null;
      /** False in a tab reloaded with no other tab to share the CSRF token: writes need a re-sign-in. */
      canWrite: boolean;
      /** Set while the "you will be signed out" warning shows. */
      warningDeadline: number | null;
    };

interface AuthContextValue {
  state: AuthState;
  signIn: (email: string, password: string) => Promise<void>;
  signOut: () => Promise<void>;
  confirmPassword: (password: string) => Promise<void>;
  staySignedIn: () => Promise<void>;
  retry: () => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** Activity (typing, clicking) tells the server we are here at most this often. */
const ACTIVITY_PING_MS = 60_000;

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>({ status: 'checking' });
  const lastContact = useRef(0);

  const check = useCallback(async () => {
    setState({ status: 'checking' });
    try {
      const me = await call(api.GET('/api/v1/auth/me'));
      const offered = (me as { csrf_token?: unknown }).csrf_token;
      if (typeof offered === 'string' && offered) setCsrf(offered);
      const token = csrf() ?? (await requestCsrfFromOtherTabs());
      setState({
        status: 'signed-in',
        user: me.user,
        workspace: me.workspace,
        idleTimeoutSeconds: me.idle_timeout_seconds ?? null,
        canWrite: token !== null || me.auth_method === 'token',
        warningDeadline: null,
      });
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        setState({ status: 'signed-out', reason: endReasonFor(error.code) === 'idle' ? 'idle' : null });
      } else {
        setState({ status: 'unreachable', error });
      }
    }
  }, []);

  useEffect(() => {
    void check();
  }, [check]);

  // A session that ends anywhere (this tab, another tab, a 401 on any request) ends here:
  // everything read from the server leaves memory.
  useEffect(
    () =>
      onEnded((reason) => {
        queryClient.clear();
        setState((current) => (current.status === 'signed-out' ? current : { status: 'signed-out', reason }));
      }),
    [queryClient],
  );

  useEffect(() => onContact((at) => (lastContact.current = Math.max(lastContact.current, at))), []);

  const signedIn = state.status === 'signed-in';
  const idleSeconds = signedIn ? state.idleTimeoutSeconds : null;

  useEffect(() => {
    if (!idleSeconds) return;
    const timer = new IdleTimer({
      idleTimeoutMs: idleSeconds * 1000,
      clock: realClock,
      onWarn: (deadline) =>
        setState((current) => (current.status === 'signed-in' ? { ...current, warningDeadline: deadline } : current)),
      onResume: () =>
        setState((current) => (current.status === 'signed-in' ? { ...current, warningDeadline: null } : current)),
      onExpire: () => {
        // End it on the server too, so the cookie cannot be used in the last seconds either.
        void api.POST('/api/v1/auth/logout').catch(() => undefined);
        noteEnded('idle');
      },
    });
    if (lastContact.current) timer.contact(lastContact.current);
    const stopListening = onContact((at) => timer.contact(at));
    // Typing or clicking is activity: tell the server now and then, but once the warning
    // shows, only "Stay signed in" (or another request) keeps the session.
    const onActivity = () => {
      if (!timer.isWarning() && Date.now() - lastContact.current > ACTIVITY_PING_MS) {
        lastContact.current = Date.now(); // one ping at a time
        void api.GET('/api/v1/auth/me').catch(() => undefined);
      }
    };
    window.addEventListener('keydown', onActivity, true);
    window.addEventListener('pointerdown', onActivity, true);
    return () => {
      timer.stop();
      stopListening();
      window.removeEventListener('keydown', onActivity, true);
      window.removeEventListener('pointerdown', onActivity, true);
    };
  }, [idleSeconds]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      const result = await call(api.POST('/api/v1/auth/login', { body: { email, password } }));
      queryClient.clear();
      setCsrf(result.csrf_token);
      noteContact();
      setState({
        status: 'signed-in',
        user: result.user,
        workspace: result.workspace,
        idleTimeoutSeconds: result.idle_timeout_seconds,
        canWrite: true,
        warningDeadline: null,
      });
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    try {
      await call(api.POST('/api/v1/auth/logout'));
    } catch {
      // Signed out locally either way; an ended session needs no second ending.
    }
    noteEnded('signed-out');
  }, []);

  const confirmPassword = useCallback(
    async (password: string) => {
      if (state.status !== 'signed-in') return;
      const result = await call(api.POST('/api/v1/auth/login', { body: { email: state.user.email, password } }));
      setCsrf(result.csrf_token);
      noteContact();
      setState((current) => (current.status === 'signed-in' ? { ...current, canWrite: true } : current));
    },
    [state],
  );

  const staySignedIn = useCallback(async () => {
    await call(api.GET('/api/v1/auth/me'));
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({ state, signIn, signOut, confirmPassword, staySignedIn, retry: () => void check() }),
    [state, signIn, signOut, confirmPassword, staySignedIn, check],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}

/** The signed-in user; only for components rendered inside the signed-in app. */
export function useSignedIn() {
  const { state } = useAuth();
  if (state.status !== 'signed-in') throw new Error('useSignedIn while not signed in');
  return state;
}
