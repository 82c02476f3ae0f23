import { describe, expect, it } from 'vitest';
import { RECORD_FORMATS, recordFileName } from './exports';

describe('record export', () => {
  it('names the file by the client id and the day, never the name', () => {
    const id = '0b7f1c2e-4d3a-4c1b-9a8e-5f6d7c8b9a0e';
    const now = new Date('2026-11-27T05:00:00Z');
    expect(recordFileName(id, 'pdf', now)).toBe(`record-${id}-2026-11-27.pdf`);
    expect(recordFileName(id, 'fhir', now)).toBe(`record-${id}-2026-11-27.json`);
  });

  it('offers the two formats the server writes', () => {
    expect(Object.keys(RECORD_FORMATS)).toEqual(['pdf', 'fhir']);
    expect(RECORD_FORMATS.fhir.label).toBe('FHIR JSON');
  });
});
