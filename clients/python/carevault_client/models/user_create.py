from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.user_create_role import UserCreateRole
from ..types import UNSET, Unset

T = TypeVar("T", bound="UserCreate")


@_attrs_define
class UserCreate:
    """
    Attributes:
        email (str):
        password (str):
        display_name (str | Unset):  Default: ''.
        role (UserCreateRole | Unset):  Default: UserCreateRole.CLINICIAN.
    """

    email: str
    password: str
    display_name: str | Unset = ""
    role: UserCreateRole | Unset = UserCreateRole.CLINICIAN

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        password = self.password

        display_name = self.display_name

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "password": password,
            }
        )
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email")

        password = d.pop("password")

        display_name = d.pop("display_name", UNSET)

        _role = d.pop("role", UNSET)
        role: UserCreateRole | Unset
        if isinstance(_role, Unset):
            role = UNSET
        else:
            role = UserCreateRole(_role)

        user_create = cls(
            email=email,
            password=password,
            display_name=display_name,
            role=role,
        )

        return user_create
