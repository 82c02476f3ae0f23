from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.user_read_role import UserReadRole
from ..types import UNSET, Unset

T = TypeVar("T", bound="UserRead")


@_attrs_define
class UserRead:
    """
    Attributes:
        display_name (str):
        email (str):
        id (UUID):
        role (UserReadRole):
        disabled_at (datetime.datetime | None | Unset):
        must_change_password (bool | Unset): Signed in with a temporary password: change it first Default: False.
        requires_cosign (bool | Unset): A trainee: the notes this user signs await a co-signature by an owner or
            `supervisor_id` Default: False.
        supervisor_id (None | Unset | UUID): The user who may co-sign this user's notes (owners may too)
    """

    display_name: str
    email: str
    id: UUID
    role: UserReadRole
    disabled_at: datetime.datetime | None | Unset = UNSET
    must_change_password: bool | Unset = False
    requires_cosign: bool | Unset = False
    supervisor_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        display_name = self.display_name

        email = self.email

        id = str(self.id)

        role = self.role.value

        disabled_at: None | str | Unset
        if isinstance(self.disabled_at, Unset):
            disabled_at = UNSET
        elif isinstance(self.disabled_at, datetime.datetime):
            disabled_at = self.disabled_at.isoformat()
        else:
            disabled_at = self.disabled_at

        must_change_password = self.must_change_password

        requires_cosign = self.requires_cosign

        supervisor_id: None | str | Unset
        if isinstance(self.supervisor_id, Unset):
            supervisor_id = UNSET
        elif isinstance(self.supervisor_id, UUID):
            supervisor_id = str(self.supervisor_id)
        else:
            supervisor_id = self.supervisor_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "display_name": display_name,
                "email": email,
                "id": id,
                "role": role,
            }
        )
        if disabled_at is not UNSET:
            field_dict["disabled_at"] = disabled_at
        if must_change_password is not UNSET:
            field_dict["must_change_password"] = must_change_password
        if requires_cosign is not UNSET:
            field_dict["requires_cosign"] = requires_cosign
        if supervisor_id is not UNSET:
            field_dict["supervisor_id"] = supervisor_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        display_name = d.pop("display_name")

        email = d.pop("email")

        id = UUID(d.pop("id"))

        role = UserReadRole(d.pop("role"))

        def _parse_disabled_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_at_type_0 = datetime.datetime.fromisoformat(data)

                return disabled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        disabled_at = _parse_disabled_at(d.pop("disabled_at", UNSET))

        must_change_password = d.pop("must_change_password", UNSET)

        requires_cosign = d.pop("requires_cosign", UNSET)

        def _parse_supervisor_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                supervisor_id_type_0 = UUID(data)

                return supervisor_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        supervisor_id = _parse_supervisor_id(d.pop("supervisor_id", UNSET))

        user_read = cls(
            display_name=display_name,
            email=email,
            id=id,
            role=role,
            disabled_at=disabled_at,
            must_change_password=must_change_password,
            requires_cosign=requires_cosign,
            supervisor_id=supervisor_id,
        )

        user_read.additional_properties = d
        return user_read

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
