from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ServiceAccountTokenCreate")


@_attrs_define
class ServiceAccountTokenCreate:
    """
    Attributes:
        name (str):
        expires_in_days (int | None | Unset): Unset: until revoked (or the account's own expiry, whichever is first)
    """

    name: str
    expires_in_days: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        expires_in_days: int | None | Unset
        if isinstance(self.expires_in_days, Unset):
            expires_in_days = UNSET
        else:
            expires_in_days = self.expires_in_days

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if expires_in_days is not UNSET:
            field_dict["expires_in_days"] = expires_in_days

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_expires_in_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expires_in_days = _parse_expires_in_days(d.pop("expires_in_days", UNSET))

        service_account_token_create = cls(
            name=name,
            expires_in_days=expires_in_days,
        )

        return service_account_token_create
