from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Recurrence")


@_attrs_define
class Recurrence:
    """Weekly, or every N weeks, on the first occurrence's weekday and local time in the
    practice's time zone (so 09:00 stays 09:00 across a daylight-saving change), until a
    date or for a number of occurrences: exactly one of `until` and `count`.

        Attributes:
            count (int | None | Unset): How many occurrences, the first included
            every_weeks (int | Unset):  Default: 1.
            until (datetime.date | None | Unset): The last day an occurrence may start on (inclusive), in the practice's
                calendar
    """

    count: int | None | Unset = UNSET
    every_weeks: int | Unset = 1
    until: datetime.date | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        count: int | None | Unset
        if isinstance(self.count, Unset):
            count = UNSET
        else:
            count = self.count

        every_weeks = self.every_weeks

        until: None | str | Unset
        if isinstance(self.until, Unset):
            until = UNSET
        elif isinstance(self.until, datetime.date):
            until = self.until.isoformat()
        else:
            until = self.until

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if count is not UNSET:
            field_dict["count"] = count
        if every_weeks is not UNSET:
            field_dict["every_weeks"] = every_weeks
        if until is not UNSET:
            field_dict["until"] = until

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        count = _parse_count(d.pop("count", UNSET))

        every_weeks = d.pop("every_weeks", UNSET)

        def _parse_until(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                until_type_0 = datetime.date.fromisoformat(data)

                return until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        until = _parse_until(d.pop("until", UNSET))

        recurrence = cls(
            count=count,
            every_weeks=every_weeks,
            until=until,
        )

        return recurrence
