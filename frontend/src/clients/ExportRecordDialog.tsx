import { useState } from 'react';
import { RECORD_FORMATS, useDownloadRecord, type RecordFormat } from '../api/exports';
import { describeError } from '../api/errors';
import { Banner, Dialog } from '../ui/components';

/** "Export record": the client's whole record as a PDF or a FHIR Bundle, downloaded as a file. */
export function ExportRecordDialog({
  clientId,
  open,
  onClose,
}: {
  clientId: string;
  open: boolean;
  onClose: () => void;
}) {
  const [format, setFormat] = useState<RecordFormat>('pdf');
  const download = useDownloadRecord(clientId, onClose);
  return (
    <Dialog title="Export record" open={open} onClose={onClose}>
      <p>
        The client&apos;s whole record: details, appointments, every note with each version, amendment and signature.
        Notes marked as psychotherapy notes are left out (the export says how many). The export is recorded in the
        access history.
      </p>
      <fieldset>
        <legend>Format</legend>
        {(Object.keys(RECORD_FORMATS) as RecordFormat[]).map((key) => (
          <label key={key} className="radio">
            <input
              type="radio"
              name="record-format"
              value={key}
              checked={format === key}
              onChange={() => setFormat(key)}
            />{' '}
            {RECORD_FORMATS[key].label} <span className="muted">{RECORD_FORMATS[key].hint}</span>
          </label>
        ))}
      </fieldset>
      {download.isError && <Banner tone="danger">{describeError(download.error)}</Banner>}
      <div className="actions">
        <button
          type="button"
          className="button button-primary"
          disabled={download.isPending}
          onClick={() => download.mutate(format)}
        >
          {download.isPending ? 'Preparing…' : 'Download'}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
