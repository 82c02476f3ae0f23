/**
 * Creates that are safe to retry. Every POST that creates something (a note, a client, an
 * appointment, an API token, an import) carries an `Idempotency-Key`: a fresh random key per
 * user action, and the same key on each automatic retry of that action. A create whose
 * answer was lost (a dropped connection, a timeout, a 5xx) is retried at once with its key,
 * and the server answers a retry it already carried out with the first response instead of
 * creating a second record (docs/reference/api.md, "Retrying creates safely").
 */
import { ApiError, isTransient } from './errors';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The header parameter of a create, as the generated schema declares it. */
export interface IdempotencyHeader {
  'Idempotency-Key': string;
}

/** The part of `crypto` a key needs. */
export interface RandomSource {
  getRandomValues(array: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer>;
  randomUUID?: () => string;
}

/** A random UUID (v4). `crypto.randomUUID` exists only in secure contexts; plain HTTP on a
 * practice's LAN has `getRandomValues` alone. */
export function newIdempotencyKey(random: RandomSource = crypto): string {
  if (typeof random.randomUUID === 'function') return random.randomUUID();
  const bytes = random.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 9562 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface RetryPolicy {
  /** The wait before each automatic retry; their number is the number of retries. */
  delaysMs: readonly number[];
  /** A `Retry-After` longer than this is not waited for: the failure is shown instead. */
  maxRetryAfterMs: number;
  sleep: (ms: number) => Promise<void>;
}

export const CREATE_RETRY: RetryPolicy = {
  delaysMs: [1_000, 3_000],
  maxRetryAfterMs: 10_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** How long to wait before retrying after `error`, or null when it is not worth it. */
export function retryDelay(error: unknown, attempt: number, policy: RetryPolicy): number | null {
  if (!isTransient(error) || attempt >= policy.delaysMs.length) return null;
  const delay = policy.delaysMs[attempt];
  if (error instanceof ApiError && error.retryAfterSeconds !== null) {
    const asked = error.retryAfterSeconds * 1000;
    return asked > policy.maxRetryAfterMs ? null : Math.max(delay, asked);
  }
  return delay;
}

/**
 * One user action that creates something: `send` gets the action's key (pass it as the
 * request's `params.header`) and is called again with the same key while the failure is
 * transient. Call `createOnce` once per click or submit, never inside a retry loop of your own.
 */
export async function createOnce<T>(
  send: (header: IdempotencyHeader) => Promise<T>,
  policy: RetryPolicy = CREATE_RETRY,
): Promise<T> {
  const header: IdempotencyHeader = { [IDEMPOTENCY_HEADER]: newIdempotencyKey() };
  for (let attempt = 0; ; attempt++) {
    try {
      return await send(header);
    } catch (error) {
      const delay = retryDelay(error, attempt, policy);
      if (delay === null) throw error;
      await policy.sleep(delay);
    }
  }
}
