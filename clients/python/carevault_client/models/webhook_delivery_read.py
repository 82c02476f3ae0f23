from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_delivery_read_status import WebhookDeliveryReadStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_attempt_read import WebhookAttemptRead
    from ..models.webhook_delivery_read_payload import WebhookDeliveryReadPayload


T = TypeVar("T", bound="WebhookDeliveryRead")


@_attrs_define
class WebhookDeliveryRead:
    """
    Attributes:
        attempts (int):
        created_at (datetime.datetime):
        delivered_at (datetime.datetime | None):
        endpoint_id (UUID):
        event_id (str):
        event_type (str):
        give_up_at (datetime.datetime):
        id (UUID):
        last_attempt_at (datetime.datetime | None):
        last_error (None | str):
        last_status_code (int | None):
        next_attempt_at (datetime.datetime | None): When pending: the next attempt
        payload (WebhookDeliveryReadPayload): The event as sent (ids and types only)
        status (WebhookDeliveryReadStatus):
        recent_attempts (list[WebhookAttemptRead] | Unset): The latest attempts, newest first (at most 10)
    """

    attempts: int
    created_at: datetime.datetime
    delivered_at: datetime.datetime | None
    endpoint_id: UUID
    event_id: str
    event_type: str
    give_up_at: datetime.datetime
    id: UUID
    last_attempt_at: datetime.datetime | None
    last_error: None | str
    last_status_code: int | None
    next_attempt_at: datetime.datetime | None
    payload: WebhookDeliveryReadPayload
    status: WebhookDeliveryReadStatus
    recent_attempts: list[WebhookAttemptRead] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        created_at = self.created_at.isoformat()

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        endpoint_id = str(self.endpoint_id)

        event_id = self.event_id

        event_type = self.event_type

        give_up_at = self.give_up_at.isoformat()

        id = str(self.id)

        last_attempt_at: None | str
        if isinstance(self.last_attempt_at, datetime.datetime):
            last_attempt_at = self.last_attempt_at.isoformat()
        else:
            last_attempt_at = self.last_attempt_at

        last_error: None | str
        last_error = self.last_error

        last_status_code: int | None
        last_status_code = self.last_status_code

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        payload = self.payload.to_dict()

        status = self.status.value

        recent_attempts: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.recent_attempts, Unset):
            recent_attempts = []
            for recent_attempts_item_data in self.recent_attempts:
                recent_attempts_item = recent_attempts_item_data.to_dict()
                recent_attempts.append(recent_attempts_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "created_at": created_at,
                "delivered_at": delivered_at,
                "endpoint_id": endpoint_id,
                "event_id": event_id,
                "event_type": event_type,
                "give_up_at": give_up_at,
                "id": id,
                "last_attempt_at": last_attempt_at,
                "last_error": last_error,
                "last_status_code": last_status_code,
                "next_attempt_at": next_attempt_at,
                "payload": payload,
                "status": status,
            }
        )
        if recent_attempts is not UNSET:
            field_dict["recent_attempts"] = recent_attempts

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_attempt_read import WebhookAttemptRead  # noqa: PLC0415
        from ..models.webhook_delivery_read_payload import WebhookDeliveryReadPayload  # noqa: PLC0415

        d = dict(src_dict)
        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at"))

        endpoint_id = UUID(d.pop("endpoint_id"))

        event_id = d.pop("event_id")

        event_type = d.pop("event_type")

        give_up_at = datetime.datetime.fromisoformat(d.pop("give_up_at"))

        id = UUID(d.pop("id"))

        def _parse_last_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("last_attempt_at"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("last_status_code"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        payload = WebhookDeliveryReadPayload.from_dict(d.pop("payload"))

        status = WebhookDeliveryReadStatus(d.pop("status"))

        _recent_attempts = d.pop("recent_attempts", UNSET)
        recent_attempts: list[WebhookAttemptRead] | Unset = UNSET
        if _recent_attempts is not UNSET:
            recent_attempts = []
            for recent_attempts_item_data in _recent_attempts:
                recent_attempts_item = WebhookAttemptRead.from_dict(recent_attempts_item_data)

                recent_attempts.append(recent_attempts_item)

        webhook_delivery_read = cls(
            attempts=attempts,
            created_at=created_at,
            delivered_at=delivered_at,
            endpoint_id=endpoint_id,
            event_id=event_id,
            event_type=event_type,
            give_up_at=give_up_at,
            id=id,
            last_attempt_at=last_attempt_at,
            last_error=last_error,
            last_status_code=last_status_code,
            next_attempt_at=next_attempt_at,
            payload=payload,
            status=status,
            recent_attempts=recent_attempts,
        )

        webhook_delivery_read.additional_properties = d
        return webhook_delivery_read

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
