from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.session_note_read_cosign_status_type_0 import SessionNoteReadCosignStatusType0
from ..models.session_note_read_status import SessionNoteReadStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.addendum_read import AddendumRead
    from ..models.session_note_read_metadata import SessionNoteReadMetadata


T = TypeVar("T", bound="SessionNoteRead")


@_attrs_define
class SessionNoteRead:
    """
    Attributes:
        appointment_id (None | UUID):
        attestation_version (int | None): The signature statement's version
        author_id (UUID): The user who wrote the note
        client_id (UUID):
        cosign_attestation_version (int | None):
        cosign_status (None | SessionNoteReadCosignStatusType0): Null when the author needs no co-signature; `awaiting`
            until an owner or the author's supervisor co-signs (POST /sessions/{id}/cosign)
        cosigned_at (datetime.datetime | None):
        cosigned_by (None | UUID):
        created_at (datetime.datetime):
        deleted_at (datetime.datetime | None):
        duration_minutes (int):
        finalized_at (datetime.datetime | None): When it was signed (as `signed_at`)
        id (UUID):
        late_entry (bool): Signed more than the practice's `late_entry_hours` after the session ended
        session_date (datetime.date):
        signed_at (datetime.datetime | None): When the author signed it
        signed_by (None | UUID): Who signed it; null for notes finalized before signatures were recorded
        status (SessionNoteReadStatus): `finalized`: signed by its author and locked (amend with a reason)
        updated_at (datetime.datetime):
        version (int): Send it back with the next change
        addenda (list[AddendumRead] | Unset): The amendments made after signing, oldest first
        assessment (None | str | Unset): The clinician's assessment
        attestation (None | str | Unset): The statement the signer attested
        external_id (None | str | Unset): Your own id of the note
        metadata (SessionNoteReadMetadata | Unset): Your own strings
        objective (None | str | Unset): What the clinician observes
        plan (None | str | Unset): Next steps
        psychotherapy_note (bool | Unset): A psychotherapy note (45 CFR 164.501), kept apart from the record: a client's
            export (`GET /clients/{id}/export`, the right of access) leaves it out and says how many were left out Default:
            False.
        subjective (None | str | Unset): What the client reports
    """

    appointment_id: None | UUID
    attestation_version: int | None
    author_id: UUID
    client_id: UUID
    cosign_attestation_version: int | None
    cosign_status: None | SessionNoteReadCosignStatusType0
    cosigned_at: datetime.datetime | None
    cosigned_by: None | UUID
    created_at: datetime.datetime
    deleted_at: datetime.datetime | None
    duration_minutes: int
    finalized_at: datetime.datetime | None
    id: UUID
    late_entry: bool
    session_date: datetime.date
    signed_at: datetime.datetime | None
    signed_by: None | UUID
    status: SessionNoteReadStatus
    updated_at: datetime.datetime
    version: int
    addenda: list[AddendumRead] | Unset = UNSET
    assessment: None | str | Unset = UNSET
    attestation: None | str | Unset = UNSET
    external_id: None | str | Unset = UNSET
    metadata: SessionNoteReadMetadata | Unset = UNSET
    objective: None | str | Unset = UNSET
    plan: None | str | Unset = UNSET
    psychotherapy_note: bool | Unset = False
    subjective: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        appointment_id: None | str
        if isinstance(self.appointment_id, UUID):
            appointment_id = str(self.appointment_id)
        else:
            appointment_id = self.appointment_id

        attestation_version: int | None
        attestation_version = self.attestation_version

        author_id = str(self.author_id)

        client_id = str(self.client_id)

        cosign_attestation_version: int | None
        cosign_attestation_version = self.cosign_attestation_version

        cosign_status: None | str
        if isinstance(self.cosign_status, SessionNoteReadCosignStatusType0):
            cosign_status = self.cosign_status.value
        else:
            cosign_status = self.cosign_status

        cosigned_at: None | str
        if isinstance(self.cosigned_at, datetime.datetime):
            cosigned_at = self.cosigned_at.isoformat()
        else:
            cosigned_at = self.cosigned_at

        cosigned_by: None | str
        if isinstance(self.cosigned_by, UUID):
            cosigned_by = str(self.cosigned_by)
        else:
            cosigned_by = self.cosigned_by

        created_at = self.created_at.isoformat()

        deleted_at: None | str
        if isinstance(self.deleted_at, datetime.datetime):
            deleted_at = self.deleted_at.isoformat()
        else:
            deleted_at = self.deleted_at

        duration_minutes = self.duration_minutes

        finalized_at: None | str
        if isinstance(self.finalized_at, datetime.datetime):
            finalized_at = self.finalized_at.isoformat()
        else:
            finalized_at = self.finalized_at

        id = str(self.id)

        late_entry = self.late_entry

        session_date = self.session_date.isoformat()

        signed_at: None | str
        if isinstance(self.signed_at, datetime.datetime):
            signed_at = self.signed_at.isoformat()
        else:
            signed_at = self.signed_at

        signed_by: None | str
        if isinstance(self.signed_by, UUID):
            signed_by = str(self.signed_by)
        else:
            signed_by = self.signed_by

        status = self.status.value

        updated_at = self.updated_at.isoformat()

        version = self.version

        addenda: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.addenda, Unset):
            addenda = []
            for addenda_item_data in self.addenda:
                addenda_item = addenda_item_data.to_dict()
                addenda.append(addenda_item)

        assessment: None | str | Unset
        if isinstance(self.assessment, Unset):
            assessment = UNSET
        else:
            assessment = self.assessment

        attestation: None | str | Unset
        if isinstance(self.attestation, Unset):
            attestation = UNSET
        else:
            attestation = self.attestation

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        objective: None | str | Unset
        if isinstance(self.objective, Unset):
            objective = UNSET
        else:
            objective = self.objective

        plan: None | str | Unset
        if isinstance(self.plan, Unset):
            plan = UNSET
        else:
            plan = self.plan

        psychotherapy_note = self.psychotherapy_note

        subjective: None | str | Unset
        if isinstance(self.subjective, Unset):
            subjective = UNSET
        else:
            subjective = self.subjective

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "appointment_id": appointment_id,
                "attestation_version": attestation_version,
                "author_id": author_id,
                "client_id": client_id,
                "cosign_attestation_version": cosign_attestation_version,
                "cosign_status": cosign_status,
                "cosigned_at": cosigned_at,
                "cosigned_by": cosigned_by,
                "created_at": created_at,
                "deleted_at": deleted_at,
                "duration_minutes": duration_minutes,
                "finalized_at": finalized_at,
                "id": id,
                "late_entry": late_entry,
                "session_date": session_date,
                "signed_at": signed_at,
                "signed_by": signed_by,
                "status": status,
                "updated_at": updated_at,
                "version": version,
            }
        )
        if addenda is not UNSET:
            field_dict["addenda"] = addenda
        if assessment is not UNSET:
            field_dict["assessment"] = assessment
        if attestation is not UNSET:
            field_dict["attestation"] = attestation
        if external_id is not UNSET:
            field_dict["external_id"] = external_id
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if objective is not UNSET:
            field_dict["objective"] = objective
        if plan is not UNSET:
            field_dict["plan"] = plan
        if psychotherapy_note is not UNSET:
            field_dict["psychotherapy_note"] = psychotherapy_note
        if subjective is not UNSET:
            field_dict["subjective"] = subjective

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.addendum_read import AddendumRead  # noqa: PLC0415
        from ..models.session_note_read_metadata import SessionNoteReadMetadata  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_appointment_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                appointment_id_type_0 = UUID(data)

                return appointment_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        appointment_id = _parse_appointment_id(d.pop("appointment_id"))

        def _parse_attestation_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        attestation_version = _parse_attestation_version(d.pop("attestation_version"))

        author_id = UUID(d.pop("author_id"))

        client_id = UUID(d.pop("client_id"))

        def _parse_cosign_attestation_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        cosign_attestation_version = _parse_cosign_attestation_version(d.pop("cosign_attestation_version"))

        def _parse_cosign_status(data: object) -> None | SessionNoteReadCosignStatusType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cosign_status_type_0 = SessionNoteReadCosignStatusType0(data)

                return cosign_status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionNoteReadCosignStatusType0, data)

        cosign_status = _parse_cosign_status(d.pop("cosign_status"))

        def _parse_cosigned_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cosigned_at_type_0 = datetime.datetime.fromisoformat(data)

                return cosigned_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        cosigned_at = _parse_cosigned_at(d.pop("cosigned_at"))

        def _parse_cosigned_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cosigned_by_type_0 = UUID(data)

                return cosigned_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        cosigned_by = _parse_cosigned_by(d.pop("cosigned_by"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_deleted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deleted_at_type_0 = datetime.datetime.fromisoformat(data)

                return deleted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deleted_at = _parse_deleted_at(d.pop("deleted_at"))

        duration_minutes = d.pop("duration_minutes")

        def _parse_finalized_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finalized_at_type_0 = datetime.datetime.fromisoformat(data)

                return finalized_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finalized_at = _parse_finalized_at(d.pop("finalized_at"))

        id = UUID(d.pop("id"))

        late_entry = d.pop("late_entry")

        session_date = datetime.date.fromisoformat(d.pop("session_date"))

        def _parse_signed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                signed_at_type_0 = datetime.datetime.fromisoformat(data)

                return signed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        signed_at = _parse_signed_at(d.pop("signed_at"))

        def _parse_signed_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                signed_by_type_0 = UUID(data)

                return signed_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        signed_by = _parse_signed_by(d.pop("signed_by"))

        status = SessionNoteReadStatus(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        version = d.pop("version")

        _addenda = d.pop("addenda", UNSET)
        addenda: list[AddendumRead] | Unset = UNSET
        if _addenda is not UNSET:
            addenda = []
            for addenda_item_data in _addenda:
                addenda_item = AddendumRead.from_dict(addenda_item_data)

                addenda.append(addenda_item)

        def _parse_assessment(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assessment = _parse_assessment(d.pop("assessment", UNSET))

        def _parse_attestation(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        attestation = _parse_attestation(d.pop("attestation", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("external_id", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: SessionNoteReadMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = SessionNoteReadMetadata.from_dict(_metadata)

        def _parse_objective(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        objective = _parse_objective(d.pop("objective", UNSET))

        def _parse_plan(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        plan = _parse_plan(d.pop("plan", UNSET))

        psychotherapy_note = d.pop("psychotherapy_note", UNSET)

        def _parse_subjective(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subjective = _parse_subjective(d.pop("subjective", UNSET))

        session_note_read = cls(
            appointment_id=appointment_id,
            attestation_version=attestation_version,
            author_id=author_id,
            client_id=client_id,
            cosign_attestation_version=cosign_attestation_version,
            cosign_status=cosign_status,
            cosigned_at=cosigned_at,
            cosigned_by=cosigned_by,
            created_at=created_at,
            deleted_at=deleted_at,
            duration_minutes=duration_minutes,
            finalized_at=finalized_at,
            id=id,
            late_entry=late_entry,
            session_date=session_date,
            signed_at=signed_at,
            signed_by=signed_by,
            status=status,
            updated_at=updated_at,
            version=version,
            addenda=addenda,
            assessment=assessment,
            attestation=attestation,
            external_id=external_id,
            metadata=metadata,
            objective=objective,
            plan=plan,
            psychotherapy_note=psychotherapy_note,
            subjective=subjective,
        )

        session_note_read.additional_properties = d
        return session_note_read

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
