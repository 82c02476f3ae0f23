import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { describeError, fieldErrors } from '../api/errors';
import { keys, useUsers } from '../api/queries';
import { useDocumentTitle } from '../lib/hooks';
import { Banner, EmptyState, ErrorState, Field, Loading } from '../ui/components';

const MIN_PASSWORD_LENGTH = 10;

export function TeamPage() {
  useDocumentTitle('Team');
  const users = useUsers();
  const queryClient = useQueryClient();
  const id = useId();
  const empty = { email: '', display_name: '', role: 'clinician' as 'clinician' | 'owner', password: '' };
  const [form, setForm] = useState(empty);
  const [added, setAdded] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: () => call(api.POST('/api/v1/users', { body: { ...form, email: form.email.trim(), display_name: form.display_name.trim() } })),
    onSuccess: (user) => {
      setAdded(user.display_name || user.email);
      setForm(empty);
      void queryClient.invalidateQueries({ queryKey: keys.users });
    },
  });
  const errors = fieldErrors(create.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setAdded(null);
    create.mutate();
  }

  return (
    <section aria-labelledby="team-title">
      <header className="page-header">
        <h1 id="team-title">Team</h1>
      </header>
      <div className="two-columns">
        <section className="panel" aria-labelledby="members-title">
          <h2 id="members-title">Members</h2>
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
                  </tr>
                </thead>
                <tbody>
                  {users.data.map((user) => (
                    <tr key={user.id}>
                      <td data-label="Name">{user.display_name || '—'}</td>
                      <td data-label="Email">{user.email}</td>
                      <td data-label="Role">{user.role === 'owner' ? 'Owner' : 'Clinician'}</td>
                      <td data-label="Status">{user.disabled_at ? 'Disabled' : 'Active'}</td>
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
            {added && <Banner tone="success">{added} was added. Give them their password in person or over a secure channel.</Banner>}
            {create.isError && Object.keys(errors).length === 0 && <Banner tone="danger">{describeError(create.error)}</Banner>}
            <Field id={`${id}-name`} label="Name" error={errors.display_name}>
              <input id={`${id}-name`} value={form.display_name} maxLength={200} onChange={(event) => setForm({ ...form, display_name: event.target.value })} />
            </Field>
            <Field id={`${id}-email`} label="Email" error={errors.email}>
              <input id={`${id}-email`} type="email" required value={form.email} onChange={(event) => setForm({ ...form, email: event.target.value })} />
            </Field>
            <Field id={`${id}-role`} label="Role">
              <select id={`${id}-role`} value={form.role} onChange={(event) => setForm({ ...form, role: event.target.value as 'owner' | 'clinician' })}>
                <option value="clinician">Clinician</option>
                <option value="owner">Owner (manages the team, tokens and audit log)</option>
              </select>
            </Field>
            <Field id={`${id}-password`} label="Initial password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} error={errors.password}>
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
    </section>
  );
}
