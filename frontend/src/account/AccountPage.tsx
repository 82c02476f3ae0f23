import { useState } from 'react';
import { useSignedIn } from '../auth/AuthProvider';
import { useDocumentTitle } from '../lib/hooks';
import { Banner } from '../ui/components';
import { ChangePasswordForm } from './ChangePasswordForm';

export function AccountPage() {
  useDocumentTitle('Your account');
  const { user } = useSignedIn();
  const [changed, setChanged] = useState<number | null>(null);
  return (
    <section aria-labelledby="account-title">
      <header className="page-header">
        <div>
          <h1 id="account-title">Your account</h1>
          <p className="muted">
            Signed in as {user.email} ({user.role === 'owner' ? 'owner' : 'clinician'}).
          </p>
        </div>
      </header>
      <section className="panel narrow" aria-labelledby="password-title">
        <h2 id="password-title">Change your password</h2>
        <p className="muted">Changing it signs you out everywhere else; this window stays signed in.</p>
        {changed !== null && (
          <Banner tone="success" title="Your password was changed">
            <p>
              {changed === 0
                ? 'You were not signed in anywhere else.'
                : `${changed} other session${changed === 1 ? ' was' : 's were'} signed out.`}
            </p>
          </Banner>
        )}
        <ChangePasswordForm onChanged={setChanged} />
      </section>
    </section>
  );
}
