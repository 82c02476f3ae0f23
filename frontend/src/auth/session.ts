/**
 * The browser side of a login session: the CSRF token (in memory only, never in storage) and
 * the signals other parts of the app and other tabs need: "the server saw us at t" (for the
 * idle timer) and "the session is over".
 *
 * Tabs of one browser share the session cookie, so they share these signals over a
 * BroadcastChannel (same origin only, nothing persisted): a tab opened or reloaded while
 * another tab is signed in asks that tab for the CSRF token instead of signing in again.
 */

export type EndReason =
  | 'idle' // automatic logoff after inactivity
  | 'expired' // the login session reached its maximum age
  | 'ended' // signed out elsewhere, or the session is otherwise gone
  | 'signed-out'; // this user pressed "Sign out"

type Message =
  | { kind: 'csrf-request' }
  | { kind: 'csrf'; token: string }
  | { kind: 'contact'; at: number }
  | { kind: 'activity'; at: number }
  | { kind: 'ended'; reason: EndReason };

type ContactListener = (at: number) => void;
type EndListener = (reason: EndReason) => void;

let csrfToken: string | null = null;
const contactListeners = new Set<ContactListener>();
const activityListeners = new Set<ContactListener>();
const endListeners = new Set<EndListener>();
const channel: BroadcastChannel | null =
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('carevault-session');

channel?.addEventListener('message', (event: MessageEvent<Message>) => {
  const message = event.data;
  switch (message.kind) {
    case 'csrf-request':
      if (csrfToken) channel.postMessage({ kind: 'csrf', token: csrfToken } satisfies Message);
      break;
    case 'csrf':
      csrfToken = message.token;
      break;
    case 'contact':
      contactListeners.forEach((listener) => listener(message.at));
      break;
    case 'activity':
      activityListeners.forEach((listener) => listener(message.at));
      break;
    case 'ended':
      csrfToken = null;
      endListeners.forEach((listener) => listener(message.reason));
      break;
  }
});

export function csrf(): string | null {
  return csrfToken;
}

/** After a sign-in: keep the token here and hand it to the other tabs of this browser. */
export function setCsrf(token: string): void {
  csrfToken = token;
  channel?.postMessage({ kind: 'csrf', token } satisfies Message);
}

/** Ask the other open tabs for the token; resolves with it, or null after `waitMs`. */
export function requestCsrfFromOtherTabs(waitMs = 400): Promise<string | null> {
  if (csrfToken) return Promise.resolve(csrfToken);
  if (!channel) return Promise.resolve(null);
  return new Promise((resolve) => {
    const started = Date.now();
    channel.postMessage({ kind: 'csrf-request' } satisfies Message);
    const poll = () => {
      if (csrfToken || Date.now() - started >= waitMs) resolve(csrfToken);
      else setTimeout(poll, 25);
    };
    poll();
  });
}

/** The server answered an authenticated request: the login session is alive as of `at`. */
export function noteContact(at = Date.now(), { broadcast = true } = {}): void {
  contactListeners.forEach((listener) => listener(at));
  if (broadcast) channel?.postMessage({ kind: 'contact', at } satisfies Message);
}

/** Someone typed or clicked in this tab: the other tabs' idle timers hear of it too, so a
 * background tab does not sign out (or lock) the browser while the person works offline in
 * another. */
export function noteActivity(at = Date.now()): void {
  channel?.postMessage({ kind: 'activity', at } satisfies Message);
}

/** Typing or clicking in another tab of this browser. */
export function onActivityElsewhere(listener: ContactListener): () => void {
  activityListeners.add(listener);
  return () => activityListeners.delete(listener);
}

/** The session is over (here or, through the channel, in every tab). */
export function noteEnded(reason: EndReason): void {
  csrfToken = null;
  endListeners.forEach((listener) => listener(reason));
  channel?.postMessage({ kind: 'ended', reason } satisfies Message);
}

export function onContact(listener: ContactListener): () => void {
  contactListeners.add(listener);
  return () => contactListeners.delete(listener);
}

export function onEnded(listener: EndListener): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

/** 401 codes that mean the browser's login session is over, and why. */
export function endReasonFor(code: string): EndReason | null {
  switch (code) {
    case 'session_idle_timeout':
      return 'idle';
    case 'session_expired':
      return 'expired';
    case 'session_ended':
    case 'not_authenticated':
    case 'user_disabled':
      return 'ended';
    default:
      return null;
  }
}
