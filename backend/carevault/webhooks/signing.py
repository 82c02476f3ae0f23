"""The signature a receiver checks: HMAC-SHA256 under the endpoint's secret over
`"{timestamp}.{body}"`, sent as `CareVault-Signature: t=<unix seconds>,v1=<hex>`.

The timestamp is inside the signed text, so a receiver that refuses old timestamps refuses
replays of a captured delivery. The verifying half for receivers lives in the Python client
(`carevault_client.webhooks.verify_webhook_signature`)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

SIGNATURE_HEADER = "CareVault-Signature"
EVENT_ID_HEADER = "CareVault-Event-Id"
DELIVERY_ID_HEADER = "CareVault-Delivery-Id"
EVENT_TYPE_HEADER = "CareVault-Event-Type"
SECRET_PREFIX = "whsec_"  # noqa: S105 (a prefix, not a secret)


def new_secret() -> str:
    """A signing secret: 32 random bytes, URL-safe, with a recognisable prefix."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of `"{timestamp}.{body}"` under the secret's UTF-8 bytes."""
    signed = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret, timestamp, body)}"
