from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.listener_readiness import ListenerReadiness


T = TypeVar("T", bound="NotificationsReadiness")


@_attrs_define
class NotificationsReadiness:
    """Notices from other processes (shreds, key activations): optional. A listener down
    only delays what a notice speeds up (the per-request checks still hold), so it makes
    the process degraded, never unavailable.

        Attributes:
            postgres (ListenerReadiness | None | Unset): LISTEN on PostgreSQL (null: not listened on)
            redis (ListenerReadiness | None | Unset): Redis pub/sub (null: no CAREVAULT_REDIS_URL)
    """

    postgres: ListenerReadiness | None | Unset = UNSET
    redis: ListenerReadiness | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.listener_readiness import ListenerReadiness  # noqa: PLC0415

        postgres: dict[str, Any] | None | Unset
        if isinstance(self.postgres, Unset):
            postgres = UNSET
        elif isinstance(self.postgres, ListenerReadiness):
            postgres = self.postgres.to_dict()
        else:
            postgres = self.postgres

        redis: dict[str, Any] | None | Unset
        if isinstance(self.redis, Unset):
            redis = UNSET
        elif isinstance(self.redis, ListenerReadiness):
            redis = self.redis.to_dict()
        else:
            redis = self.redis

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if postgres is not UNSET:
            field_dict["postgres"] = postgres
        if redis is not UNSET:
            field_dict["redis"] = redis

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.listener_readiness import ListenerReadiness  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_postgres(data: object) -> ListenerReadiness | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                postgres_type_0 = ListenerReadiness.from_dict(data)

                return postgres_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ListenerReadiness | None | Unset, data)

        postgres = _parse_postgres(d.pop("postgres", UNSET))

        def _parse_redis(data: object) -> ListenerReadiness | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                redis_type_0 = ListenerReadiness.from_dict(data)

                return redis_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ListenerReadiness | None | Unset, data)

        redis = _parse_redis(d.pop("redis", UNSET))

        notifications_readiness = cls(
            postgres=postgres,
            redis=redis,
        )

        notifications_readiness.additional_properties = d
        return notifications_readiness

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
