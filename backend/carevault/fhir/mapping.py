"""CareVault records as FHIR R4 (4.0.1) JSON, and FHIR bodies as the REST API's schemas.

Pure functions over what the services return: no queries, no rules, no audit. Every field a
resource carries is documented in docs/reference/fhir.md. Encrypted values arrive decrypted (the
services opened them) and leave only in the resource; ids are the records' own uuids.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from carevault.core.versions import version_tag

FHIR_VERSION = "4.0.1"
MEDIA_TYPE = "application/fhir+json"
# CareVault's own systems and extensions (stable URIs; they resolve to docs/reference/fhir.md).
SYSTEM_BASE = "https://carevault.dev/fhir"
CLIENT_ID_SYSTEM = f"{SYSTEM_BASE}/identifier/client"
USER_ID_SYSTEM = f"{SYSTEM_BASE}/identifier/user"
EXTERNAL_ID_SYSTEM = f"{SYSTEM_BASE}/identifier/external-id"
ERROR_CODE_SYSTEM = f"{SYSTEM_BASE}/CodeSystem/error-code"
ROLE_SYSTEM = f"{SYSTEM_BASE}/CodeSystem/user-role"
AUDIT_ACTION_SYSTEM = f"{SYSTEM_BASE}/CodeSystem/audit-action"
EXT_MEDICAL_HISTORY = f"{SYSTEM_BASE}/StructureDefinition/medical-history"
EXT_CLIENT_NOTES = f"{SYSTEM_BASE}/StructureDefinition/client-notes"
EXT_LOCATION = f"{SYSTEM_BASE}/StructureDefinition/appointment-location"
EXT_ROOM = f"{SYSTEM_BASE}/StructureDefinition/appointment-room"
EXT_AMENDMENT = f"{SYSTEM_BASE}/StructureDefinition/amendment"
EXT_LATE_ENTRY = f"{SYSTEM_BASE}/StructureDefinition/late-entry"

LOINC = "http://loinc.org"
PROGRESS_NOTE = {"system": LOINC, "code": "11506-3", "display": "Progress note"}
CLINICAL_NOTE = {
    "system": "http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category",
    "code": "clinical-note",
    "display": "Clinical Note",
}
SUBSETTED = {
    "system": "http://terminology.hl7.org/CodeSystem/v3-ObservationValue",
    "code": "SUBSETTED",
    "display": "subsetted",
}
AMBULATORY = {
    "system": "http://terminology.hl7.org/CodeSystem/v3-ActCode",
    "code": "AMB",
    "display": "ambulatory",
}
EMERGENCY_CONTACT = {
    "system": "http://terminology.hl7.org/CodeSystem/v2-0131",
    "code": "C",
    "display": "Emergency Contact",
}
SIGNATURE_SYSTEM = "urn:iso-astm:E1762-95:2013"
AUTHOR_SIGNATURE = {
    "system": SIGNATURE_SYSTEM,
    "code": "1.2.840.10065.1.12.1.1",
    "display": "Author's Signature",
}
VERIFICATION_SIGNATURE = {
    "system": SIGNATURE_SYSTEM,
    "code": "1.2.840.10065.1.12.1.5",
    "display": "Verification Signature",
}
PARTICIPANT_TYPE = "http://terminology.hl7.org/CodeSystem/provenance-participant-type"

# CareVault appointment status <-> FHIR Appointment.status.
APPOINTMENT_STATUS = {
    "scheduled": "booked",
    "attended": "fulfilled",
    "cancelled": "cancelled",
    "no-show": "noshow",
}
APPOINTMENT_STATUS_FROM_FHIR = {fhir: ours for ours, fhir in APPOINTMENT_STATUS.items()}
SOAP_SECTIONS = (
    ("subjective", "Subjective"),
    ("objective", "Objective"),
    ("assessment", "Assessment"),
    ("plan", "Plan"),
)
SIGNATURE_SUFFIX = "-signature"
COSIGNATURE_SUFFIX = "-cosignature"


class MappingError(ValueError):
    """A FHIR body that cannot become a CareVault record; `field` is the FHIRPath at fault
    (never a value: a value may be PHI)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# --- shared pieces ----------------------------------------------------------------------------


def instant(value: datetime) -> str:
    """A FHIR instant (UTC, with its offset)."""
    return value.isoformat().replace("+00:00", "Z")


def version_from_time(updated_at: datetime) -> str:
    """The version of a record with no REST ETag (the practice): its last change in
    microseconds since the epoch."""
    return str(int(updated_at.timestamp() * 1_000_000))


def record_version(record_id: uuid.UUID, updated_at: datetime) -> str:
    """A client's or appointment's version: the REST `ETag`'s value (carevault.core.versions),
    so `W/"<versionId>"` and the REST `ETag` name one version and either guards a change."""
    return version_tag(record_id, updated_at)


def weak_etag(version_id: str) -> str:
    return f'W/"{version_id}"'


def reference(
    resource_type: str, record_id: uuid.UUID | str, display: str | None = None
) -> dict[str, Any]:
    ref: dict[str, Any] = {"reference": f"{resource_type}/{record_id}"}
    if display:
        ref["display"] = display
    return ref


def _meta(version_id: str, last_updated: datetime, *, subsetted: bool = False) -> dict[str, Any]:
    meta: dict[str, Any] = {"versionId": version_id, "lastUpdated": instant(last_updated)}
    if subsetted:
        meta["tag"] = [SUBSETTED]
    return meta


def _string_extension(url: str, value: str | None) -> list[dict[str, Any]]:
    return [{"url": url, "valueString": value}] if value else []


def identifiers(
    system: str | None, record_id: uuid.UUID, external_id: str | None = None
) -> list[dict[str, Any]]:
    """The record's CareVault id as an identifier (when `system` names one), and its
    integrator's `external_id` when it has one (system EXTERNAL_ID_SYSTEM)."""
    found = (
        [] if system is None else [{"use": "official", "system": system, "value": str(record_id)}]
    )
    if external_id:
        found.append({"use": "secondary", "system": EXTERNAL_ID_SYSTEM, "value": external_id})
    return found


def external_id_of(resource: Mapping[str, Any], resource_type: str) -> str | None:
    """The integrator's id a body carries: its `identifier` of system EXTERNAL_ID_SYSTEM
    (at most one). Others (CareVault's own id, other systems) are not stored."""
    found = resource.get("identifier") or []
    where = f"{resource_type}.identifier"
    if not isinstance(found, list) or not all(isinstance(item, dict) for item in found):
        raise MappingError(where, "a list of identifiers")
    ours = [item.get("value") for item in found if item.get("system") == EXTERNAL_ID_SYSTEM]
    if len(ours) > 1:
        raise MappingError(where, f"at most one identifier of system {EXTERNAL_ID_SYSTEM}")
    if ours and not isinstance(ours[0], str):
        raise MappingError(where, "an identifier's value is a string")
    return ours[0] if ours else None


# --- Patient (a client) ----------------------------------------------------------------------


def patient(client: Any, *, external_id: str | None = None) -> dict[str, Any]:
    """A client's whole chart (what `GET /clients/{id}` answers) as a Patient; its
    `external_id` (the record's own unless given) is an identifier."""
    external_id = external_id or getattr(client, "external_id", None)
    telecom = []
    if client.email:
        telecom.append({"system": "email", "value": client.email, "use": "home"})
    if client.phone:
        telecom.append({"system": "phone", "value": client.phone, "use": "mobile"})
    resource: dict[str, Any] = {
        "resourceType": "Patient",
        "id": str(client.id),
        "meta": _meta(record_version(client.id, client.updated_at), client.updated_at),
        "identifier": identifiers(CLIENT_ID_SYSTEM, client.id, external_id),
        "active": client.archived_at is None,
        "name": [_human_name(client.first_name, client.last_name)],
    }
    extension = _string_extension(EXT_MEDICAL_HISTORY, client.medical_history)
    extension += _string_extension(EXT_CLIENT_NOTES, client.notes)
    if extension:
        resource["extension"] = extension
    if telecom:
        resource["telecom"] = telecom
    if client.date_of_birth:
        resource["birthDate"] = client.date_of_birth.isoformat()
    if client.address:
        resource["address"] = [{"text": client.address}]
    if client.emergency_contact_name or client.emergency_contact_phone:
        contact: dict[str, Any] = {"relationship": [{"coding": [EMERGENCY_CONTACT]}]}
        if client.emergency_contact_name:
            contact["name"] = {"text": client.emergency_contact_name}
        if client.emergency_contact_phone:
            contact["telecom"] = [{"system": "phone", "value": client.emergency_contact_phone}]
        resource["contact"] = [contact]
    return resource


def patient_summary(summary: Any) -> dict[str, Any]:
    """A client as lists show them (names, birth date, active): the minimum necessary, tagged
    SUBSETTED; the whole chart is a read of the Patient."""
    resource: dict[str, Any] = {
        "resourceType": "Patient",
        "id": str(summary.id),
        "meta": _meta(
            record_version(summary.id, summary.updated_at), summary.updated_at, subsetted=True
        ),
        "identifier": identifiers(CLIENT_ID_SYSTEM, summary.id),
        "active": summary.archived_at is None,
        "name": [_human_name(summary.first_name, summary.last_name)],
    }
    if summary.date_of_birth:
        resource["birthDate"] = summary.date_of_birth.isoformat()
    return resource


def _human_name(first: str, last: str) -> dict[str, Any]:
    return {"use": "official", "text": f"{first} {last}", "family": last, "given": [first]}


def client_fields(resource: Mapping[str, Any]) -> dict[str, Any]:
    """A Patient body as the fields of `ClientCreate` (every field, absent ones as None: a
    FHIR update replaces the whole resource)."""
    _expect_type(resource, "Patient")
    names = resource.get("name") or []
    if not isinstance(names, list) or not names or not isinstance(names[0], dict):
        raise MappingError("Patient.name", "one name with family and given is required")
    name = names[0]
    given = name.get("given") or []
    if not isinstance(given, list) or not all(isinstance(part, str) for part in given):
        raise MappingError("Patient.name[0].given", "a list of strings")
    family = name.get("family")
    if not isinstance(family, str) or not family.strip() or not given:
        raise MappingError("Patient.name[0]", "family and given are required")
    fields: dict[str, Any] = {
        "first_name": " ".join(given),
        "last_name": family,
        "email": _telecom(resource.get("telecom"), "email", "Patient.telecom"),
        "phone": _telecom(resource.get("telecom"), "phone", "Patient.telecom"),
        "date_of_birth": resource.get("birthDate"),
        "address": _address_text(resource.get("address")),
        "emergency_contact_name": None,
        "emergency_contact_phone": None,
        "medical_history": _extension_string(resource, EXT_MEDICAL_HISTORY),
        "notes": _extension_string(resource, EXT_CLIENT_NOTES),
        "external_id": external_id_of(resource, "Patient"),
    }
    contacts = resource.get("contact") or []
    if not isinstance(contacts, list):
        raise MappingError("Patient.contact", "a list")
    if contacts:
        contact = contacts[0]
        if not isinstance(contact, dict):
            raise MappingError("Patient.contact[0]", "an object")
        contact_name = contact.get("name") or {}
        if isinstance(contact_name, dict):
            text = (
                contact_name.get("text")
                or " ".join(
                    [*(contact_name.get("given") or []), contact_name.get("family") or ""]
                ).strip()
            )
            fields["emergency_contact_name"] = text or None
        fields["emergency_contact_phone"] = _telecom(
            contact.get("telecom"), "phone", "Patient.contact[0].telecom"
        )
    return fields


def _expect_type(resource: Mapping[str, Any], resource_type: str) -> None:
    if not isinstance(resource, Mapping) or resource.get("resourceType") != resource_type:
        raise MappingError("resourceType", f"expected {resource_type}")


def _telecom(telecom: Any, system: str, where: str) -> str | None:
    if telecom is None:
        return None
    if not isinstance(telecom, list) or not all(isinstance(item, dict) for item in telecom):
        raise MappingError(where, "a list of ContactPoint")
    values = [item.get("value") for item in telecom if item.get("system") == system]
    if len(values) > 1:
        raise MappingError(where, f"at most one {system}")
    value = values[0] if values else None
    if value is not None and not isinstance(value, str):
        raise MappingError(where, "value must be a string")
    return value


def _address_text(addresses: Any) -> str | None:
    if not addresses:
        return None
    if not isinstance(addresses, list) or not isinstance(addresses[0], dict):
        raise MappingError("Patient.address", "a list of Address")
    address = addresses[0]
    if address.get("text"):
        return str(address["text"])
    parts = [*(address.get("line") or []), address.get("city"), address.get("postalCode")]
    joined = ", ".join(str(part) for part in parts if part)
    return joined or None


def _extension_string(resource: Mapping[str, Any], url: str) -> str | None:
    for extension in resource.get("extension") or []:
        if isinstance(extension, dict) and extension.get("url") == url:
            value = extension.get("valueString")
            if value is not None and not isinstance(value, str):
                raise MappingError(f"extension({url})", "valueString must be a string")
            return value
    return None


# --- Practitioner, PractitionerRole, Organization ---------------------------------------------


def practitioner(user: Any) -> dict[str, Any]:
    """A user of the practice (names and role only: staff, not PHI)."""
    name = user.display_name or user.email
    return {
        "resourceType": "Practitioner",
        "id": str(user.id),
        "identifier": identifiers(USER_ID_SYSTEM, user.id),
        "active": user.disabled_at is None,
        "name": [{"text": name}],
    }


def practitioner_role(user: Any) -> dict[str, Any]:
    """The user's role in the practice (owner or clinician)."""
    return {
        "resourceType": "PractitionerRole",
        "id": str(user.id),
        "active": user.disabled_at is None,
        "practitioner": reference("Practitioner", user.id, user.display_name or None),
        "organization": reference("Organization", user.workspace_id),
        "code": [{"coding": [{"system": ROLE_SYSTEM, "code": str(user.role)}]}],
    }


def organization(workspace: Any) -> dict[str, Any]:
    """The practice."""
    return {
        "resourceType": "Organization",
        "id": str(workspace.id),
        "meta": _meta(version_from_time(workspace.updated_at), workspace.updated_at),
        "active": workspace.shredded_at is None,
        "name": workspace.name,
    }


# --- Appointment -------------------------------------------------------------------------------


def appointment(view: Any) -> dict[str, Any]:
    """An appointment as the REST API answers it (`AppointmentView`): the client's name is
    on the participant only when the caller may read clients."""
    booked = view.appointment
    client_display = " ".join(view.client_names) if view.client_names else None
    resource: dict[str, Any] = {
        "resourceType": "Appointment",
        "id": str(booked.id),
        "meta": _meta(record_version(booked.id, booked.updated_at), booked.updated_at),
        "status": APPOINTMENT_STATUS[booked.status],
        "start": instant(booked.starts_at),
        "end": instant(booked.ends_at),
        "minutesDuration": max(1, int((booked.ends_at - booked.starts_at).total_seconds() // 60)),
        "participant": [
            {
                "actor": reference("Patient", booked.client_id, client_display),
                "required": "required",
                "status": "accepted",
            },
            {
                "actor": reference("Practitioner", booked.clinician_id, view.clinician_name),
                "required": "required",
                "status": "accepted",
            },
        ],
    }
    external = identifiers(None, booked.id, getattr(booked, "external_id", None))
    if external:
        resource["identifier"] = external
    extension = _string_extension(EXT_LOCATION, booked.location)
    extension += _string_extension(EXT_ROOM, booked.room)
    if extension:
        resource["extension"] = extension
    if booked.notes:
        resource["comment"] = booked.notes
    return resource


def appointment_fields(resource: Mapping[str, Any]) -> dict[str, Any]:
    """An Appointment body as the fields of `AppointmentCreate` (without `allow_overlap`)."""
    _expect_type(resource, "Appointment")
    status = resource.get("status")
    if status not in APPOINTMENT_STATUS_FROM_FHIR:
        allowed = ", ".join(APPOINTMENT_STATUS_FROM_FHIR)
        raise MappingError("Appointment.status", f"one of {allowed}")
    client_id: uuid.UUID | None = None
    clinician_id: uuid.UUID | None = None
    participants = resource.get("participant") or []
    if not isinstance(participants, list):
        raise MappingError("Appointment.participant", "a list")
    for index, participant in enumerate(participants):
        actor = participant.get("actor") if isinstance(participant, dict) else None
        ref = actor.get("reference") if isinstance(actor, dict) else None
        where = f"Appointment.participant[{index}].actor.reference"
        if not isinstance(ref, str):
            raise MappingError(where, "a reference to a Patient or a Practitioner")
        kind, record_id = parse_reference(ref, where)
        if kind == "Patient" and client_id is None:
            client_id = record_id
        elif kind == "Practitioner" and clinician_id is None:
            clinician_id = record_id
        else:
            raise MappingError(where, "one Patient and at most one Practitioner")
    if client_id is None:
        raise MappingError("Appointment.participant", "a Patient participant is required")
    for name in ("start", "end"):
        if not isinstance(resource.get(name), str):
            raise MappingError(f"Appointment.{name}", "required (an instant)")
    return {
        "client_id": client_id,
        "clinician_id": clinician_id,
        "starts_at": resource["start"],
        "ends_at": resource["end"],
        "status": APPOINTMENT_STATUS_FROM_FHIR[status],
        "location": _extension_string(resource, EXT_LOCATION),
        "room": _extension_string(resource, EXT_ROOM),
        "notes": resource.get("comment"),
        "external_id": external_id_of(resource, "Appointment"),
    }


def parse_reference(ref: str, where: str) -> tuple[str, uuid.UUID]:
    """`Type/id` (relative, or the tail of an absolute URL) as (type, uuid)."""
    parts = ref.rstrip("/").split("/")
    if len(parts) < 2:
        raise MappingError(where, "a reference Type/id")
    try:
        return parts[-2], uuid.UUID(parts[-1])
    except ValueError:
        raise MappingError(where, "an id of this server") from None


# --- Encounter, DocumentReference, Provenance (a therapy-session note) ------------------------


def encounter(note: Any) -> dict[str, Any]:
    """The session a note records (drafts included): who, with whom, when, how long."""
    resource: dict[str, Any] = {
        "resourceType": "Encounter",
        "id": str(note.id),
        "meta": _meta(str(note.version), note.updated_at),
        "status": "finished" if note.status == "finalized" else "in-progress",
        "class": AMBULATORY,
        "subject": reference("Patient", note.client_id),
        "participant": [{"individual": reference("Practitioner", note.author_id)}],
        # A note knows the session's date, not its time of day.
        "period": {"start": note.session_date.isoformat()},
        "length": {
            "value": note.duration_minutes,
            "unit": "min",
            "system": "http://unitsofmeasure.org",
            "code": "min",
        },
    }
    if note.appointment_id:
        resource["appointment"] = [reference("Appointment", note.appointment_id)]
    return resource


def soap_text(content: Any) -> str:
    """The four SOAP sections as one plain text, each under its heading."""
    sections = []
    for name, heading in SOAP_SECTIONS:
        value = (
            getattr(content, name, None) if not isinstance(content, Mapping) else content.get(name)
        )
        sections.append(f"{heading}:\n{value or ''}")
    return "\n\n".join(sections) + "\n"


def document_reference(note: Any, addenda: Sequence[Any] = ()) -> dict[str, Any]:
    """A signed note, as it is now: its SOAP text as a base64 plain-text attachment; each
    amendment after signing as a `relatesTo` `appends` naming the version it replaced, with
    who, when and why in an extension."""
    return _document(note, note, str(note.version), note.updated_at, addenda)


def document_reference_version(note: Any, version: Any) -> dict[str, Any]:
    """A signed note as it was at `version.version` (the content an amendment replaced)."""
    return _document(note, version, str(version.version), version.amended_at, ())


def _document(
    note: Any, content: Any, version_id: str, last_updated: datetime, addenda: Sequence[Any]
) -> dict[str, Any]:
    text = soap_text(content)
    resource: dict[str, Any] = {
        "resourceType": "DocumentReference",
        "id": str(note.id),
        "meta": _meta(version_id, last_updated),
        "status": "current",
        "docStatus": "amended" if addenda else "final",
        "type": {"coding": [PROGRESS_NOTE], "text": "Progress note"},
        "category": [{"coding": [CLINICAL_NOTE], "text": "Clinical Note"}],
        "subject": reference("Patient", note.client_id),
        "author": [reference("Practitioner", note.author_id)],
        "content": [
            {
                "attachment": {
                    "contentType": "text/plain; charset=utf-8",
                    "language": "en",
                    "data": base64.b64encode(text.encode()).decode("ascii"),
                    "title": "SOAP note",
                    "creation": instant(note.finalized_at or note.created_at),
                }
            }
        ],
        "context": {
            "encounter": [reference("Encounter", note.id)],
            "period": {"start": note.session_date.isoformat()},
        },
    }
    if note.finalized_at:
        resource["date"] = instant(note.finalized_at)
    if note.signed_by:
        resource["authenticator"] = reference("Practitioner", note.signed_by)
    if note.late_entry:
        resource["extension"] = [{"url": EXT_LATE_ENTRY, "valueBoolean": True}]
    relates = []
    for addendum in addenda:
        extension: list[dict[str, Any]] = [
            {"url": "version", "valueInteger": addendum.version},
            {"url": "amendedAt", "valueDateTime": instant(addendum.amended_at)},
        ]
        if addendum.amended_by:
            extension.append(
                {
                    "url": "amendedBy",
                    "valueReference": reference("Practitioner", addendum.amended_by),
                }
            )
        if addendum.reason:
            extension.append({"url": "reason", "valueString": addendum.reason})
        relates.append(
            {
                "extension": [{"url": EXT_AMENDMENT, "extension": extension}],
                "code": "appends",
                "target": {
                    "reference": f"DocumentReference/{note.id}/_history/{addendum.version - 1}"
                },
            }
        )
    if relates:
        resource["relatesTo"] = relates
    return resource


def provenance_ids(note: Any) -> list[str]:
    """The Provenance ids a signed note has: its signature, and its co-signature if given."""
    found = []
    if note.finalized_at and note.signed_by:
        found.append(f"{note.id}{SIGNATURE_SUFFIX}")
    if note.cosigned_at and note.cosigned_by:
        found.append(f"{note.id}{COSIGNATURE_SUFFIX}")
    return found


def split_provenance_id(provenance_id: str) -> tuple[uuid.UUID, str] | None:
    """(note id, "signature" | "cosignature") of a Provenance id; None when it is not one."""
    for suffix in (COSIGNATURE_SUFFIX, SIGNATURE_SUFFIX):
        if provenance_id.endswith(suffix):
            try:
                return uuid.UUID(provenance_id[: -len(suffix)]), suffix.lstrip("-")
            except ValueError:
                return None
    return None


def provenances(note: Any) -> list[dict[str, Any]]:
    """A note's signature (the author's, or whoever signed) and co-signature as Provenance:
    who attested, when, and which attestation statement."""
    found = []
    if note.finalized_at and note.signed_by:
        found.append(
            _provenance(
                note,
                SIGNATURE_SUFFIX,
                note.finalized_at,
                note.signed_by,
                "author",
                AUTHOR_SIGNATURE,
                note.attestation_version,
            )
        )
    if note.cosigned_at and note.cosigned_by:
        found.append(
            _provenance(
                note,
                COSIGNATURE_SUFFIX,
                note.cosigned_at,
                note.cosigned_by,
                "verifier",
                VERIFICATION_SIGNATURE,
                note.cosign_attestation_version,
            )
        )
    return found


def _provenance(
    note: Any,
    suffix: str,
    when: datetime,
    who: uuid.UUID,
    role: str,
    signature_type: dict[str, str],
    attestation_version: int | None,
) -> dict[str, Any]:
    signer = reference("Practitioner", who)
    resource: dict[str, Any] = {
        "resourceType": "Provenance",
        "id": f"{note.id}{suffix}",
        "target": [reference("DocumentReference", note.id)],
        "recorded": instant(when),
        "agent": [
            {"type": {"coding": [{"system": PARTICIPANT_TYPE, "code": role}]}, "who": signer}
        ],
        "signature": [{"type": [signature_type], "when": instant(when), "who": signer}],
    }
    if attestation_version is not None:
        resource["policy"] = [f"{SYSTEM_BASE}/attestation/{attestation_version}"]
    return resource


# --- AuditEvent -------------------------------------------------------------------------------

# What an audit action's last word says it did, as AuditEvent.action (C R U D E).
_ACTION_CODES = {
    "create": "C", "read": "R", "list": "R", "names": "R", "versions_read": "R",
    "update": "U", "restore": "U", "finalize": "U", "cosign": "U", "archive": "D",
    "delete": "D",
}  # fmt: skip
_AUDIT_RESOURCE_TYPES = {
    "client": "Patient",
    "appointment": "Appointment",
    "session": "DocumentReference",
    "user": "Practitioner",
}


def audit_event(event: Any, workspace_id: uuid.UUID) -> dict[str, Any]:
    """An event of the audit trail (ids and staff names, never PHI: the trail holds none)."""
    verb = event.action.rsplit(".", 1)[-1]
    agent: dict[str, Any] = {"requestor": True}
    if event.actor_user_id:
        agent["who"] = reference("Practitioner", event.actor_user_id, event.actor_name)
    elif event.token_name:
        agent["who"] = {"display": event.token_name}
    if event.ip_address:
        agent["network"] = {"address": str(event.ip_address), "type": "2"}
    resource: dict[str, Any] = {
        "resourceType": "AuditEvent",
        "id": str(event.id),
        "type": {
            "system": "http://terminology.hl7.org/CodeSystem/audit-event-type",
            "code": "rest",
            "display": "RESTful Operation",
        },
        "subtype": [{"system": AUDIT_ACTION_SYSTEM, "code": event.action}],
        "action": _ACTION_CODES.get(verb, "E"),
        "recorded": instant(event.occurred_at),
        "outcome": "0",
        "agent": [agent],
        "source": {"observer": reference("Organization", workspace_id)},
    }
    fhir_type = _AUDIT_RESOURCE_TYPES.get(event.resource_type or "")
    entities = [
        {"what": reference(fhir_type, record_id)}
        if fhir_type
        else {
            "what": {
                "identifier": {
                    "system": f"{SYSTEM_BASE}/{event.resource_type}",
                    "value": str(record_id),
                }
            }
        }
        for record_id in event.resource_ids or ()
    ]
    if entities:
        resource["entity"] = entities
    return resource


# --- Bundles, OperationOutcome -----------------------------------------------------------------


def searchset(
    entries: Iterable[dict[str, Any]],
    base_url: str,
    *,
    self_url: str,
    next_url: str | None = None,
    total: int | None = None,
    included: Iterable[dict[str, Any]] = (),
) -> dict[str, Any]:
    """A searchset Bundle: `entries` match, `included` are there because they were asked for."""
    links = [{"relation": "self", "url": self_url}]
    if next_url:
        links.append({"relation": "next", "url": next_url})
    bundle: dict[str, Any] = {
        "resourceType": "Bundle",
        "id": str(uuid.uuid4()),
        "type": "searchset",
        "link": links,
        "entry": [
            *(_entry(base_url, resource, "match") for resource in entries),
            *(_entry(base_url, resource, "include") for resource in included),
        ],
    }
    if total is not None:
        bundle["total"] = total
    if not bundle["entry"]:
        del bundle["entry"]
    return bundle


def _entry(base_url: str, resource: dict[str, Any], mode: str) -> dict[str, Any]:
    return {
        "fullUrl": f"{base_url}/{resource['resourceType']}/{resource['id']}",
        "resource": resource,
        "search": {"mode": mode},
    }


def history(
    versions: Sequence[dict[str, Any]], base_url: str, *, self_url: str, total: int | None = None
) -> dict[str, Any]:
    """A history Bundle, newest version first; the oldest entry is the create."""
    entries = []
    for position, resource in enumerate(versions):
        created = position == len(versions) - 1
        url = f"{resource['resourceType']}/{resource['id']}"
        version_id = resource.get("meta", {}).get("versionId")
        entry: dict[str, Any] = {
            "fullUrl": f"{base_url}/{url}",
            "resource": resource,
            "request": {
                "method": "POST" if created else "PUT",
                "url": resource["resourceType"] if created else url,
            },
            "response": {"status": "201 Created" if created else "200 OK"},
        }
        if version_id:
            entry["response"]["etag"] = weak_etag(version_id)
        entries.append(entry)
    bundle: dict[str, Any] = {
        "resourceType": "Bundle",
        "id": str(uuid.uuid4()),
        "type": "history",
        "total": total if total is not None else len(versions),
        "link": [{"relation": "self", "url": self_url}],
    }
    if entries:
        bundle["entry"] = entries
    return bundle


# HTTP status -> OperationOutcome.issue.code (FHIR's IssueType).
_ISSUE_TYPES = {
    400: "invalid",
    401: "login",
    403: "forbidden",
    404: "not-found",
    405: "not-supported",
    409: "conflict",
    410: "deleted",
    412: "conflict",
    413: "too-costly",
    415: "not-supported",
    422: "processing",
    429: "throttled",
    500: "exception",
    503: "transient",
}


def operation_outcome(
    status: int,
    code: str,
    message: str,
    *,
    issue_type: str | None = None,
    expression: Sequence[str] = (),
) -> dict[str, Any]:
    """An error as OperationOutcome: `details.coding` carries the REST API's error code (the
    same one `/api/v1` answers), `details.text` its message (never PHI)."""
    issue: dict[str, Any] = {
        "severity": "error" if status < 500 else "fatal",
        "code": issue_type or _ISSUE_TYPES.get(status, "processing"),
        "details": {"coding": [{"system": ERROR_CODE_SYSTEM, "code": code}], "text": message},
    }
    if expression:
        issue["expression"] = list(expression)
    return {"resourceType": "OperationOutcome", "issue": [issue]}


__all__ = [
    "FHIR_VERSION",
    "MEDIA_TYPE",
    "MappingError",
    "appointment",
    "appointment_fields",
    "audit_event",
    "client_fields",
    "document_reference",
    "document_reference_version",
    "encounter",
    "external_id_of",
    "history",
    "operation_outcome",
    "organization",
    "patient",
    "patient_summary",
    "practitioner",
    "practitioner_role",
    "provenance_ids",
    "provenances",
    "record_version",
    "searchset",
    "soap_text",
    "version_from_time",
    "weak_etag",
]
