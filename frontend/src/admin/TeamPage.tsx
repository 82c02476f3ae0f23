import { useId, useState, type FormEvent } from 'react';
import type { User } from '../api/client';
import { describeError, fieldErrors } from '../api/errors';
import { maxLength } from '../api/limits.generated';
import { useCreateUser, useSetTemporaryPassword, useSetUserEnabled, useUpdateUser, useUsers } from '../api/users';
import { useSignedIn } from '../auth/AuthProvider';
import { MIN_PASSWORD_LENGTH, ReauthCancelled } from '../auth/reauth';
import { useDocumentTitle } from '../lib/hooks';
import { Banner, Dialog, EmptyState, ErrorState, Field, Loading } from '../ui/components';

/** The fields of the form that show their own error; any other failure gets a banner. */
const FORM_FIELDS = ['display_name', 'email', 'password'] as const;

export function TeamPage() {
  useDocumentTitle('Team');
  const users = useUsers();
  const id = useId();
  const empty = { email: '', display_name: '', role: 'clinician' as 'clinician' | 'owner', password: '' };
  const [form, setForm] = useState(empty);
  const [added, setAdded] = useState<string | null>(null);

  const { user: me } = useSignedIn();
  const [disabling, setDisabling] = useState<User | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const create = useCreateUser();
  const errors = fieldErrors(create.error);

  const setEnabled = useSetUserEnabled();
  function changeEnabled(user: User, enable: boolean) {
    setEnabled.mutate(
      { user, enable },
      {
        onSuccess: (changed) => {
          setDisabling(null);
          setNotice(
            changed.disabled_at
              ? `${changed.display_name || changed.email} is disabled: signed out everywhere, API tokens revoked.`
              : `${changed.display_name || changed.email} can sign in again.`,
          );
        },
      },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setAdded(null);
    create.mutate(
      { ...form, email: form.email.trim(), display_name: form.display_name.trim() },
      {
        onSuccess: (user) => {
          setAdded(user.display_name || user.email);
          setForm(empty);
        },
      },
    );
  }

  return (
    <section aria-labelledby="team-title">
      <header className="page-header">
        <h1 id="team-title">Team</h1>
      </header>
      <div className="two-columns">
        <section className="panel" aria-labelledby="members-title">
          <h2 id="members-title">Members</h2>
          {notice && <Banner tone="success">{notice}</Banner>}
          {setEnabled.isError && !disabling && !(setEnabled.error instanceof ReauthCancelled) && (
            <Banner tone="danger">{describeError(setEnabled.error)}</Banner>
          )}
          {users.isPending ? (
            <Loading label="Loading team members…" />
          ) : users.isError ? (
            <ErrorState error={users.error} onRetry={() => void users.refetch()} />
          ) : users.data.length === 0 ? (
            <EmptyState title="No team members" />
          ) : (
            <div className="table-wrap">
              <table className="table">
                <caption className="visually-hidden">Team members</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">Status</th>
                    <th scope="col">Co-signature</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {users.data.map((user) => (
                    <tr key={user.id}>
                      <td data-label="Name">{user.display_name || '—'}</td>
                      <td data-label="Email">{user.email}</td>
                      <td data-label="Role">{user.role === 'owner' ? 'Owner' : 'Clinician'}</td>
                      <td data-label="Status">
                        {user.disabled_at
                          ? 'Disabled'
                          : user.must_change_password
                            ? 'Active (temporary password)'
                            : 'Active'}
                      </td>
                      <td data-label="Co-signature">
                        <CosignSettings user={user} team={users.data} />
                      </td>
                      <td data-label="Actions">
                        {user.id === me.id ? (
                          <span className="muted">You</span>
                        ) : (
                          <div className="actions">
                            {user.disabled_at ? (
                              <button
                                type="button"
                                className="button"
                                disabled={setEnabled.isPending}
                                onClick={() => changeEnabled(user, true)}
                              >
                                Enable <span className="visually-hidden">{user.email}</span>
                              </button>
                            ) : (
                              <button
                                type="button"
                                className="button button-danger-quiet"
                                onClick={() => setDisabling(user)}
                              >
                                Disable <span className="visually-hidden">{user.email}</span>
                              </button>
                            )}
                            <button type="button" className="button" onClick={() => setResetting(user)}>
                              Temporary password <span className="visually-hidden">for {user.email}</span>
                            </button>
                          </div>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <section className="panel" aria-labelledby="add-member-title">
          <h2 id="add-member-title">Add a team member</h2>
          <form onSubmit={submit} className="stack">
            {added && (
              <Banner tone="success">
                {added} was added. Give them their password in person or over a secure channel.
              </Banner>
            )}
            {create.isError &&
              !FORM_FIELDS.some((field) => errors[field]) &&
              !(create.error instanceof ReauthCancelled) && (
                <Banner tone="danger">{describeError(create.error)}</Banner>
              )}
            <Field id={`${id}-name`} label="Name" error={errors.display_name}>
              <input
                id={`${id}-name`}
                value={form.display_name}
                maxLength={maxLength.UserCreate.display_name}
                onChange={(event) => setForm({ ...form, display_name: event.target.value })}
              />
            </Field>
            <Field id={`${id}-email`} label="Email" error={errors.email}>
              <input
                id={`${id}-email`}
                type="email"
                required
                value={form.email}
                onChange={(event) => setForm({ ...form, email: event.target.value })}
              />
            </Field>
            <Field id={`${id}-role`} label="Role">
              <select
                id={`${id}-role`}
                value={form.role}
                onChange={(event) => setForm({ ...form, role: event.target.value as 'owner' | 'clinician' })}
              >
                <option value="clinician">Clinician</option>
                <option value="owner">Owner (manages the team, tokens and audit log)</option>
              </select>
            </Field>
            <Field
              id={`${id}-password`}
              label="Initial password"
              hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
              error={errors.password}
            >
              <input
                id={`${id}-password`}
                type="password"
                autoComplete="new-password"
                required
                minLength={MIN_PASSWORD_LENGTH}
                value={form.password}
                aria-describedby={`${id}-password-hint`}
                onChange={(event) => setForm({ ...form, password: event.target.value })}
              />
            </Field>
            <div className="actions">
              <button type="submit" className="button button-primary" disabled={create.isPending}>
                {create.isPending ? 'Adding…' : 'Add member'}
              </button>
            </div>
          </form>
        </section>
      </div>

      <Dialog
        title="Disable this account?"
        open={disabling !== null}
        onClose={() => setDisabling(null)}
        role="alertdialog"
      >
        <p>
          {disabling?.display_name || disabling?.email} is signed out everywhere at once, every API token of theirs is
          revoked, and they cannot sign in until an owner enables the account again. Their records stay.
        </p>
        {setEnabled.isError && !(setEnabled.error instanceof ReauthCancelled) && (
          <Banner tone="danger">{describeError(setEnabled.error)}</Banner>
        )}
        <div className="actions">
          <button
            type="button"
            className="button button-danger"
            disabled={setEnabled.isPending}
            onClick={() => disabling && changeEnabled(disabling, false)}
          >
            Disable account
          </button>
          <button type="button" className="button" onClick={() => setDisabling(null)}>
            Keep it active
          </button>
        </div>
      </Dialog>
      <TemporaryPasswordDialog
        user={resetting}
        onClose={() => setResetting(null)}
        onDone={(user) => {
          setResetting(null);
          setNotice(`${user.display_name || user.email} must choose a new password at their next sign-in.`);
        }}
      />
    </section>
  );
}

/** Whether this person's signed notes await a co-signature (a trainee), and who supervises
 * them (may co-sign; owners always may). Saved at each change. */
function CosignSettings({ user, team }: { user: User; team: User[] }) {
  const id = useId();
  const update = useUpdateUser();
  const label = user.display_name || user.email;
  const supervisors = team.filter((candidate) => candidate.id !== user.id && !candidate.disabled_at);
  return (
    <div className="stack cosign-settings">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={user.requires_cosign ?? false}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ user, changes: { requires_cosign: event.target.checked } })}
        />{' '}
        Requires co-signature <span className="visually-hidden">for {label}</span>
      </label>
      <label htmlFor={`${id}-supervisor`} className="visually-hidden">
        Supervisor of {label}
      </label>
      <select
        id={`${id}-supervisor`}
        value={user.supervisor_id ?? ''}
        disabled={update.isPending}
        onChange={(event) => update.mutate({ user, changes: { supervisor_id: event.target.value || null } })}
      >
        <option value="">No supervisor (owners co-sign)</option>
        {supervisors.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            Supervisor: {candidate.display_name || candidate.email}
          </option>
        ))}
      </select>
      {update.isError && (
        <p className="field-error" role="alert">
          {describeError(update.error)}
        </p>
      )}
    </div>
  );
}

function TemporaryPasswordDialog({
  user,
  onClose,
  onDone,
}: {
  user: User | null;
  onClose: () => void;
  onDone: (user: User) => void;
}) {
  const id = useId();
  const [password, setPassword] = useState('');
  const reset = useSetTemporaryPassword();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!user) return;
    reset.mutate(
      { user, password },
      {
        onSuccess: (updated) => {
          setPassword('');
          reset.reset();
          onDone(updated);
        },
      },
    );
  }

  return (
    <Dialog title="Set a temporary password" open={user !== null} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <p>
          {user?.display_name || user?.email} is signed out everywhere now and must replace this password at their next
          sign-in. Give it to them in person or over a secure channel.
        </p>
        {reset.isError && !(reset.error instanceof ReauthCancelled) && (
          <Banner tone="danger">{describeError(reset.error)}</Banner>
        )}
        <Field id={`${id}-temporary`} label="Temporary password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}>
          <input
            id={`${id}-temporary`}
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            aria-describedby={`${id}-temporary-hint`}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={reset.isPending}>
            Set temporary password
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
