from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.user_read import UserRead
    from ..models.workspace_read import WorkspaceRead


T = TypeVar("T", bound="LoginResponse")


@_attrs_define
class LoginResponse:
    """
    Attributes:
        csrf_token (str): Send as X-CSRF-Token on every state-changing request
        idle_timeout_seconds (int):
        user (UserRead):
        workspace (WorkspaceRead):
    """

    csrf_token: str
    idle_timeout_seconds: int
    user: UserRead
    workspace: WorkspaceRead
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        csrf_token = self.csrf_token

        idle_timeout_seconds = self.idle_timeout_seconds

        user = self.user.to_dict()

        workspace = self.workspace.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "csrf_token": csrf_token,
                "idle_timeout_seconds": idle_timeout_seconds,
                "user": user,
                "workspace": workspace,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.user_read import UserRead  # noqa: PLC0415
        from ..models.workspace_read import WorkspaceRead  # noqa: PLC0415

        d = dict(src_dict)
        csrf_token = d.pop("csrf_token")

        idle_timeout_seconds = d.pop("idle_timeout_seconds")

        user = UserRead.from_dict(d.pop("user"))

        workspace = WorkspaceRead.from_dict(d.pop("workspace"))

        login_response = cls(
            csrf_token=csrf_token,
            idle_timeout_seconds=idle_timeout_seconds,
            user=user,
            workspace=workspace,
        )

        login_response.additional_properties = d
        return login_response

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
