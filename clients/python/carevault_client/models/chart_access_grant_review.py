from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ChartAccessGrantReview")


@_attrs_define
class ChartAccessGrantReview:
    """A break-the-glass grant as the practice's owners review it.

    Attributes:
        display_name (str):
        expires_at (datetime.datetime):
        granted_at (datetime.datetime):
        id (UUID):
        reason (str):
        user_id (UUID):
    """

    display_name: str
    expires_at: datetime.datetime
    granted_at: datetime.datetime
    id: UUID
    reason: str
    user_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        display_name = self.display_name

        expires_at = self.expires_at.isoformat()

        granted_at = self.granted_at.isoformat()

        id = str(self.id)

        reason = self.reason

        user_id = str(self.user_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "display_name": display_name,
                "expires_at": expires_at,
                "granted_at": granted_at,
                "id": id,
                "reason": reason,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        display_name = d.pop("display_name")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        granted_at = datetime.datetime.fromisoformat(d.pop("granted_at"))

        id = UUID(d.pop("id"))

        reason = d.pop("reason")

        user_id = UUID(d.pop("user_id"))

        chart_access_grant_review = cls(
            display_name=display_name,
            expires_at=expires_at,
            granted_at=granted_at,
            id=id,
            reason=reason,
            user_id=user_id,
        )

        chart_access_grant_review.additional_properties = d
        return chart_access_grant_review

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
