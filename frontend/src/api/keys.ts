/**
 * The one query-key factory. Keys are hierarchical: a resource's `all` prefixes every key of
 * that resource, so invalidating it refreshes each of its lists and records at once.
 * No other module writes a query key by hand (eslint refuses inline `queryKey` arrays).
 */
import type { AccessLogFilters } from './accessLog';
import type { AuditFilters } from './audit';

const clients = ['clients'] as const;
const notes = ['notes'] as const;
const appointments = ['appointments'] as const;

export const keys = {
  clients: {
    all: clients,
    /** Every client (archived too), to name the ones appointments refer to. */
    list: (q: string, page: number, archived: boolean) => [...clients, 'list', { q, page, archived }] as const,
    detail: (clientId: string) => [...clients, 'one', clientId] as const,
    careTeam: (clientId: string) => [...clients, 'care-team', clientId] as const,
    /** The break-the-glass openings of a chart (owners' review). */
    glassReview: (clientId: string) => [...clients, 'break-the-glass', clientId] as const,
    accessLog: (clientId: string, filters: AccessLogFilters, page: number) =>
      [...clients, 'access-log', clientId, { ...filters, page }] as const,
  },
  notes: {
    all: notes,
    detail: (noteId: string) => [...notes, 'one', noteId] as const,
    versions: (noteId: string) => [...notes, 'versions', noteId] as const,
    /** Every page of one client's timeline. */
    ofClient: (clientId: string) => [...notes, 'client', clientId] as const,
    ofClientPage: (clientId: string, page: number) => [...notes, 'client', clientId, page] as const,
    /** The worklist: the caller's unsigned drafts, and the notes awaiting their co-signature. */
    drafts: (authorId: string) => [...notes, 'drafts', authorId] as const,
    awaitingCosign: () => [...notes, 'awaiting-cosign'] as const,
    /** The statements signing and co-signing attest. */
    attestations: () => [...notes, 'attestations'] as const,
  },
  appointments: {
    all: appointments,
    range: (start: string, end: string, clinicianIds: string[] | null = null) =>
      [...appointments, 'range', start, end, clinicianIds] as const,
  },
  clinicians: { all: ['clinicians'] as const },
  users: { all: ['users'] as const },
  tokens: { all: ['tokens'] as const },
  webhooks: {
    all: ['webhooks'] as const,
    deliveriesOf: (webhookId: string) => ['webhooks', 'deliveries', webhookId] as const,
    deliveries: (webhookId: string, page: number) => ['webhooks', 'deliveries', webhookId, page] as const,
  },
  serviceAccounts: {
    all: ['service-accounts'] as const,
    tokens: (accountId: string) => ['service-accounts', 'tokens', accountId] as const,
  },
  audit: {
    all: ['audit'] as const,
    list: (filters: AuditFilters, page: number) => ['audit', { ...filters, page }] as const,
  },
  readiness: { all: ['readiness'] as const },
  practiceKey: { all: ['practice-key'] as const },
};
