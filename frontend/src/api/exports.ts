/** A client's whole record as a file (HIPAA right of access): the server's export, itself audited. */
import { useMutation } from '@tanstack/react-query';
import { api, call } from './client';

export type RecordFormat = 'pdf' | 'fhir';

export const RECORD_FORMATS: Record<RecordFormat, { label: string; hint: string }> = {
  pdf: { label: 'PDF', hint: 'A readable document to give to the client.' },
  fhir: { label: 'FHIR JSON', hint: 'A FHIR R4 Bundle, for another health system or app.' },
};

/** The downloaded file's name: the client's id and the day, never their name (no PHI in file names). */
export function recordFileName(clientId: string, format: RecordFormat, now: Date): string {
  const day = now.toISOString().slice(0, 10);
  return `record-${clientId}-${day}.${format === 'pdf' ? 'pdf' : 'json'}`;
}

/** Fetch the export and save it as a file. */
export async function downloadRecord(clientId: string, format: RecordFormat): Promise<void> {
  const file: Blob = await call(
    api.GET('/api/v1/clients/{client_id}/export', {
      params: { path: { client_id: clientId }, query: { format } },
      parseAs: 'blob',
    }),
  );
  const url = URL.createObjectURL(file);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = recordFileName(clientId, format, new Date());
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** Download the export in the chosen format; `onDone` after the file was handed to the browser. */
export function useDownloadRecord(clientId: string, onDone: () => void) {
  return useMutation({ mutationFn: (format: RecordFormat) => downloadRecord(clientId, format), onSuccess: onDone });
}
