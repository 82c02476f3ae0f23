from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SessionNoteCosign")


@_attrs_define
class SessionNoteCosign:
    """Co-sign at the version the caller last saw, attesting the current co-signature
    statement.

        Attributes:
            attestation_version (int): The version of the statement the signer was shown and attests (GET
                /sessions/attestations); only the current one is accepted
            version (int): The note's version as the caller last saw it
    """

    attestation_version: int
    version: int

    def to_dict(self) -> dict[str, Any]:
        attestation_version = self.attestation_version

        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attestation_version": attestation_version,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attestation_version = d.pop("attestation_version")

        version = d.pop("version")

        session_note_cosign = cls(
            attestation_version=attestation_version,
            version=version,
        )

        return session_note_cosign
