/** Practice settings (owners): time zone, phone region, when a note is a late entry. */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { describeError, fieldErrors } from '../api/errors';
import { useUpdateWorkspace } from '../api/workspace';
import { useSignedIn } from '../auth/AuthProvider';
import { useDocumentTitle } from '../lib/hooks';
import { Banner, Field } from '../ui/components';
import { routes } from '../routes';
import { ServiceAccounts } from './ServiceAccounts';
import {
  LATE_ENTRY_MAX_HOURS,
  LATE_ENTRY_MIN_HOURS,
  formOf,
  knownTimeZones,
  settingsChanges,
  settingsErrors,
  type SettingsForm,
} from './settings';

const FIELDS = ['time_zone', 'phone_region', 'late_entry_hours', 'chart_access', 'break_the_glass'] as const;

export function PracticeSettingsPage() {
  useDocumentTitle('Practice settings');
  const { workspace } = useSignedIn();
  const id = useId();
  const [form, setForm] = useState<SettingsForm>(() => formOf(workspace));
  const [checked, setChecked] = useState<Partial<Record<string, string>>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const update = useUpdateWorkspace();
  const zones = useMemo(knownTimeZones, []);
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const serverErrors = fieldErrors(update.error);
  const errors: Partial<Record<string, string>> = { ...serverErrors, ...checked };
  const unexplained = update.isError && !FIELDS.some((field) => serverErrors[field]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    const problems = settingsErrors(form);
    setChecked(problems);
    if (Object.keys(problems).length > 0) return;
    const changes = settingsChanges(form, workspace);
    if (Object.keys(changes).length === 0) {
      update.reset();
      setNotice('Nothing changed.');
      return;
    }
    update.mutate(changes, {
      onSuccess: (saved) => {
        setForm(formOf(saved));
        setNotice('Practice settings saved.');
      },
    });
  }

  const change = (name: keyof SettingsForm) => (event: { target: { value: string } }) => {
    setForm({ ...form, [name]: event.target.value });
    setChecked({ ...checked, [name]: undefined });
  };
  const described = (name: keyof SettingsForm) =>
    [`${id}-${name}-hint`, errors[name] ? `${id}-${name}-error` : ''].filter(Boolean).join(' ');

  return (
    <section aria-labelledby="practice-title">
      <header className="page-header">
        <div>
          <h1 id="practice-title">Practice settings</h1>
          <p className="muted">
            For everyone in {workspace.name}. Who must have notes co-signed, and by whom, is set per person on the{' '}
            <Link to={routes.team()}>Team</Link> page; each client’s care team on the client’s page.
          </p>
        </div>
      </header>
      <form className="panel stack settings-form" onSubmit={submit} aria-label="Practice settings" noValidate>
        {notice && (
          <Banner tone="success" role="status">
            {notice}
          </Banner>
        )}
        {unexplained && <Banner tone="danger">{describeError(update.error)}</Banner>}
        <Field
          id={`${id}-time_zone`}
          label="Time zone"
          hint={`Decides the practice's “today”: no session note or date of birth may be after it. This browser is in ${browserZone}.`}
          error={errors.time_zone}
        >
          <input
            id={`${id}-time_zone`}
            list={`${id}-zones`}
            value={form.time_zone}
            autoComplete="off"
            aria-describedby={described('time_zone')}
            aria-invalid={errors.time_zone ? true : undefined}
            onChange={change('time_zone')}
          />
        </Field>
        <datalist id={`${id}-zones`}>
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        <Field
          id={`${id}-phone_region`}
          label="Phone region"
          hint="Two letters (e.g. US, GB): a phone number written without its country code is read as one of this region's. Numbers already stored keep their meaning."
          error={errors.phone_region}
        >
          <input
            id={`${id}-phone_region`}
            value={form.phone_region}
            maxLength={2}
            autoComplete="off"
            className="input-short"
            aria-describedby={described('phone_region')}
            aria-invalid={errors.phone_region ? true : undefined}
            onChange={change('phone_region')}
          />
        </Field>
        <Field
          id={`${id}-late_entry_hours`}
          label="Late entry after (hours)"
          hint={`A note signed more than this many hours after its session ended is flagged as a late entry (${LATE_ENTRY_MIN_HOURS}–${LATE_ENTRY_MAX_HOURS}). Applies to notes signed from now on.`}
          error={errors.late_entry_hours}
        >
          <input
            id={`${id}-late_entry_hours`}
            type="number"
            inputMode="numeric"
            min={LATE_ENTRY_MIN_HOURS}
            max={LATE_ENTRY_MAX_HOURS}
            step={1}
            className="input-short"
            value={form.late_entry_hours}
            aria-describedby={described('late_entry_hours')}
            aria-invalid={errors.late_entry_hours ? true : undefined}
            onChange={change('late_entry_hours')}
          />
        </Field>
        <fieldset className="fieldset">
          <legend>Chart access</legend>
          <p className="field-hint">Owners always see every chart. Changes apply from each person’s next request.</p>
          <label className="radio">
            <input
              type="radio"
              name={`${id}-chart_access`}
              value="practice"
              checked={form.chart_access === 'practice'}
              onChange={() => setForm({ ...form, chart_access: 'practice' })}
            />{' '}
            Every clinician sees every client’s chart
          </label>
          <label className="radio">
            <input
              type="radio"
              name={`${id}-chart_access`}
              value="care_team"
              checked={form.chart_access === 'care_team'}
              onChange={() => setForm({ ...form, chart_access: 'care_team' })}
            />{' '}
            Clinicians see only the charts of clients whose care team they are on
          </label>
          {errors.chart_access && <p className="field-error">{errors.chart_access}</p>}
          <label className="checkbox">
            <input
              type="checkbox"
              checked={form.break_the_glass}
              onChange={(event) => setForm({ ...form, break_the_glass: event.target.checked })}
            />{' '}
            Allow break-the-glass: a clinician may open a chart outside their care team for 60 minutes by stating a
            reason (flagged in the audit trail; turning this off ends every open one)
          </label>
          {errors.break_the_glass && <p className="field-error">{errors.break_the_glass}</p>}
        </fieldset>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save settings'}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              setForm(formOf(workspace));
              setChecked({});
              setNotice(null);
              update.reset();
            }}
          >
            Undo changes
          </button>
        </div>
      </form>
      <ServiceAccounts />
    </section>
  );
}
