from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="BreakTheGlass")


@_attrs_define
class BreakTheGlass:
    """Why you must open a chart outside your care team. Kept sealed like PHI and shown to
    the practice's owners; never written to the audit trail or logs.

        Attributes:
            reason (str):
    """

    reason: str

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = d.pop("reason")

        break_the_glass = cls(
            reason=reason,
        )

        return break_the_glass
