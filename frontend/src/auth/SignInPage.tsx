import { useId, useState, type FormEvent } from 'react';
import { ApiError, NetworkError } from '../api/errors';
import { Banner } from '../ui/components';
import { useDocumentTitle } from '../lib/hooks';
import { useAuth } from './AuthProvider';
import type { EndReason } from './session';

const REASONS: Record<EndReason, { tone: 'info' | 'warning'; title: string; text: string }> = {
  idle: {
    tone: 'warning',
    title: 'You were signed out after a period of inactivity',
    text: "To protect your clients' information, CareVault signs you out when it is left unattended. Sign in again to continue.",
  },
  expired: {
    tone: 'info',
    title: 'Your session has reached its time limit',
    text: 'Sign in again to continue.',
  },
  ended: { tone: 'info', title: 'Your session has ended', text: 'Sign in again to continue.' },
  'signed-out': { tone: 'info', title: 'You have signed out', text: 'Sign in again whenever you are ready.' },
};

export function signInMessage(error: unknown): { title: string; text: string } {
  if (error instanceof ApiError) {
    if (error.status === 429) {
      const minutes = error.retryAfterSeconds ? Math.max(1, Math.ceil(error.retryAfterSeconds / 60)) : null;
      return {
        title: 'Too many sign-in attempts',
        text: `For your security, signing in is paused${minutes ? ` for about ${minutes} minute${minutes === 1 ? '' : 's'}` : ' for a while'}. Try again later, or ask your practice owner to check your account.`,
      };
    }
    if (error.status === 401) {
      return { title: 'Wrong email or password', text: 'Check both and try again. Passwords are case-sensitive.' };
    }
    if (error.status === 422) return { title: 'Enter your email and password', text: 'Both are needed to sign in.' };
    return { title: 'Signing in failed', text: 'CareVault had a problem. Try again in a moment.' };
  }
  if (error instanceof NetworkError) {
    return { title: 'CareVault could not be reached', text: 'Check the connection and try again.' };
  }
  return { title: 'Signing in failed', text: 'Try again in a moment.' };
}

export function SignInPage({ reason }: { reason: EndReason | null }) {
  useDocumentTitle('Sign in');
  const { signIn } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await signIn(email.trim(), password);
    } catch (caught) {
      setError(caught);
      setPassword('');
    } finally {
      setPending(false);
    }
  }

  const notice = reason && !error ? REASONS[reason] : null;
  const failure = error ? signInMessage(error) : null;
  return (
    <main className="signin" id="main">
      <div className="signin-card">
        <h1 className="brand-large">CareVault</h1>
        <p className="muted">Sign in to your practice</p>
        {notice && (
          <Banner tone={notice.tone} title={notice.title}>
            <p>{notice.text}</p>
          </Banner>
        )}
        {failure && (
          <Banner tone="danger" title={failure.title}>
            <p>{failure.text}</p>
          </Banner>
        )}
        <form onSubmit={(event) => void submit(event)} className="stack">
          <div className="field">
            <label htmlFor={`${id}-email`}>Email</label>
            <input
              id={`${id}-email`}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-password`}>Password</label>
            <input
              id={`${id}-password`}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          <button type="submit" className="button button-primary" disabled={pending}>
            {pending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}
