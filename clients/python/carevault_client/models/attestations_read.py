from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.attestation_statement import AttestationStatement


T = TypeVar("T", bound="AttestationsRead")


@_attrs_define
class AttestationsRead:
    """The statements a signer and a co-signer attest, at their current versions.

    Attributes:
        cosignature (AttestationStatement):
        signature (AttestationStatement):
    """

    cosignature: AttestationStatement
    signature: AttestationStatement
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cosignature = self.cosignature.to_dict()

        signature = self.signature.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cosignature": cosignature,
                "signature": signature,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attestation_statement import AttestationStatement  # noqa: PLC0415

        d = dict(src_dict)
        cosignature = AttestationStatement.from_dict(d.pop("cosignature"))

        signature = AttestationStatement.from_dict(d.pop("signature"))

        attestations_read = cls(
            cosignature=cosignature,
            signature=signature,
        )

        attestations_read.additional_properties = d
        return attestations_read

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
