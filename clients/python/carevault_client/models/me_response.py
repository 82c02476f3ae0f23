from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.me_response_auth_method import MeResponseAuthMethod
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.service_account_ref import ServiceAccountRef
    from ..models.user_read import UserRead
    from ..models.workspace_read import WorkspaceRead


T = TypeVar("T", bound="MeResponse")


@_attrs_define
class MeResponse:
    """
    Attributes:
        auth_method (MeResponseAuthMethod):
        user (UserRead):
        workspace (WorkspaceRead):
        csrf_token (None | str | Unset): For cookie sessions: the X-CSRF-Token to send with changes
        draft_key (None | str | Unset): For cookie sessions: the key the web UI encrypts unsaved text with (see POST
            /auth/login)
        idle_timeout_seconds (int | None | Unset):
        service_account (None | ServiceAccountRef | Unset): For a service account's token: the account; `user` then
            stands for the practice acting through it (no person)
        session_expires_at (datetime.datetime | None | Unset):
    """

    auth_method: MeResponseAuthMethod
    user: UserRead
    workspace: WorkspaceRead
    csrf_token: None | str | Unset = UNSET
    draft_key: None | str | Unset = UNSET
    idle_timeout_seconds: int | None | Unset = UNSET
    service_account: None | ServiceAccountRef | Unset = UNSET
    session_expires_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.service_account_ref import ServiceAccountRef  # noqa: PLC0415

        auth_method = self.auth_method.value

        user = self.user.to_dict()

        workspace = self.workspace.to_dict()

        csrf_token: None | str | Unset
        if isinstance(self.csrf_token, Unset):
            csrf_token = UNSET
        else:
            csrf_token = self.csrf_token

        draft_key: None | str | Unset
        if isinstance(self.draft_key, Unset):
            draft_key = UNSET
        else:
            draft_key = self.draft_key

        idle_timeout_seconds: int | None | Unset
        if isinstance(self.idle_timeout_seconds, Unset):
            idle_timeout_seconds = UNSET
        else:
            idle_timeout_seconds = self.idle_timeout_seconds

        service_account: dict[str, Any] | None | Unset
        if isinstance(self.service_account, Unset):
            service_account = UNSET
        elif isinstance(self.service_account, ServiceAccountRef):
            service_account = self.service_account.to_dict()
        else:
            service_account = self.service_account

        session_expires_at: None | str | Unset
        if isinstance(self.session_expires_at, Unset):
            session_expires_at = UNSET
        elif isinstance(self.session_expires_at, datetime.datetime):
            session_expires_at = self.session_expires_at.isoformat()
        else:
            session_expires_at = self.session_expires_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "auth_method": auth_method,
                "user": user,
                "workspace": workspace,
            }
        )
        if csrf_token is not UNSET:
            field_dict["csrf_token"] = csrf_token
        if draft_key is not UNSET:
            field_dict["draft_key"] = draft_key
        if idle_timeout_seconds is not UNSET:
            field_dict["idle_timeout_seconds"] = idle_timeout_seconds
        if service_account is not UNSET:
            field_dict["service_account"] = service_account
        if session_expires_at is not UNSET:
            field_dict["session_expires_at"] = session_expires_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.service_account_ref import ServiceAccountRef  # noqa: PLC0415
        from ..models.user_read import UserRead  # noqa: PLC0415
        from ..models.workspace_read import WorkspaceRead  # noqa: PLC0415

        d = dict(src_dict)
        auth_method = MeResponseAuthMethod(d.pop("auth_method"))

        user = UserRead.from_dict(d.pop("user"))

        workspace = WorkspaceRead.from_dict(d.pop("workspace"))

        def _parse_csrf_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        csrf_token = _parse_csrf_token(d.pop("csrf_token", UNSET))

        def _parse_draft_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        draft_key = _parse_draft_key(d.pop("draft_key", UNSET))

        def _parse_idle_timeout_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        idle_timeout_seconds = _parse_idle_timeout_seconds(d.pop("idle_timeout_seconds", UNSET))

        def _parse_service_account(data: object) -> None | ServiceAccountRef | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                service_account_type_0 = ServiceAccountRef.from_dict(data)

                return service_account_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ServiceAccountRef | Unset, data)

        service_account = _parse_service_account(d.pop("service_account", UNSET))

        def _parse_session_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                session_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return session_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        session_expires_at = _parse_session_expires_at(d.pop("session_expires_at", UNSET))

        me_response = cls(
            auth_method=auth_method,
            user=user,
            workspace=workspace,
            csrf_token=csrf_token,
            draft_key=draft_key,
            idle_timeout_seconds=idle_timeout_seconds,
            service_account=service_account,
            session_expires_at=session_expires_at,
        )

        me_response.additional_properties = d
        return me_response

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
