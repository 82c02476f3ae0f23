/** A client's care team (everyone sees it; owners change it), and break-the-glass: what a
 * clinician outside the team sees instead of the chart, and the owners' review of openings. */
import { useId, useState, type FormEvent } from 'react';
import {
  BREAK_THE_GLASS_REASON,
  glassReasonError,
  useBreakTheGlass,
  useCareTeam,
  useGlassReview,
  useSetCareTeam,
} from '../api/careTeam';
import { describeError } from '../api/errors';
import { useUsers } from '../api/users';
import { useSignedIn } from '../auth/AuthProvider';
import { formatDateTime } from '../lib/format';
import { Banner, Dialog, EmptyState, ErrorState, Field, Loading } from '../ui/components';

export function CareTeamPanel({ clientId }: { clientId: string }) {
  const { user, workspace } = useSignedIn();
  const owner = user.role === 'owner';
  const team = useCareTeam(clientId);
  const [editing, setEditing] = useState(false);
  return (
    <section aria-labelledby="care-team-title" className="panel">
      <h2 id="care-team-title">Care team</h2>
      <p className="muted">
        {workspace.chart_access === 'care_team'
          ? 'Only these clinicians (and owners) see this chart.'
          : 'Every clinician of the practice sees this chart; the care team says who looks after the client.'}
      </p>
      {team.isPending ? (
        <Loading label="Loading the care team…" />
      ) : team.isError ? (
        <ErrorState error={team.error} onRetry={() => void team.refetch()} />
      ) : team.data.clinicians.length === 0 ? (
        <p className="muted">Nobody is assigned.</p>
      ) : (
        <ul className="plain-list" aria-label="Care team members">
          {team.data.clinicians.map((member) => (
            <li key={member.id}>
              {member.display_name} <span className="muted">({member.role})</span>
            </li>
          ))}
        </ul>
      )}
      {owner && team.data && (
        <div className="actions">
          <button type="button" className="button" onClick={() => setEditing(true)}>
            Change care team
          </button>
        </div>
      )}
      {owner && editing && team.data && (
        <CareTeamDialog
          clientId={clientId}
          current={team.data.clinicians.map((member) => member.id)}
          onClose={() => setEditing(false)}
        />
      )}
    </section>
  );
}

function CareTeamDialog({ clientId, current, onClose }: { clientId: string; current: string[]; onClose: () => void }) {
  const users = useUsers();
  const save = useSetCareTeam(clientId);
  const [chosen, setChosen] = useState(() => new Set(current));
  const active = users.data?.filter((member) => !member.disabled_at) ?? [];

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate([...chosen], { onSuccess: onClose });
  }

  return (
    <Dialog title="Change the care team" open onClose={onClose}>
      <form onSubmit={submit} className="stack">
        {users.isPending ? (
          <Loading label="Loading the team…" />
        ) : users.isError ? (
          <ErrorState error={users.error} onRetry={() => void users.refetch()} />
        ) : (
          <fieldset className="fieldset">
            <legend>Assigned to this client</legend>
            {active.map((member) => (
              <label key={member.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.has(member.id)}
                  onChange={(event) => {
                    const next = new Set(chosen);
                    if (event.target.checked) next.add(member.id);
                    else next.delete(member.id);
                    setChosen(next);
                  }}
                />
                {member.display_name || member.email} <span className="muted">({member.role})</span>
              </label>
            ))}
          </fieldset>
        )}
        {save.isError && <Banner tone="danger">{describeError(save.error)}</Banner>}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={save.isPending || !users.data}>
            {save.isPending ? 'Saving…' : 'Save care team'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** In place of a chart outside the clinician's care team (403 `chart_access_denied`: the
 * practice allows break-the-glass): open it by stating a reason. */
export function ChartOutsideCareTeam({ clientId }: { clientId: string }) {
  const id = useId();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [checked, setChecked] = useState<string | null>(null);
  const open = useBreakTheGlass(clientId);

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = glassReasonError(reason);
    setChecked(problem);
    if (problem) return;
    open.mutate(reason.trim());
  }

  return (
    <div className="state state-error" role="alert">
      <p className="state-title">This chart is outside your care team</p>
      <p>
        You can open it for 60 minutes if you need it now (covering for a colleague, an emergency). Your reason is shown
        to the practice’s owners, and every read is flagged in the audit trail.
      </p>
      <button type="button" className="button button-primary" onClick={() => setAsking(true)}>
        State a reason to open this chart
      </button>
      <Dialog title="State a reason to open this chart" open={asking} onClose={() => setAsking(false)}>
        <form onSubmit={submit} className="stack" noValidate>
          <Field
            id={`${id}-reason`}
            label="Why you need this chart now"
            hint={`${BREAK_THE_GLASS_REASON.min} to ${BREAK_THE_GLASS_REASON.max} characters. The practice’s owners read it.`}
            error={checked ?? undefined}
          >
            <textarea
              id={`${id}-reason`}
              rows={3}
              maxLength={BREAK_THE_GLASS_REASON.max}
              value={reason}
              aria-describedby={`${id}-reason-hint`}
              onChange={(event) => {
                setReason(event.target.value);
                setChecked(null);
              }}
            />
          </Field>
          {open.isError && <Banner tone="danger">{describeError(open.error)}</Banner>}
          <div className="actions">
            <button type="submit" className="button button-danger" disabled={open.isPending}>
              {open.isPending ? 'Opening…' : 'Open the chart for 60 minutes'}
            </button>
            <button type="button" className="button" onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}

/** Owners: every break-the-glass opening of this chart, newest first, with its reason. */
export function GlassReview({ clientId }: { clientId: string }) {
  const review = useGlassReview(clientId);
  return (
    <section aria-labelledby="glass-title" className="panel">
      <h2 id="glass-title">Break-the-glass openings</h2>
      {review.isPending ? (
        <Loading label="Loading break-the-glass openings…" />
      ) : review.isError ? (
        <ErrorState error={review.error} onRetry={() => void review.refetch()} />
      ) : review.data.length === 0 ? (
        <EmptyState title="Nobody opened this chart by breaking the glass" />
      ) : (
        <ul className="plain-list" aria-label="Break-the-glass openings">
          {review.data.map((grant) => (
            <li key={grant.id}>
              <strong>{grant.display_name}</strong>, {formatDateTime(grant.granted_at)} (until{' '}
              {formatDateTime(grant.expires_at)}): <q>{grant.reason}</q>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
