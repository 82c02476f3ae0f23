from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="UserUpdate")


@_attrs_define
class UserUpdate:
    """Owners: whether a user's notes need a co-signature, and who supervises them. Send
    the fields that change (at least one).

        Attributes:
            requires_cosign (bool | Unset):
            supervisor_id (None | Unset | UUID): A user of your practice, or null for none
    """

    requires_cosign: bool | Unset = UNSET
    supervisor_id: None | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        requires_cosign = self.requires_cosign

        supervisor_id: None | str | Unset
        if isinstance(self.supervisor_id, Unset):
            supervisor_id = UNSET
        elif isinstance(self.supervisor_id, UUID):
            supervisor_id = str(self.supervisor_id)
        else:
            supervisor_id = self.supervisor_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if requires_cosign is not UNSET:
            field_dict["requires_cosign"] = requires_cosign
        if supervisor_id is not UNSET:
            field_dict["supervisor_id"] = supervisor_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
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

        user_update = cls(
            requires_cosign=requires_cosign,
            supervisor_id=supervisor_id,
        )

        return user_update
