"""Signed webhooks: owners register endpoints; a background worker delivers the change
feed's events to them, signed, retried and logged (docs/reference/webhooks.md)."""
