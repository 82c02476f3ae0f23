/** Change your own password: the current one, then the new one twice. */
import { useId, useState, type FormEvent } from 'react';
import { useChangePassword } from '../api/account';
import { describeError, isApiError } from '../api/errors';
import { MIN_PASSWORD_LENGTH, newPasswordProblem } from '../auth/reauth';
import { Banner, Field } from '../ui/components';

export function ChangePasswordForm({
  currentLabel = 'Current password',
  submitLabel = 'Change password',
  onChanged,
}: {
  currentLabel?: string;
  submitLabel?: string;
  onChanged: (otherSessionsEnded: number) => void;
}) {
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const change = useChangePassword();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = newPasswordProblem(current, next, repeated);
    setProblem(found);
    if (found) return;
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: (result) => {
          setCurrent('');
          setNext('');
          setRepeated('');
          onChanged(result.other_sessions_ended);
        },
        onError: () => setCurrent(''),
      },
    );
  }

  const failure = change.isError
    ? isApiError(change.error, 'invalid_credentials')
      ? `The ${currentLabel.toLowerCase()} is not right.`
      : describeError(change.error)
    : null;
  return (
    <form onSubmit={submit} className="stack" aria-label={submitLabel}>
      {(problem ?? failure) && <Banner tone="danger">{problem ?? failure}</Banner>}
      <Field id={`${id}-current`} label={currentLabel}>
        <input
          id={`${id}-current`}
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
        />
      </Field>
      <Field id={`${id}-new`} label="New password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}>
        <input
          id={`${id}-new`}
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          aria-describedby={`${id}-new-hint`}
          value={next}
          onChange={(event) => setNext(event.target.value)}
        />
      </Field>
      <Field id={`${id}-repeat`} label="New password again">
        <input
          id={`${id}-repeat`}
          type="password"
          autoComplete="new-password"
          required
          value={repeated}
          onChange={(event) => setRepeated(event.target.value)}
        />
      </Field>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={change.isPending}>
          {change.isPending ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
