from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TemporaryPassword")


@_attrs_define
class TemporaryPassword:
    """
    Attributes:
        temporary_password (str): Tell the user out of band; they must replace it at their next sign-in
    """

    temporary_password: str

    def to_dict(self) -> dict[str, Any]:
        temporary_password = self.temporary_password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "temporary_password": temporary_password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        temporary_password = d.pop("temporary_password")

        temporary_password = cls(
            temporary_password=temporary_password,
        )

        return temporary_password
