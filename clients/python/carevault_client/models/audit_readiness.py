from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AuditReadiness")


@_attrs_define
class AuditReadiness:
    """The sealer: events committed but not sealed yet, and how long the oldest has waited.

    Attributes:
        lag_budget_seconds (float):
        lag_seconds (float | None):
        last_checkpoint_at (datetime.datetime | None):
        last_round_at (datetime.datetime | None):
        sealer_running (bool):
        unsealed_events (int | None):
        error (None | str | Unset):
        untrusted_seals (int | None | Unset):
    """

    lag_budget_seconds: float
    lag_seconds: float | None
    last_checkpoint_at: datetime.datetime | None
    last_round_at: datetime.datetime | None
    sealer_running: bool
    unsealed_events: int | None
    error: None | str | Unset = UNSET
    untrusted_seals: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        lag_budget_seconds = self.lag_budget_seconds

        lag_seconds: float | None
        lag_seconds = self.lag_seconds

        last_checkpoint_at: None | str
        if isinstance(self.last_checkpoint_at, datetime.datetime):
            last_checkpoint_at = self.last_checkpoint_at.isoformat()
        else:
            last_checkpoint_at = self.last_checkpoint_at

        last_round_at: None | str
        if isinstance(self.last_round_at, datetime.datetime):
            last_round_at = self.last_round_at.isoformat()
        else:
            last_round_at = self.last_round_at

        sealer_running = self.sealer_running

        unsealed_events: int | None
        unsealed_events = self.unsealed_events

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        untrusted_seals: int | None | Unset
        if isinstance(self.untrusted_seals, Unset):
            untrusted_seals = UNSET
        else:
            untrusted_seals = self.untrusted_seals

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "lag_budget_seconds": lag_budget_seconds,
                "lag_seconds": lag_seconds,
                "last_checkpoint_at": last_checkpoint_at,
                "last_round_at": last_round_at,
                "sealer_running": sealer_running,
                "unsealed_events": unsealed_events,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if untrusted_seals is not UNSET:
            field_dict["untrusted_seals"] = untrusted_seals

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        lag_budget_seconds = d.pop("lag_budget_seconds")

        def _parse_lag_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        lag_seconds = _parse_lag_seconds(d.pop("lag_seconds"))

        def _parse_last_checkpoint_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_checkpoint_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_checkpoint_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_checkpoint_at = _parse_last_checkpoint_at(d.pop("last_checkpoint_at"))

        def _parse_last_round_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_round_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_round_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_round_at = _parse_last_round_at(d.pop("last_round_at"))

        sealer_running = d.pop("sealer_running")

        def _parse_unsealed_events(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        unsealed_events = _parse_unsealed_events(d.pop("unsealed_events"))

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_untrusted_seals(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        untrusted_seals = _parse_untrusted_seals(d.pop("untrusted_seals", UNSET))

        audit_readiness = cls(
            lag_budget_seconds=lag_budget_seconds,
            lag_seconds=lag_seconds,
            last_checkpoint_at=last_checkpoint_at,
            last_round_at=last_round_at,
            sealer_running=sealer_running,
            unsealed_events=unsealed_events,
            error=error,
            untrusted_seals=untrusted_seals,
        )

        audit_readiness.additional_properties = d
        return audit_readiness

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
