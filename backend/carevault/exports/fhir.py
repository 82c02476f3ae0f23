"""The FHIR R4 forms of a record's parts: the seam where the FHIR mapping plugs in.

`Serializer` is what the exports need of a mapping; `DEFAULT` is a minimal one used until
the FHIR face's mapping package (carevault.fhir) is merged and installed in its place with
`use(...)`. It owns no rules: whatever it is given has been authorized and audited.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Iterator
from datetime import datetime
from typing import Any, Protocol

from carevault.appointments.models import Appointment
from carevault.clients.models import Client
from carevault.notes.models import NoteStatus, SessionNote, SessionNoteVersion

FhirResource = dict[str, Any]
SOAP_SECTIONS = (
    ("subjective", "Subjective"),
    ("objective", "Objective"),
    ("assessment", "Assessment"),
    ("plan", "Plan"),
)
_APPOINTMENT_STATUS = {
    "scheduled": "booked",
    "attended": "fulfilled",
    "cancelled": "cancelled",
    "no-show": "noshow",
}
_ENCOUNTER_STATUS = {"draft": "in-progress", "finalized": "finished"}
# HL7 v3 ActCode: psychotherapy note information sensitivity (bulk exports label them).
PSYCHOTHERAPY_LABEL = {
    "system": "http://terminology.hl7.org/CodeSystem/v3-ActCode",
    "code": "PSYTHPN",
    "display": "psychotherapy note information sensitivity",
}


class Serializer(Protocol):
    def patient(self, client: Client) -> FhirResource: ...

    def appointment(self, appointment: Appointment) -> FhirResource: ...

    def encounter(self, note: SessionNote) -> FhirResource: ...

    def document_references(
        self, note: SessionNote, versions: list[SessionNoteVersion]
    ) -> list[FhirResource]: ...

    def provenances(self, note: SessionNote) -> list[FhirResource]: ...


def _instant(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _soap_text(source: SessionNote | SessionNoteVersion) -> str:
    parts = []
    for name, title in SOAP_SECTIONS:
        text = getattr(source, name)
        if text:
            parts.append(f"{title}:\n{text}")
    return "\n\n".join(parts)


def version_reference_id(note_id: uuid.UUID, version: int) -> str:
    """The DocumentReference id of a note's replaced `version` (stable, derived)."""
    return str(uuid.uuid5(note_id, f"version-{version}"))


class MinimalSerializer:
    """Enough FHIR R4 for a faithful export: every field of the record, US Core codes."""

    def patient(self, client: Client) -> FhirResource:
        resource: FhirResource = {
            "resourceType": "Patient",
            "id": str(client.id),
            "meta": {"lastUpdated": _instant(client.updated_at)},
            "active": client.archived_at is None,
            "name": [{"use": "official", "family": client.last_name, "given": [client.first_name]}],
        }
        telecom = []
        if client.phone:
            telecom.append({"system": "phone", "value": client.phone})
        if client.email:
            telecom.append({"system": "email", "value": client.email})
        if telecom:
            resource["telecom"] = telecom
        if client.date_of_birth:
            resource["birthDate"] = client.date_of_birth.isoformat()
        if client.address:
            resource["address"] = [{"text": client.address}]
        if client.emergency_contact_name or client.emergency_contact_phone:
            contact: FhirResource = {
                "relationship": [
                    {
                        "coding": [
                            {
                                "system": "http://terminology.hl7.org/CodeSystem/v2-0131",
                                "code": "C",
                                "display": "Emergency Contact",
                            }
                        ]
                    }
                ]
            }
            if client.emergency_contact_name:
                contact["name"] = {"text": client.emergency_contact_name}
            if client.emergency_contact_phone:
                contact["telecom"] = [{"system": "phone", "value": client.emergency_contact_phone}]
            resource["contact"] = [contact]
        notes = [
            text
            for text in (
                f"Medical history: {client.medical_history}" if client.medical_history else "",
                f"Notes: {client.notes}" if client.notes else "",
            )
            if text
        ]
        if notes:
            resource["text"] = {"status": "additional", "div": _div("\n".join(notes))}
        return resource

    def appointment(self, appointment: Appointment) -> FhirResource:
        resource: FhirResource = {
            "resourceType": "Appointment",
            "id": str(appointment.id),
            "meta": {"lastUpdated": _instant(appointment.updated_at)},
            "status": _APPOINTMENT_STATUS.get(appointment.status, "booked"),
            "start": _instant(appointment.starts_at),
            "end": _instant(appointment.ends_at),
            "participant": [
                {"actor": {"reference": f"Patient/{appointment.client_id}"}, "status": "accepted"},
                {
                    "actor": {"reference": f"Practitioner/{appointment.clinician_id}"},
                    "status": "accepted",
                },
            ],
        }
        comments = [
            text
            for text in (
                f"Location: {appointment.location}" if appointment.location else "",
                appointment.notes or "",
            )
            if text
        ]
        if comments:
            resource["comment"] = "\n".join(comments)
        return resource

    def encounter(self, note: SessionNote) -> FhirResource:
        resource: FhirResource = {
            "resourceType": "Encounter",
            "id": str(note.id),
            "meta": {"lastUpdated": _instant(note.updated_at)},
            "status": _ENCOUNTER_STATUS.get(note.status, "unknown"),
            "class": {
                "system": "http://terminology.hl7.org/CodeSystem/v3-ActCode",
                "code": "AMB",
                "display": "ambulatory",
            },
            "subject": {"reference": f"Patient/{note.client_id}"},
            "participant": [{"individual": {"reference": f"Practitioner/{note.author_id}"}}],
            "period": {"start": note.session_date.isoformat()},
            "length": {
                "value": note.duration_minutes,
                "unit": "min",
                "system": "http://unitsofmeasure.org",
                "code": "min",
            },
        }
        if note.appointment_id is not None:
            resource["appointment"] = [{"reference": f"Appointment/{note.appointment_id}"}]
        if note.psychotherapy_note:
            resource["meta"]["security"] = [PSYCHOTHERAPY_LABEL]
        return resource

    def document_references(
        self, note: SessionNote, versions: list[SessionNoteVersion]
    ) -> list[FhirResource]:
        """The current note, then each replaced version (status `superseded`), each newer
        one pointing at what it replaced (`relatesTo` `replaces`, the amendment's reason
        in the description)."""
        current = self._document(str(note.id), note, note, "current", note.updated_at, note.version)
        current["docStatus"] = (
            "final" if note.status == NoteStatus.FINALIZED.value else "preliminary"
        )
        older = [
            self._document(
                version_reference_id(note.id, v.version),
                note,
                v,
                "superseded",
                v.amended_at,
                v.version,
            )
            for v in versions
        ]
        chain = [*older, current]
        for index in range(1, len(chain)):
            replaced = versions[index - 1]
            chain[index]["relatesTo"] = [
                {
                    "code": "replaces",
                    "target": {"reference": f"DocumentReference/{chain[index - 1]['id']}"},
                }
            ]
            if replaced.reason:
                chain[index]["description"] = f"Amendment: {replaced.reason}"
        return chain

    def _document(
        self,
        resource_id: str,
        note: SessionNote,
        source: SessionNote | SessionNoteVersion,
        status: str,
        when: datetime | None,
        version: int,
    ) -> FhirResource:
        resource: FhirResource = {
            "resourceType": "DocumentReference",
            "id": resource_id,
            "meta": {"versionId": str(version), "lastUpdated": _instant(when)},
            "status": status,
            "type": {
                "coding": [
                    {"system": "http://loinc.org", "code": "11506-3", "display": "Progress note"}
                ]
            },
            "category": [
                {
                    "coding": [
                        {
                            "system": "http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category",
                            "code": "clinical-note",
                            "display": "Clinical Note",
                        }
                    ]
                }
            ],
            "subject": {"reference": f"Patient/{note.client_id}"},
            "date": _instant(when),
            "author": [{"reference": f"Practitioner/{note.author_id}"}],
            "content": [
                {
                    "attachment": {
                        "contentType": "text/plain; charset=utf-8",
                        "data": base64.b64encode(_soap_text(source).encode()).decode("ascii"),
                        "title": f"Session note {note.session_date.isoformat()} v{version}",
                    }
                }
            ],
            "context": {
                "encounter": [{"reference": f"Encounter/{note.id}"}],
                "period": {"start": note.session_date.isoformat()},
            },
        }
        if note.psychotherapy_note:
            resource["meta"]["security"] = [PSYCHOTHERAPY_LABEL]
        return resource

    def provenances(self, note: SessionNote) -> list[FhirResource]:
        found = []
        if note.finalized_at is not None and note.signed_by is not None:
            found.append(
                _signature(
                    note,
                    "sig",
                    note.signed_by,
                    note.finalized_at,
                    "author",
                    "1.2.840.10065.1.12.1.1",
                    "Author's Signature",
                )
            )
        if note.cosigned_at is not None and note.cosigned_by is not None:
            found.append(
                _signature(
                    note,
                    "cosig",
                    note.cosigned_by,
                    note.cosigned_at,
                    "verifier",
                    "1.2.840.10065.1.12.1.6",
                    "Verification Signature",
                )
            )
        return found


def _signature(
    note: SessionNote,
    kind: str,
    who: uuid.UUID,
    when: datetime,
    role: str,
    code: str,
    display: str,
) -> FhirResource:
    return {
        "resourceType": "Provenance",
        "id": str(uuid.uuid5(note.id, kind)),
        "target": [{"reference": f"DocumentReference/{note.id}"}],
        "recorded": _instant(when),
        "agent": [
            {
                "type": {
                    "coding": [
                        {
                            "system": "http://terminology.hl7.org/CodeSystem/provenance-participant-type",
                            "code": role,
                        }
                    ]
                },
                "who": {"reference": f"Practitioner/{who}"},
            }
        ],
        "signature": [
            {
                "type": [
                    {"system": "urn:iso-astm:E1762-95:2013", "code": code, "display": display}
                ],
                "when": _instant(when),
                "who": {"reference": f"Practitioner/{who}"},
            }
        ],
    }


def _div(text: str) -> str:
    from html import escape

    return f'<div xmlns="http://www.w3.org/1999/xhtml">{escape(text)}</div>'


DEFAULT: Serializer = MinimalSerializer()
_installed: list[Serializer] = [DEFAULT]


def use(serializer: Serializer) -> None:
    """Install the FHIR face's mapping in place of the minimal one."""
    _installed[0] = serializer


def serializer() -> Serializer:
    return _installed[0]


def note_resources(note: SessionNote, versions: list[SessionNoteVersion]) -> Iterator[FhirResource]:
    """A note's Encounter, DocumentReferences (every version) and Provenances."""
    mapping = serializer()
    yield mapping.encounter(note)
    yield from mapping.document_references(note, versions)
    yield from mapping.provenances(note)
