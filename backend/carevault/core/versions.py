"""The version of one client, appointment or note as an opaque string: what the REST API's
`ETag` quotes (carevault.api.conditional) and FHIR's `meta.versionId` is
(carevault.fhir.mapping), so both APIs name a version alike and a tag read from one
guards a change through the other.

A digest of the record's id, its `updated_at` and, for notes, its `version`: every change
writes `updated_at`, so every change gives a new one. Hex, as FHIR's `id` type allows
letters, digits, `-` and `.` only.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import datetime


def version_tag(record_id: uuid.UUID, updated_at: datetime, version: int | None = None) -> str:
    stamp = updated_at.isoformat(timespec="microseconds")
    digest = hashlib.sha256(f"{record_id}|{stamp}|{version or 0}".encode()).digest()
    return digest[:15].hex()
