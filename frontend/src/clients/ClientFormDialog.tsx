import { useId, useState, type FormEvent } from 'react';
import type { Client, ClientCreate, ClientUpdate } from '../api/client';
import { useCreateClient, useUpdateClient } from '../api/clients';
import { describeError, fieldErrors } from '../api/errors';
import { maxLength } from '../api/limits.generated';
import { Banner, Dialog, Field } from '../ui/components';

/** The fields the form edits: an integration's own id and metadata are not shown here. */
type FormField = Exclude<keyof ClientCreate, 'external_id' | 'metadata'>;
type FormValues = Record<FormField, string>;

/** What the API accepts per field (undefined: no length limit, such as a date). */
const LIMITS: Partial<Record<keyof ClientCreate, number>> = maxLength.ClientCreate;

const FIELDS: Array<{
  name: FormField;
  label: string;
  type?: string;
  long?: boolean;
  required?: boolean;
  autoComplete?: string;
}> = [
  { name: 'first_name', label: 'First name', required: true, autoComplete: 'off' },
  { name: 'last_name', label: 'Last name', required: true, autoComplete: 'off' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'off' },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'off' },
  { name: 'date_of_birth', label: 'Date of birth', type: 'date' },
  { name: 'address', label: 'Address' },
  { name: 'emergency_contact_name', label: 'Emergency contact name' },
  { name: 'emergency_contact_phone', label: 'Emergency contact phone', type: 'tel' },
  { name: 'medical_history', label: 'Medical history', long: true },
  { name: 'notes', label: 'Notes', long: true },
];

type RequiredField = 'first_name' | 'last_name';
const REQUIRED: readonly RequiredField[] = ['first_name', 'last_name'];
const OPTIONAL = FIELDS.map((field) => field.name).filter(
  (name): name is Exclude<FormField, RequiredField> => name !== 'first_name' && name !== 'last_name',
);

function valuesOf(client: Client | null): FormValues {
  const values = {} as FormValues;
  for (const field of FIELDS) values[field.name] = client?.[field.name] ?? '';
  return values;
}

/** The form as the API takes it: trimmed, an empty optional field as null. */
function createBody(values: FormValues): ClientCreate {
  const body: ClientCreate = { first_name: values.first_name.trim(), last_name: values.last_name.trim() };
  for (const name of OPTIONAL) body[name] = values[name].trim() || null;
  return body;
}

/** Only what was changed, so a save never overwrites a field someone else just changed. */
function changesOf(values: FormValues, initial: FormValues): ClientUpdate {
  const changes: ClientUpdate = {};
  for (const name of REQUIRED) if (values[name] !== initial[name]) changes[name] = values[name].trim();
  for (const name of OPTIONAL) if (values[name] !== initial[name]) changes[name] = values[name].trim() || null;
  return changes;
}

export function ClientFormDialog({
  client,
  onClose,
  onSaved,
}: {
  client: Client | null;
  onClose: () => void;
  onSaved: (client: Client) => void;
}) {
  const id = useId();
  const initial = valuesOf(client);
  const [values, setValues] = useState(initial);

  const create = useCreateClient();
  const update = useUpdateClient();
  const save = client ? update : create;

  const errors = fieldErrors(save.error);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!client) {
      create.mutate(createBody(values), { onSuccess: onSaved });
      return;
    }
    const changes = changesOf(values, initial);
    if (Object.keys(changes).length === 0) onSaved(client);
    else update.mutate({ clientId: client.id, changes }, { onSuccess: onSaved });
  }

  return (
    <Dialog title={client ? 'Edit client details' : 'New client'} open onClose={onClose} wide>
      <form onSubmit={submit} className="form-grid">
        {FIELDS.map((field) => (
          <div key={field.name} className={field.long ? 'span-2' : undefined}>
            <Field
              id={`${id}-${field.name}`}
              label={field.required ? `${field.label} (required)` : field.label}
              error={errors[field.name]}
            >
              {field.long ? (
                <textarea
                  id={`${id}-${field.name}`}
                  rows={3}
                  maxLength={LIMITS[field.name]}
                  value={values[field.name]}
                  onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
                />
              ) : (
                <input
                  id={`${id}-${field.name}`}
                  type={field.type ?? 'text'}
                  required={field.required}
                  autoComplete={field.autoComplete}
                  maxLength={LIMITS[field.name]}
                  value={values[field.name]}
                  onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
                />
              )}
            </Field>
          </div>
        ))}
        {save.isError && (
          <div className="span-2">
            <Banner tone="danger" title="Not saved">
              {describeError(save.error)}
            </Banner>
          </div>
        )}
        <div className="actions span-2">
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : client ? 'Save details' : 'Add client'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
    </Dialog>
  );
}
