"""Idempotent creates: a retried POST with the same `Idempotency-Key` returns the first
response instead of creating again."""
