from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.audit_event_read_actor_kind import AuditEventReadActorKind

if TYPE_CHECKING:
    from ..models.audit_event_read_details_type_0 import AuditEventReadDetailsType0


T = TypeVar("T", bound="AuditEventRead")


@_attrs_define
class AuditEventRead:
    """
    Attributes:
        action (str):
        actor_kind (AuditEventReadActorKind): session: a person signed in; token: a person's own API token;
            service_account: a service account's token (actor_name is then the account's name); system: no actor (a
            background job, a refused sign-in)
        actor_name (None | str): The user's display name, or their sign-in address when they have none
        actor_role (None | str): owner or clinician
        actor_token_id (None | UUID):
        actor_user_id (None | UUID):
        details (AuditEventReadDetailsType0 | None):
        id (int):
        ip_address (None | str):
        occurred_at (datetime.datetime):
        resource_ids (list[UUID] | None):
        resource_type (None | str):
        service_account_id (None | UUID): The service account whose token acted, if one did
        token_name (None | str): The API token's name, when one was used
    """

    action: str
    actor_kind: AuditEventReadActorKind
    actor_name: None | str
    actor_role: None | str
    actor_token_id: None | UUID
    actor_user_id: None | UUID
    details: AuditEventReadDetailsType0 | None
    id: int
    ip_address: None | str
    occurred_at: datetime.datetime
    resource_ids: list[UUID] | None
    resource_type: None | str
    service_account_id: None | UUID
    token_name: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_event_read_details_type_0 import AuditEventReadDetailsType0  # noqa: PLC0415

        action = self.action

        actor_kind = self.actor_kind.value

        actor_name: None | str
        actor_name = self.actor_name

        actor_role: None | str
        actor_role = self.actor_role

        actor_token_id: None | str
        if isinstance(self.actor_token_id, UUID):
            actor_token_id = str(self.actor_token_id)
        else:
            actor_token_id = self.actor_token_id

        actor_user_id: None | str
        if isinstance(self.actor_user_id, UUID):
            actor_user_id = str(self.actor_user_id)
        else:
            actor_user_id = self.actor_user_id

        details: dict[str, Any] | None
        if isinstance(self.details, AuditEventReadDetailsType0):
            details = self.details.to_dict()
        else:
            details = self.details

        id = self.id

        ip_address: None | str
        ip_address = self.ip_address

        occurred_at = self.occurred_at.isoformat()

        resource_ids: list[str] | None
        if isinstance(self.resource_ids, list):
            resource_ids = []
            for resource_ids_type_0_item_data in self.resource_ids:
                resource_ids_type_0_item = str(resource_ids_type_0_item_data)
                resource_ids.append(resource_ids_type_0_item)

        else:
            resource_ids = self.resource_ids

        resource_type: None | str
        resource_type = self.resource_type

        service_account_id: None | str
        if isinstance(self.service_account_id, UUID):
            service_account_id = str(self.service_account_id)
        else:
            service_account_id = self.service_account_id

        token_name: None | str
        token_name = self.token_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "actor_kind": actor_kind,
                "actor_name": actor_name,
                "actor_role": actor_role,
                "actor_token_id": actor_token_id,
                "actor_user_id": actor_user_id,
                "details": details,
                "id": id,
                "ip_address": ip_address,
                "occurred_at": occurred_at,
                "resource_ids": resource_ids,
                "resource_type": resource_type,
                "service_account_id": service_account_id,
                "token_name": token_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_event_read_details_type_0 import AuditEventReadDetailsType0  # noqa: PLC0415

        d = dict(src_dict)
        action = d.pop("action")

        actor_kind = AuditEventReadActorKind(d.pop("actor_kind"))

        def _parse_actor_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor_name = _parse_actor_name(d.pop("actor_name"))

        def _parse_actor_role(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor_role = _parse_actor_role(d.pop("actor_role"))

        def _parse_actor_token_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                actor_token_id_type_0 = UUID(data)

                return actor_token_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        actor_token_id = _parse_actor_token_id(d.pop("actor_token_id"))

        def _parse_actor_user_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                actor_user_id_type_0 = UUID(data)

                return actor_user_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        actor_user_id = _parse_actor_user_id(d.pop("actor_user_id"))

        def _parse_details(data: object) -> AuditEventReadDetailsType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = AuditEventReadDetailsType0.from_dict(data)

                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuditEventReadDetailsType0 | None, data)

        details = _parse_details(d.pop("details"))

        id = d.pop("id")

        def _parse_ip_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ip_address = _parse_ip_address(d.pop("ip_address"))

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        def _parse_resource_ids(data: object) -> list[UUID] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                resource_ids_type_0 = []
                _resource_ids_type_0 = data
                for resource_ids_type_0_item_data in _resource_ids_type_0:
                    resource_ids_type_0_item = UUID(resource_ids_type_0_item_data)

                    resource_ids_type_0.append(resource_ids_type_0_item)

                return resource_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UUID] | None, data)

        resource_ids = _parse_resource_ids(d.pop("resource_ids"))

        def _parse_resource_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        resource_type = _parse_resource_type(d.pop("resource_type"))

        def _parse_service_account_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                service_account_id_type_0 = UUID(data)

                return service_account_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        service_account_id = _parse_service_account_id(d.pop("service_account_id"))

        def _parse_token_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        token_name = _parse_token_name(d.pop("token_name"))

        audit_event_read = cls(
            action=action,
            actor_kind=actor_kind,
            actor_name=actor_name,
            actor_role=actor_role,
            actor_token_id=actor_token_id,
            actor_user_id=actor_user_id,
            details=details,
            id=id,
            ip_address=ip_address,
            occurred_at=occurred_at,
            resource_ids=resource_ids,
            resource_type=resource_type,
            service_account_id=service_account_id,
            token_name=token_name,
        )

        audit_event_read.additional_properties = d
        return audit_event_read

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
