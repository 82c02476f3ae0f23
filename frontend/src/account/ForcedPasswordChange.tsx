/** After signing in with a temporary password from an owner: nothing else until it is replaced. */
import { useAuth, useSignedIn } from '../auth/AuthProvider';
import { useDocumentTitle } from '../lib/hooks';
import { Banner } from '../ui/components';
import { ChangePasswordForm } from './ChangePasswordForm';

export function ForcedPasswordChange() {
  useDocumentTitle('Choose a new password');
  const { user } = useSignedIn();
  const { retry, signOut } = useAuth();
  return (
    <main className="signin" id="main">
      <div className="signin-card">
        <h1 className="brand-large">CareVault</h1>
        <Banner tone="warning" title="Choose a new password">
          <p>
            {user.email} was given a temporary password by a practice owner. Replace it with one only you know before
            you continue.
          </p>
        </Banner>
        <ChangePasswordForm currentLabel="Temporary password" submitLabel="Save new password" onChanged={retry} />
        <div className="actions">
          <button type="button" className="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </div>
    </main>
  );
}
