from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.key_ring_readiness_versions import KeyRingReadinessVersions
    from ..models.kms_readiness import KmsReadiness


T = TypeVar("T", bound="KeyRingReadiness")


@_attrs_define
class KeyRingReadiness:
    """
    Attributes:
        active_key_age_seconds (float | None):
        active_version (int | None):
        consecutive_failures (int):
        last_refresh_at (datetime.datetime | None):
        last_refresh_error (None | str):
        last_success_at (datetime.datetime | None):
        loaded (bool):
        refresh_interval_seconds (float):
        source (str):
        versions (KeyRingReadinessVersions):
        data_key_warnings (list[str] | Unset):
        kms (KmsReadiness | None | Unset):
        pending_activates_at (datetime.datetime | None | Unset):
        pending_version (int | None | Unset):
        provider (str | Unset):  Default: 'local'.
        refused_ring_reason (None | str | Unset):
    """

    active_key_age_seconds: float | None
    active_version: int | None
    consecutive_failures: int
    last_refresh_at: datetime.datetime | None
    last_refresh_error: None | str
    last_success_at: datetime.datetime | None
    loaded: bool
    refresh_interval_seconds: float
    source: str
    versions: KeyRingReadinessVersions
    data_key_warnings: list[str] | Unset = UNSET
    kms: KmsReadiness | None | Unset = UNSET
    pending_activates_at: datetime.datetime | None | Unset = UNSET
    pending_version: int | None | Unset = UNSET
    provider: str | Unset = "local"
    refused_ring_reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.kms_readiness import KmsReadiness  # noqa: PLC0415

        active_key_age_seconds: float | None
        active_key_age_seconds = self.active_key_age_seconds

        active_version: int | None
        active_version = self.active_version

        consecutive_failures = self.consecutive_failures

        last_refresh_at: None | str
        if isinstance(self.last_refresh_at, datetime.datetime):
            last_refresh_at = self.last_refresh_at.isoformat()
        else:
            last_refresh_at = self.last_refresh_at

        last_refresh_error: None | str
        last_refresh_error = self.last_refresh_error

        last_success_at: None | str
        if isinstance(self.last_success_at, datetime.datetime):
            last_success_at = self.last_success_at.isoformat()
        else:
            last_success_at = self.last_success_at

        loaded = self.loaded

        refresh_interval_seconds = self.refresh_interval_seconds

        source = self.source

        versions = self.versions.to_dict()

        data_key_warnings: list[str] | Unset = UNSET
        if not isinstance(self.data_key_warnings, Unset):
            data_key_warnings = self.data_key_warnings

        kms: dict[str, Any] | None | Unset
        if isinstance(self.kms, Unset):
            kms = UNSET
        elif isinstance(self.kms, KmsReadiness):
            kms = self.kms.to_dict()
        else:
            kms = self.kms

        pending_activates_at: None | str | Unset
        if isinstance(self.pending_activates_at, Unset):
            pending_activates_at = UNSET
        elif isinstance(self.pending_activates_at, datetime.datetime):
            pending_activates_at = self.pending_activates_at.isoformat()
        else:
            pending_activates_at = self.pending_activates_at

        pending_version: int | None | Unset
        if isinstance(self.pending_version, Unset):
            pending_version = UNSET
        else:
            pending_version = self.pending_version

        provider = self.provider

        refused_ring_reason: None | str | Unset
        if isinstance(self.refused_ring_reason, Unset):
            refused_ring_reason = UNSET
        else:
            refused_ring_reason = self.refused_ring_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active_key_age_seconds": active_key_age_seconds,
                "active_version": active_version,
                "consecutive_failures": consecutive_failures,
                "last_refresh_at": last_refresh_at,
                "last_refresh_error": last_refresh_error,
                "last_success_at": last_success_at,
                "loaded": loaded,
                "refresh_interval_seconds": refresh_interval_seconds,
                "source": source,
                "versions": versions,
            }
        )
        if data_key_warnings is not UNSET:
            field_dict["data_key_warnings"] = data_key_warnings
        if kms is not UNSET:
            field_dict["kms"] = kms
        if pending_activates_at is not UNSET:
            field_dict["pending_activates_at"] = pending_activates_at
        if pending_version is not UNSET:
            field_dict["pending_version"] = pending_version
        if provider is not UNSET:
            field_dict["provider"] = provider
        if refused_ring_reason is not UNSET:
            field_dict["refused_ring_reason"] = refused_ring_reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.key_ring_readiness_versions import KeyRingReadinessVersions  # noqa: PLC0415
        from ..models.kms_readiness import KmsReadiness  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_active_key_age_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        active_key_age_seconds = _parse_active_key_age_seconds(d.pop("active_key_age_seconds"))

        def _parse_active_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        active_version = _parse_active_version(d.pop("active_version"))

        consecutive_failures = d.pop("consecutive_failures")

        def _parse_last_refresh_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_refresh_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_refresh_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_refresh_at = _parse_last_refresh_at(d.pop("last_refresh_at"))

        def _parse_last_refresh_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_refresh_error = _parse_last_refresh_error(d.pop("last_refresh_error"))

        def _parse_last_success_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_success_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_success_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_success_at = _parse_last_success_at(d.pop("last_success_at"))

        loaded = d.pop("loaded")

        refresh_interval_seconds = d.pop("refresh_interval_seconds")

        source = d.pop("source")

        versions = KeyRingReadinessVersions.from_dict(d.pop("versions"))

        data_key_warnings = cast(list[str], d.pop("data_key_warnings", UNSET))

        def _parse_kms(data: object) -> KmsReadiness | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                kms_type_0 = KmsReadiness.from_dict(data)

                return kms_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(KmsReadiness | None | Unset, data)

        kms = _parse_kms(d.pop("kms", UNSET))

        def _parse_pending_activates_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                pending_activates_at_type_0 = datetime.datetime.fromisoformat(data)

                return pending_activates_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        pending_activates_at = _parse_pending_activates_at(d.pop("pending_activates_at", UNSET))

        def _parse_pending_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        pending_version = _parse_pending_version(d.pop("pending_version", UNSET))

        provider = d.pop("provider", UNSET)

        def _parse_refused_ring_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        refused_ring_reason = _parse_refused_ring_reason(d.pop("refused_ring_reason", UNSET))

        key_ring_readiness = cls(
            active_key_age_seconds=active_key_age_seconds,
            active_version=active_version,
            consecutive_failures=consecutive_failures,
            last_refresh_at=last_refresh_at,
            last_refresh_error=last_refresh_error,
            last_success_at=last_success_at,
            loaded=loaded,
            refresh_interval_seconds=refresh_interval_seconds,
            source=source,
            versions=versions,
            data_key_warnings=data_key_warnings,
            kms=kms,
            pending_activates_at=pending_activates_at,
            pending_version=pending_version,
            provider=provider,
            refused_ring_reason=refused_ring_reason,
        )

        key_ring_readiness.additional_properties = d
        return key_ring_readiness

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
