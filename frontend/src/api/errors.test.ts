import { describe, expect, it } from 'vitest';
import { ApiError, describeError, practiceTodayRefusal } from './errors';

describe("a session date after the practice's today", () => {
  const refusal = new ApiError(
    422,
    'validation_error',
    "the session date cannot be after the practice's today (2026-11-26)",
    [{ field: 'session_date', message: "the session date cannot be after the practice's today (2026-11-26)" }],
  );

  it('is a sentence for people, not the raw field message', () => {
    expect(practiceTodayRefusal(refusal)).toBe('2026-11-26');
    const text = describeError(refusal);
    expect(text).toMatch(/^This session is after today in the practice’s time zone \(today there is .*2026\)/);
    expect(text).not.toContain('session_date');
    expect(text).not.toContain("practice's today (");
  });

  it('leaves other validation errors as they were', () => {
    const other = new ApiError(422, 'validation_error', 'invalid', [
      { field: 'email', message: 'not an email address' },
    ]);
    expect(practiceTodayRefusal(other)).toBeNull();
    expect(describeError(other)).toBe('email: not an email address');
  });
});
