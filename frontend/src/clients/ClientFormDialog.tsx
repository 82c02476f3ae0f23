import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, call, type Client, type ClientCreate } from '../api/client';
import { describeError, fieldErrors } from '../api/errors';
import { keys } from '../api/queries';
import { Banner, Dialog, Field } from '../ui/components';
import { maxLength } from '../api/limits.generated';

type FormValues = Record<keyof ClientCreate, string>;

/** What the API accepts per field (undefined: no length limit, such as a date). */
const LIMITS: Partial<Record<keyof ClientCreate, number>> = maxLength.ClientCreate;

const FIELDS: Array<{
  name: keyof ClientCreate;
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

function valuesOf(client: Client | null): FormValues {
  const values = {} as FormValues;
  for (const field of FIELDS) values[field.name] = client?.[field.name] ?? '';
  return values;
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
  const queryClient = useQueryClient();
  const id = useId();
  const initial = valuesOf(client);
  const [values, setValues] = useState(initial);

  const save = useMutation({
    mutationFn: async () => {
      if (client) {
        const changes: Record<string, string | null> = {};
        for (const field of FIELDS) {
          if (values[field.name] !== initial[field.name]) changes[field.name] = values[field.name].trim() || null;
        }
        if (Object.keys(changes).length === 0) return client;
        return call(
          api.PATCH('/api/v1/clients/{client_id}', {
            params: { path: { client_id: client.id } },
            body: changes,
          }),
        );
      }
      const body: Record<string, string | null> = {};
      for (const field of FIELDS) body[field.name] = values[field.name].trim() || null;
      return call(api.POST('/api/v1/clients', { body: body as unknown as ClientCreate }));
    },
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: keys.clients });
      queryClient.setQueryData(keys.client(saved.id), saved);
      onSaved(saved);
    },
  });

  const errors = fieldErrors(save.error);
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate();
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
