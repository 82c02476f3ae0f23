import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from './errors';
import {
  createOnce,
  newIdempotencyKey,
  retryDelay,
  type IdempotencyHeader,
  type RandomSource,
  type RetryPolicy,
} from './idempotency';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** No real waiting: the waits asked for are recorded. */
function policy(delaysMs: readonly number[] = [1_000, 3_000]): RetryPolicy & { waited: number[] } {
  const waited: number[] = [];
  return {
    delaysMs,
    maxRetryAfterMs: 10_000,
    sleep: (ms) => {
      waited.push(ms);
      return Promise.resolve();
    },
    waited,
  };
}

/** A create that fails with the given errors, in order, then succeeds; it records each key. */
function flakyCreate(failures: Error[]) {
  const keys: string[] = [];
  const send = (header: IdempotencyHeader) => {
    keys.push(header['Idempotency-Key']);
    const failure = failures.shift();
    return failure === undefined ? Promise.resolve({ id: 'created' }) : Promise.reject(failure);
  };
  return { keys, send };
}

describe('Idempotency-Key', () => {
  it('is a fresh UUID for every user action', async () => {
    const first = flakyCreate([]);
    const second = flakyCreate([]);
    await createOnce(first.send, policy());
    await createOnce(second.send, policy());
    expect(first.keys[0]).toMatch(UUID_V4);
    expect(second.keys[0]).toMatch(UUID_V4);
    expect(first.keys[0]).not.toBe(second.keys[0]);
  });

  it('is reused by the automatic retries of one action after a lost answer', async () => {
    const timing = policy();
    const create = flakyCreate([new NetworkError(), new ApiError(503, 'database_unavailable', 'down')]);
    await expect(createOnce(create.send, timing)).resolves.toEqual({ id: 'created' });
    expect(create.keys).toHaveLength(3);
    expect(new Set(create.keys).size).toBe(1);
    expect(timing.waited).toEqual([1_000, 3_000]);
  });

  it('stops retrying after the policy’s retries and reports the last failure', async () => {
    const lost = new NetworkError();
    const create = flakyCreate([new NetworkError(), new NetworkError(), lost]);
    await expect(createOnce(create.send, policy())).rejects.toBe(lost);
    expect(create.keys).toHaveLength(3);
  });

  it('is not retried when the server refused the request', async () => {
    const invalid = new ApiError(422, 'validation_error', 'the request is not valid', []);
    const create = flakyCreate([invalid]);
    await expect(createOnce(create.send, policy())).rejects.toBe(invalid);
    expect(create.keys).toHaveLength(1);
  });

  it('waits as long as Retry-After asks, unless that is too long to keep someone waiting', () => {
    const timing = policy();
    expect(retryDelay(new ApiError(429, 'rate_limited', 'slow', undefined, 5), 0, timing)).toBe(5_000);
    expect(retryDelay(new ApiError(503, 'database_unavailable', 'down', undefined, 60), 0, timing)).toBeNull();
    expect(retryDelay(new NetworkError(), 2, timing)).toBeNull();
  });

  it('is a valid UUID v4 where crypto.randomUUID is missing (plain HTTP)', () => {
    const onlyRandomValues: RandomSource = { getRandomValues: (array) => crypto.getRandomValues(array) };
    const keys = Array.from({ length: 50 }, () => newIdempotencyKey(onlyRandomValues));
    for (const key of keys) expect(key).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
