"""The FHIR R4 forms of an export's records, through the FHIR face's mapping
(carevault.fhir.mapping): this module only chooses which resources a record becomes and
labels psychotherapy notes. It owns no rules: whatever it is given has been authorized and
audited by the caller."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from carevault.appointments.models import Appointment
from carevault.appointments.service import AppointmentView
from carevault.fhir import mapping
from carevault.notes.models import NoteStatus, SessionNote, SessionNoteVersion

FhirResource = dict[str, Any]
SOAP_SECTIONS = mapping.SOAP_SECTIONS
# HL7 v3 ActCode: psychotherapy note information sensitivity. A bulk export (the practice's
# own data, leaving for another system) keeps psychotherapy notes, labelled with it.
PSYCHOTHERAPY_LABEL = {
    "system": "http://terminology.hl7.org/CodeSystem/v3-ActCode",
    "code": "PSYTHPN",
    "display": "psychotherapy note information sensitivity",
}


@dataclass(frozen=True, slots=True)
class Addendum:
    """An amendment as `mapping.document_reference` names it: the version it made."""

    version: int
    amended_by: uuid.UUID | None
    amended_at: datetime
    reason: str | None


def patient(client: Any) -> FhirResource:
    return mapping.patient(client, external_id=getattr(client, "external_id", None))


def appointment(
    booked: Appointment, staff: Mapping[uuid.UUID, str], client_names: tuple[str, str] | None
) -> FhirResource:
    view = AppointmentView(booked, staff.get(booked.clinician_id, ""), client_names)
    return mapping.appointment(view)


def _labelled(resource: FhirResource, note: SessionNote) -> FhirResource:
    if note.psychotherapy_note:
        resource.setdefault("meta", {})["security"] = [PSYCHOTHERAPY_LABEL]
    return resource


def note_resources_encounter(note: SessionNote) -> FhirResource:
    return _labelled(mapping.encounter(note), note)


def document_references(
    note: SessionNote, versions: Sequence[SessionNoteVersion]
) -> list[FhirResource]:
    """The note as it was at each version an amendment replaced (oldest first, same id,
    their own `meta.versionId`), then as it is now (each amendment a `relatesTo`
    `appends`). A draft's document is `preliminary`."""
    found = [_labelled(mapping.document_reference_version(note, v), note) for v in versions]
    addenda = [Addendum(v.version + 1, v.amended_by, v.amended_at, v.reason) for v in versions]
    current = mapping.document_reference(note, addenda)
    if note.status != NoteStatus.FINALIZED.value:
        current["docStatus"] = "preliminary"
    found.append(_labelled(current, note))
    return found


def note_resources(
    note: SessionNote, versions: Sequence[SessionNoteVersion]
) -> Iterator[FhirResource]:
    """A note's Encounter, DocumentReferences (every version) and signatures (Provenance)."""
    yield note_resources_encounter(note)
    yield from document_references(note, versions)
    yield from mapping.provenances(note)
