from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.readiness_status import ReadinessStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.audit_readiness import AuditReadiness
    from ..models.database_readiness import DatabaseReadiness
    from ..models.key_ring_readiness import KeyRingReadiness
    from ..models.notifications_readiness import NotificationsReadiness
    from ..models.pgcrypto_readiness import PgcryptoReadiness
    from ..models.redis_readiness import RedisReadiness
    from ..models.replica_readiness import ReplicaReadiness


T = TypeVar("T", bound="Readiness")


@_attrs_define
class Readiness:
    """
    Attributes:
        audit (AuditReadiness): The sealer: events committed but not sealed yet, and how long the oldest has waited.
        database (DatabaseReadiness):
        key_ring (KeyRingReadiness):
        pgcrypto (PgcryptoReadiness):
        phi_backend (str):
        status (ReadinessStatus):
        notifications (None | NotificationsReadiness | Unset):
        reasons (list[str] | Unset): Why not ready: database_unreachable, database_timeout, database_not_writable,
            storage_full, key_ring_not_loaded (unavailable); database_slow, database_timeouts, key_refresh_failing,
            key_refresh_overdue, schema_mismatch, replica_unreachable, replica_lagging, replica_not_in_recovery,
            replica_check_overdue (degraded: reads fall back to the primary), notifications_postgres_reconnecting,
            notifications_redis_reconnecting (degraded: notices wait for the listener, the per-request checks hold),
            redis_limits_falling_back (degraded: each process counts its own budgets)
        redis (None | RedisReadiness | Unset):
        replica (None | ReplicaReadiness | Unset):
    """

    audit: AuditReadiness
    database: DatabaseReadiness
    key_ring: KeyRingReadiness
    pgcrypto: PgcryptoReadiness
    phi_backend: str
    status: ReadinessStatus
    notifications: None | NotificationsReadiness | Unset = UNSET
    reasons: list[str] | Unset = UNSET
    redis: None | RedisReadiness | Unset = UNSET
    replica: None | ReplicaReadiness | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.notifications_readiness import NotificationsReadiness  # noqa: PLC0415
        from ..models.redis_readiness import RedisReadiness  # noqa: PLC0415
        from ..models.replica_readiness import ReplicaReadiness  # noqa: PLC0415

        audit = self.audit.to_dict()

        database = self.database.to_dict()

        key_ring = self.key_ring.to_dict()

        pgcrypto = self.pgcrypto.to_dict()

        phi_backend = self.phi_backend

        status = self.status.value

        notifications: dict[str, Any] | None | Unset
        if isinstance(self.notifications, Unset):
            notifications = UNSET
        elif isinstance(self.notifications, NotificationsReadiness):
            notifications = self.notifications.to_dict()
        else:
            notifications = self.notifications

        reasons: list[str] | Unset = UNSET
        if not isinstance(self.reasons, Unset):
            reasons = self.reasons

        redis: dict[str, Any] | None | Unset
        if isinstance(self.redis, Unset):
            redis = UNSET
        elif isinstance(self.redis, RedisReadiness):
            redis = self.redis.to_dict()
        else:
            redis = self.redis

        replica: dict[str, Any] | None | Unset
        if isinstance(self.replica, Unset):
            replica = UNSET
        elif isinstance(self.replica, ReplicaReadiness):
            replica = self.replica.to_dict()
        else:
            replica = self.replica

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "audit": audit,
                "database": database,
                "key_ring": key_ring,
                "pgcrypto": pgcrypto,
                "phi_backend": phi_backend,
                "status": status,
            }
        )
        if notifications is not UNSET:
            field_dict["notifications"] = notifications
        if reasons is not UNSET:
            field_dict["reasons"] = reasons
        if redis is not UNSET:
            field_dict["redis"] = redis
        if replica is not UNSET:
            field_dict["replica"] = replica

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_readiness import AuditReadiness  # noqa: PLC0415
        from ..models.database_readiness import DatabaseReadiness  # noqa: PLC0415
        from ..models.key_ring_readiness import KeyRingReadiness  # noqa: PLC0415
        from ..models.notifications_readiness import NotificationsReadiness  # noqa: PLC0415
        from ..models.pgcrypto_readiness import PgcryptoReadiness  # noqa: PLC0415
        from ..models.redis_readiness import RedisReadiness  # noqa: PLC0415
        from ..models.replica_readiness import ReplicaReadiness  # noqa: PLC0415

        d = dict(src_dict)
        audit = AuditReadiness.from_dict(d.pop("audit"))

        database = DatabaseReadiness.from_dict(d.pop("database"))

        key_ring = KeyRingReadiness.from_dict(d.pop("key_ring"))

        pgcrypto = PgcryptoReadiness.from_dict(d.pop("pgcrypto"))

        phi_backend = d.pop("phi_backend")

        status = ReadinessStatus(d.pop("status"))

        def _parse_notifications(data: object) -> None | NotificationsReadiness | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                notifications_type_0 = NotificationsReadiness.from_dict(data)

                return notifications_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | NotificationsReadiness | Unset, data)

        notifications = _parse_notifications(d.pop("notifications", UNSET))

        reasons = cast(list[str], d.pop("reasons", UNSET))

        def _parse_redis(data: object) -> None | RedisReadiness | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                redis_type_0 = RedisReadiness.from_dict(data)

                return redis_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RedisReadiness | Unset, data)

        redis = _parse_redis(d.pop("redis", UNSET))

        def _parse_replica(data: object) -> None | ReplicaReadiness | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                replica_type_0 = ReplicaReadiness.from_dict(data)

                return replica_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReplicaReadiness | Unset, data)

        replica = _parse_replica(d.pop("replica", UNSET))

        readiness = cls(
            audit=audit,
            database=database,
            key_ring=key_ring,
            pgcrypto=pgcrypto,
            phi_backend=phi_backend,
            status=status,
            notifications=notifications,
            reasons=reasons,
            redis=redis,
            replica=replica,
        )

        readiness.additional_properties = d
        return readiness

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
