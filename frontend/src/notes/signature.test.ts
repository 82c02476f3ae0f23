import { describe, expect, it } from 'vitest';
import { mayCosign, signatureFacts } from './signature';

const names: Record<string, string> = { a: 'Dr Author', s: 'Dr Supervisor' };
const nameOf = (id: string | null | undefined) => (id ? (names[id] ?? 'someone') : 'someone');
const format = (iso: string) => iso.slice(0, 10);
const draft = {
  status: 'draft' as const,
  signed_by: null,
  signed_at: null,
  finalized_at: null,
  late_entry: false,
  cosign_status: null,
  cosigned_by: null,
  cosigned_at: null,
};

describe('signature facts', () => {
  it('say nothing of a draft', () => {
    expect(signatureFacts(draft, nameOf, format)).toEqual({ signed: null, lateEntry: false, cosign: null });
  });

  it('name the signer, the late entry and who co-signed', () => {
    const signed = {
      ...draft,
      status: 'finalized' as const,
      signed_by: 'a',
      signed_at: '2026-11-20T10:00:00Z',
      finalized_at: '2026-11-20T10:00:00Z',
      late_entry: true,
      cosign_status: 'cosigned' as const,
      cosigned_by: 's',
      cosigned_at: '2026-11-21T09:00:00Z',
    };
    expect(signatureFacts(signed, nameOf, format)).toEqual({
      signed: 'Signed by Dr Author on 2026-11-20',
      lateEntry: true,
      cosign: 'Co-signed by Dr Supervisor on 2026-11-21',
    });
    expect(signatureFacts({ ...signed, cosign_status: 'awaiting' }, nameOf, format).cosign).toBe(
      'Awaiting co-signature',
    );
    expect(signatureFacts({ ...signed, cosign_status: null }, nameOf, format).cosign).toBeNull();
  });

  it('say so when a note was finalized before signatures were recorded', () => {
    const old = { ...draft, status: 'finalized' as const, finalized_at: '2025-01-02T00:00:00Z' };
    expect(signatureFacts(old, nameOf, format).signed).toBe(
      'Finalized on 2025-01-02 before notes were signed (no signer recorded)',
    );
  });
});

describe('who may co-sign', () => {
  const awaiting = { author_id: 'a', cosign_status: 'awaiting' as const };
  it('an owner or the author’s supervisor, never the author, only while awaiting', () => {
    expect(mayCosign(awaiting, { id: 'o', role: 'owner' }, false)).toBe(true);
    expect(mayCosign(awaiting, { id: 's', role: 'clinician' }, true)).toBe(true);
    expect(mayCosign(awaiting, { id: 'x', role: 'clinician' }, false)).toBe(false);
    expect(mayCosign(awaiting, { id: 'a', role: 'owner' }, true)).toBe(false);
    expect(mayCosign({ ...awaiting, cosign_status: 'cosigned' }, { id: 'o', role: 'owner' }, true)).toBe(false);
    expect(mayCosign({ ...awaiting, cosign_status: null }, { id: 'o', role: 'owner' }, true)).toBe(false);
  });
});
