from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SessionNoteFinalize")


@_attrs_define
class SessionNoteFinalize:
    """Finalize at the version the caller last saw.

    Attributes:
        version (int): The note's version as the caller last saw it
    """

    version: int

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        session_note_finalize = cls(
            version=version,
        )

        return session_note_finalize
