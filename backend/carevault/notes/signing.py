"""Signing a note: the attestation statements, the content hash sealed into the audit trail,
and what makes a note a late entry.

Finalizing a note is its author signing it: the note records who signed, when, and the
version of the statement they attested, and the `session.finalize` audit event carries the
SHA-256 of the note's canonical content (never the content), so the HMAC seals of the audit
trail also seal what was signed. A co-signature (`session.cosign`) and each amendment
(`session.amend`) carry the hash of the content they apply to.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from carevault.core.time_zones import zone

# The versions of the statements a signer attests. A new wording gets a new version; old
# versions stay here so that every stored signature still names its wording.
SIGNATURE_STATEMENTS: dict[int, str] = {
    1: "I attest that I provided this service and that this note is an accurate and complete "
    "record of it.",
}
COSIGNATURE_STATEMENTS: dict[int, str] = {
    1: "I have reviewed this note as the supervising clinician and agree with its content.",
}
CURRENT_SIGNATURE_VERSION = max(SIGNATURE_STATEMENTS)
CURRENT_COSIGNATURE_VERSION = max(COSIGNATURE_STATEMENTS)

DEFAULT_LATE_ENTRY_HOURS = 72
# The format of the canonical content the hash is taken over (see `content_hash`).
CONTENT_HASH_FORMAT = 1
CONTENT_FIELDS = (
    "session_date",
    "duration_minutes",
    "subjective",
    "objective",
    "assessment",
    "plan",
)


@dataclass(frozen=True)
class Statement:
    version: int
    text: str


def signature_statement() -> Statement:
    return Statement(CURRENT_SIGNATURE_VERSION, SIGNATURE_STATEMENTS[CURRENT_SIGNATURE_VERSION])


def cosignature_statement() -> Statement:
    return Statement(
        CURRENT_COSIGNATURE_VERSION, COSIGNATURE_STATEMENTS[CURRENT_COSIGNATURE_VERSION]
    )


def canonical_content(note: Any) -> bytes:
    """The bytes that are hashed: UTF-8 JSON, keys sorted, no spaces, of the hash format,
    the note's id, client, version and its content fields (dates in ISO 8601; an empty SOAP
    section as null)."""
    document: dict[str, Any] = {
        "format": CONTENT_HASH_FORMAT,
        "note_id": str(note.id),
        "client_id": str(note.client_id),
        "version": note.version,
    }
    for field in CONTENT_FIELDS:
        value = getattr(note, field)
        document[field] = value.isoformat() if isinstance(value, date) else value
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def content_hash(note: Any) -> str:
    """SHA-256 of `canonical_content`, lower-case hex."""
    return hashlib.sha256(canonical_content(note)).hexdigest()


def session_end(
    session_date: date, appointment_ends_at: datetime | None, time_zone: str
) -> datetime:
    """When the session ended: its appointment's end, or else the end of the session's day
    in the practice's time zone."""
    if appointment_ends_at is not None:
        return appointment_ends_at
    return datetime.combine(session_date + timedelta(days=1), time(), tzinfo=zone(time_zone))


def is_late_entry(signed_at: datetime, session_ended: datetime, late_entry_hours: int) -> bool:
    return signed_at - session_ended > timedelta(hours=late_entry_hours)
