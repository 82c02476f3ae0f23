"""Checking that a webhook came from CareVault (written by hand; copied in by `make client`).

CareVault signs every delivery with the endpoint's secret: the `CareVault-Signature` header
is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. Verify it over the raw bytes
of the request body, before parsing them::

    from carevault_client.webhooks import WebhookSignatureError, verify_webhook_signature

    try:
        event = verify_webhook_signature(raw_body, headers["CareVault-Signature"], secret)
    except WebhookSignatureError:
        return 400  # not from CareVault, altered, or replayed
    # event == {"id": "ev_…", "type": "client.updated", "resource": {…}, "occurred_at": …}
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any

__all__ = ["WebhookSignatureError", "verify_webhook_signature"]


class WebhookSignatureError(ValueError):
    """The signature is missing, malformed, does not match, or is too old."""


def verify_webhook_signature(
    payload: bytes | str,
    header: str | None,
    secret: str,
    tolerance: int = 300,
    *,
    now: float | None = None,
) -> dict[str, Any]:
    """The delivered event, once `header` (the `CareVault-Signature` value) proves `payload`
    (the raw request body) was signed with `secret` no more than `tolerance` seconds ago.

    Raises WebhookSignatureError otherwise. Compares in constant time; accepts any of
    several `v1=` signatures (a header may carry more than one). `now`: the current Unix
    time, for tests."""
    body = payload.encode() if isinstance(payload, str) else bytes(payload)
    if not header:
        raise WebhookSignatureError("no CareVault-Signature header")
    timestamp: int | None = None
    signatures: list[str] = []
    for item in header.split(","):
        key, _, value = item.strip().partition("=")
        if key == "t":
            try:
                timestamp = int(value)
            except ValueError:
                raise WebhookSignatureError("the signature's timestamp is not a number") from None
        elif key == "v1" and value:
            signatures.append(value)
    if timestamp is None or not signatures:
        raise WebhookSignatureError("the header needs t=<timestamp> and v1=<signature>")
    current = time.time() if now is None else now
    if tolerance > 0 and abs(current - timestamp) > tolerance:
        raise WebhookSignatureError("the signature's timestamp is outside the tolerance")
    expected = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(expected, candidate) for candidate in signatures):
        raise WebhookSignatureError("the signature does not match")
    try:
        event: dict[str, Any] = json.loads(body)
    except ValueError:
        raise WebhookSignatureError("the body is not JSON") from None
    return event
