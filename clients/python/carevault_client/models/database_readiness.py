from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DatabaseReadiness")


@_attrs_define
class DatabaseReadiness:
    """
    Attributes:
        expected_revision (None | str):
        reachable (bool):
        schema_revision (None | str):
        error (None | str | Unset):
        latency_ms (float | None | Unset): Of this check's round trips
        recent_failure (None | str | Unset): A failure code requests met lately, e.g. storage_full
        writable (bool | None | Unset): The last write probe committed (null: not probed, e.g. schema behind)
        write_probed_at (datetime.datetime | None | Unset):
    """

    expected_revision: None | str
    reachable: bool
    schema_revision: None | str
    error: None | str | Unset = UNSET
    latency_ms: float | None | Unset = UNSET
    recent_failure: None | str | Unset = UNSET
    writable: bool | None | Unset = UNSET
    write_probed_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expected_revision: None | str
        expected_revision = self.expected_revision

        reachable = self.reachable

        schema_revision: None | str
        schema_revision = self.schema_revision

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        latency_ms: float | None | Unset
        if isinstance(self.latency_ms, Unset):
            latency_ms = UNSET
        else:
            latency_ms = self.latency_ms

        recent_failure: None | str | Unset
        if isinstance(self.recent_failure, Unset):
            recent_failure = UNSET
        else:
            recent_failure = self.recent_failure

        writable: bool | None | Unset
        if isinstance(self.writable, Unset):
            writable = UNSET
        else:
            writable = self.writable

        write_probed_at: None | str | Unset
        if isinstance(self.write_probed_at, Unset):
            write_probed_at = UNSET
        elif isinstance(self.write_probed_at, datetime.datetime):
            write_probed_at = self.write_probed_at.isoformat()
        else:
            write_probed_at = self.write_probed_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expected_revision": expected_revision,
                "reachable": reachable,
                "schema_revision": schema_revision,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if latency_ms is not UNSET:
            field_dict["latency_ms"] = latency_ms
        if recent_failure is not UNSET:
            field_dict["recent_failure"] = recent_failure
        if writable is not UNSET:
            field_dict["writable"] = writable
        if write_probed_at is not UNSET:
            field_dict["write_probed_at"] = write_probed_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_expected_revision(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        expected_revision = _parse_expected_revision(d.pop("expected_revision"))

        reachable = d.pop("reachable")

        def _parse_schema_revision(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        schema_revision = _parse_schema_revision(d.pop("schema_revision"))

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_latency_ms(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        latency_ms = _parse_latency_ms(d.pop("latency_ms", UNSET))

        def _parse_recent_failure(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recent_failure = _parse_recent_failure(d.pop("recent_failure", UNSET))

        def _parse_writable(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        writable = _parse_writable(d.pop("writable", UNSET))

        def _parse_write_probed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                write_probed_at_type_0 = datetime.datetime.fromisoformat(data)

                return write_probed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        write_probed_at = _parse_write_probed_at(d.pop("write_probed_at", UNSET))

        database_readiness = cls(
            expected_revision=expected_revision,
            reachable=reachable,
            schema_revision=schema_revision,
            error=error,
            latency_ms=latency_ms,
            recent_failure=recent_failure,
            writable=writable,
            write_probed_at=write_probed_at,
        )

        database_readiness.additional_properties = d
        return database_readiness

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
