from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.replica_readiness_state import ReplicaReadinessState
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReplicaReadiness")


@_attrs_define
class ReplicaReadiness:
    """The read replica (CAREVAULT_READ_DATABASE_URL), from this process's last check: lists,
    searches and the change feed read from it while `serving_reads`; otherwise from the
    primary (degraded, not unavailable).

        Attributes:
            behind_bytes (int | None):
            checked_at (datetime.datetime | None):
            lag_seconds (float | None): How long ago the primary had the oldest WAL position not yet replayed
            max_lag_seconds (float):
            read_your_writes_seconds (float):
            replay_paused (bool | None):
            requests_on_primary (int):
            requests_on_replica (int):
            serving_reads (bool):
            state (ReplicaReadinessState):
            error (None | str | Unset):
    """

    behind_bytes: int | None
    checked_at: datetime.datetime | None
    lag_seconds: float | None
    max_lag_seconds: float
    read_your_writes_seconds: float
    replay_paused: bool | None
    requests_on_primary: int
    requests_on_replica: int
    serving_reads: bool
    state: ReplicaReadinessState
    error: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        behind_bytes: int | None
        behind_bytes = self.behind_bytes

        checked_at: None | str
        if isinstance(self.checked_at, datetime.datetime):
            checked_at = self.checked_at.isoformat()
        else:
            checked_at = self.checked_at

        lag_seconds: float | None
        lag_seconds = self.lag_seconds

        max_lag_seconds = self.max_lag_seconds

        read_your_writes_seconds = self.read_your_writes_seconds

        replay_paused: bool | None
        replay_paused = self.replay_paused

        requests_on_primary = self.requests_on_primary

        requests_on_replica = self.requests_on_replica

        serving_reads = self.serving_reads

        state = self.state.value

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "behind_bytes": behind_bytes,
                "checked_at": checked_at,
                "lag_seconds": lag_seconds,
                "max_lag_seconds": max_lag_seconds,
                "read_your_writes_seconds": read_your_writes_seconds,
                "replay_paused": replay_paused,
                "requests_on_primary": requests_on_primary,
                "requests_on_replica": requests_on_replica,
                "serving_reads": serving_reads,
                "state": state,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_behind_bytes(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        behind_bytes = _parse_behind_bytes(d.pop("behind_bytes"))

        def _parse_checked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                checked_at_type_0 = datetime.datetime.fromisoformat(data)

                return checked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        checked_at = _parse_checked_at(d.pop("checked_at"))

        def _parse_lag_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        lag_seconds = _parse_lag_seconds(d.pop("lag_seconds"))

        max_lag_seconds = d.pop("max_lag_seconds")

        read_your_writes_seconds = d.pop("read_your_writes_seconds")

        def _parse_replay_paused(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        replay_paused = _parse_replay_paused(d.pop("replay_paused"))

        requests_on_primary = d.pop("requests_on_primary")

        requests_on_replica = d.pop("requests_on_replica")

        serving_reads = d.pop("serving_reads")

        state = ReplicaReadinessState(d.pop("state"))

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        replica_readiness = cls(
            behind_bytes=behind_bytes,
            checked_at=checked_at,
            lag_seconds=lag_seconds,
            max_lag_seconds=max_lag_seconds,
            read_your_writes_seconds=read_your_writes_seconds,
            replay_paused=replay_paused,
            requests_on_primary=requests_on_primary,
            requests_on_replica=requests_on_replica,
            serving_reads=serving_reads,
            state=state,
            error=error,
        )

        replica_readiness.additional_properties = d
        return replica_readiness

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
