"""`Patient/{id}/$everything`: a client's record as one FHIR searchset Bundle, written out
entry by entry (the caller streams the chunks)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

from carevault.exports import fhir
from carevault.exports.record import PSYCHOTHERAPY_EXCLUSION, ClientRecord
from carevault.fhir.mapping import instant


def resources(record: ClientRecord) -> Iterator[fhir.FhirResource]:
    client = record.client
    yield fhir.patient(client)
    names = (client.first_name, client.last_name)
    for appointment in record.appointments:
        yield fhir.appointment(appointment, record.staff, names)
    for note in record.notes:
        yield from fhir.note_resources(note.note, note.versions)


def exclusion_outcome(record: ClientRecord) -> fhir.FhirResource | None:
    """An OperationOutcome saying how many psychotherapy notes were left out, and why."""
    if not record.psychotherapy_notes_excluded:
        return None
    count = record.psychotherapy_notes_excluded
    return {
        "resourceType": "OperationOutcome",
        "id": str(uuid.uuid5(record.client.id, "psychotherapy-notes-excluded")),
        "issue": [
            {
                "severity": "information",
                "code": "suppressed",
                "diagnostics": f"{count} {'note' if count == 1 else 'notes'} left out: "
                f"{PSYCHOTHERAPY_EXCLUSION}",
            }
        ],
    }


def bundle_chunks(record: ClientRecord, base_url: str) -> Iterator[bytes]:
    """The Bundle as JSON, one entry per chunk."""
    head: dict[str, Any] = {
        "resourceType": "Bundle",
        "id": str(uuid.uuid4()),
        "meta": {"lastUpdated": instant(record.exported_at)},
        "type": "searchset",
        "timestamp": instant(record.exported_at),
    }
    yield json.dumps(head)[:-1].encode() + b', "entry": ['
    first = True
    count = 0
    for resource in resources(record):
        entry = {
            # Versions of one note share their id: each has its own meta.versionId (bdl-7).
            "fullUrl": f"{base_url}/{resource['resourceType']}/{resource['id']}",
            "resource": resource,
            "search": {"mode": "match" if count == 0 else "include"},
        }
        count += 1
        yield (b"" if first else b", ") + json.dumps(entry, ensure_ascii=False).encode()
        first = False
    outcome = exclusion_outcome(record)
    if outcome is not None:
        entry = {
            "fullUrl": f"urn:uuid:{outcome['id']}",
            "resource": outcome,
            "search": {"mode": "outcome"},
        }
        yield (b"" if first else b", ") + json.dumps(entry, ensure_ascii=False).encode()
    yield f'], "total": {count}}}'.encode()


def bundle(record: ClientRecord, base_url: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(b"".join(bundle_chunks(record, base_url)))
    return loaded
