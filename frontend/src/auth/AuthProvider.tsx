/** Who is signed in, the sign-in/out calls, the idle timer, and what to do when a session ends. */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, call, type User, type Workspace } from '../api/client';
import { isApiError } from '../api/errors';
import { realClock } from '../lib/clock';
import { anyUnsavedWork, saveAllUnsaved } from '../lib/unsaved';
import { forgetDraftKey, setDraftKey } from '../notes/drafts';
import { IdleTimer } from './idle';
import {
  csrf,
  endReasonFor,
  noteActivity,
  noteContact,
  noteEnded,
  onActivityElsewhere,
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
      /** When the login session ends at the latest (its 12-hour limit), if known. */
      sessionExpiresAt: number | null;
      /** The session ended while typed text was not saved: the screen stays, locked, and
       * asks for the password in place ("renew": asked for early, before the time limit). */
      locked: EndReason | 'renew' | null;
    };

interface AuthContextValue {
  state: AuthState;
  signIn: (email: string, password: string) => Promise<void>;
  signOut: () => Promise<void>;
  confirmPassword: (password: string) => Promise<void>;
  staySignedIn: () => Promise<void>;
  /** Sign in again as the same user without leaving the screen, then save what is unsaved. */
  unlock: (password: string) => Promise<void>;
  /** Ask for the password now (before the session's time limit), without signing out. */
  renew: () => void;
  /** Close the early "renew" prompt. */
  cancelRenew: () => void;
  retry: () => void;
  /** The practice's settings changed (PATCH /workspace answered them). */
  workspaceChanged: (workspace: Workspace) => void;
}

/** Thrown by `unlock` when the password opened another account (another practice's). */
export class OtherAccount extends Error {
  constructor() {
    super('That password belongs to another account with this email. Enter the password of this account.');
    this.name = 'OtherAccount';
  }
}

function expiryOf(value: string | null | undefined): number | null {
  const at = value ? Date.parse(value) : NaN;
  return Number.isFinite(at) ? at : null;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** Activity (typing, clicking) tells the server we are here at most this often. */
const ACTIVITY_PING_MS = 60_000;
/** …and the other tabs of this browser at most this often. */
const ACTIVITY_SHARE_MS = 5_000;
/** Before the session's time limit: save what is typed, and offer to sign in again. */
const EXPIRY_WARNING_MS = 2 * 60_000;
/** Set while this tab signs out on purpose (the user asked, after being warned). */
let signingOutHere = false;

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
      await setDraftKey(me.user.id, me.draft_key).catch(() => undefined);
      setState({
        status: 'signed-in',
        user: me.user,
        workspace: me.workspace,
        idleTimeoutSeconds: me.idle_timeout_seconds ?? null,
        canWrite: token !== null || me.auth_method === 'token',
        warningDeadline: null,
        sessionExpiresAt: expiryOf(me.session_expires_at),
        locked: null,
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
  // everything read from the server leaves memory. Unless text typed here is not saved:
  // then the screen stays, locked behind a password prompt (the text is never signed out
  // from under the user; a sign-out they asked for here was warned about first).
  useEffect(
    () =>
      onEnded((reason) => {
        if (!signingOutHere && anyUnsavedWork()) {
          setState((current) =>
            current.status === 'signed-in' ? { ...current, locked: reason, warningDeadline: null } : current,
          );
          return;
        }
        queryClient.clear();
        forgetDraftKey();
        setState((current) => (current.status === 'signed-out' ? current : { status: 'signed-out', reason }));
      }),
    [queryClient],
  );

  useEffect(() => onContact((at) => (lastContact.current = Math.max(lastContact.current, at))), []);

  const signedIn = state.status === 'signed-in';
  const locked = signedIn && state.locked !== null && state.locked !== 'renew';
  const idleSeconds = signedIn && !locked ? state.idleTimeoutSeconds : null;
  const expiresAt = signedIn && !locked ? state.sessionExpiresAt : null;

  useEffect(() => {
    if (!idleSeconds) return;
    const timer = new IdleTimer({
      idleTimeoutMs: idleSeconds * 1000,
      clock: realClock,
      onWarn: (deadline) =>
        setState((current) => (current.status === 'signed-in' ? { ...current, warningDeadline: deadline } : current)),
      onResume: () =>
        setState((current) => (current.status === 'signed-in' ? { ...current, warningDeadline: null } : current)),
      onExpire: () =>
        void (async () => {
          // Nothing typed is signed out from under the user: save it first. What cannot be
          // saved (offline) stays on screen, locked until the password is given.
          await saveAllUnsaved();
          // End it on the server too, so the cookie cannot be used in the last seconds either.
          void api.POST('/api/v1/auth/logout').catch(() => undefined);
          noteEnded('idle');
        })(),
    });
    if (lastContact.current) timer.contact(lastContact.current);
    const stopListening = onContact((at) => timer.contact(at));
    // Typing or clicking is activity: the person is here, so no idle logoff here, even when
    // the server cannot be reached (then the server may end the session meanwhile: the next
    // request says so, and the screen asks for the password in place). The server hears of
    // it now and then.
    let lastShared = 0;
    const stopHearing = onActivityElsewhere((at) => timer.activity(at));
    const onActivity = () => {
      const now = Date.now();
      timer.activity(now);
      if (now - lastShared > ACTIVITY_SHARE_MS) {
        lastShared = now;
        noteActivity(now);
      }
      if (Date.now() - lastContact.current > ACTIVITY_PING_MS) {
        lastContact.current = Date.now(); // one ping at a time
        void api.GET('/api/v1/auth/me').catch(() => undefined);
      }
    };
    window.addEventListener('keydown', onActivity, true);
    window.addEventListener('pointerdown', onActivity, true);
    return () => {
      timer.stop();
      stopListening();
      stopHearing();
      window.removeEventListener('keydown', onActivity, true);
      window.removeEventListener('pointerdown', onActivity, true);
    };
  }, [idleSeconds]);

  // The session's time limit (12 hours): save what is typed shortly before, and offer to sign
  // in again; at the limit, what is still unsaved stays on screen behind the password prompt.
  useEffect(() => {
    if (!expiresAt) return;
    const now = Date.now();
    const warn = setTimeout(() => void saveAllUnsaved(), Math.max(0, expiresAt - EXPIRY_WARNING_MS - now));
    const end = setTimeout(() => noteEnded('expired'), Math.max(0, expiresAt - now));
    return () => {
      clearTimeout(warn);
      clearTimeout(end);
    };
  }, [expiresAt]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      const result = await call(api.POST('/api/v1/auth/login', { body: { email, password } }));
      queryClient.clear();
      setCsrf(result.csrf_token);
      noteContact();
      await setDraftKey(result.user.id, result.draft_key).catch(() => undefined);
      setState({
        status: 'signed-in',
        user: result.user,
        workspace: result.workspace,
        idleTimeoutSeconds: result.idle_timeout_seconds,
        canWrite: true,
        warningDeadline: null,
        sessionExpiresAt: expiryOf(result.session_expires_at),
        locked: null,
      });
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    signingOutHere = true;
    try {
      await call(api.POST('/api/v1/auth/logout'));
    } catch {
      // Signed out locally either way; an ended session needs no second ending.
    }
    noteEnded('signed-out');
    signingOutHere = false;
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

  const unlock = useCallback(
    async (password: string) => {
      if (state.status !== 'signed-in') return;
      const result = await call(api.POST('/api/v1/auth/login', { body: { email: state.user.email, password } }));
      if (result.user.id !== state.user.id || result.workspace.id !== state.workspace.id) {
        // Another practice's account with the same email and password: not the one whose
        // text is on screen. End that session at once.
        setCsrf(result.csrf_token);
        await call(api.POST('/api/v1/auth/logout')).catch(() => undefined);
        throw new OtherAccount();
      }
      setCsrf(result.csrf_token);
      noteContact();
      await setDraftKey(result.user.id, result.draft_key).catch(() => undefined);
      setState((current) =>
        current.status === 'signed-in'
          ? {
              ...current,
              canWrite: true,
              locked: null,
              warningDeadline: null,
              sessionExpiresAt: expiryOf(result.session_expires_at),
            }
          : current,
      );
      await saveAllUnsaved();
    },
    [state],
  );

  const renew = useCallback(
    () => setState((current) => (current.status === 'signed-in' ? { ...current, locked: 'renew' } : current)),
    [],
  );
  const cancelRenew = useCallback(
    () =>
      setState((current) =>
        current.status === 'signed-in' && current.locked === 'renew' ? { ...current, locked: null } : current,
      ),
    [],
  );

  const workspaceChanged = useCallback(
    (workspace: Workspace) =>
      setState((current) =>
        current.status === 'signed-in' && current.workspace.id === workspace.id ? { ...current, workspace } : current,
      ),
    [],
  );

  const value = useMemo<AuthContextValue>(
    () => ({
      state,
      signIn,
      signOut,
      confirmPassword,
      staySignedIn,
      unlock,
      renew,
      cancelRenew,
      retry: () => void check(),
      workspaceChanged,
    }),
    [state, signIn, signOut, confirmPassword, staySignedIn, unlock, renew, cancelRenew, check, workspaceChanged],
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
