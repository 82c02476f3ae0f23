from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ClientSearch")


@_attrs_define
class ClientSearch:
    """A client search. In a body, not a URL: the term is PHI.

    Attributes:
        include_archived (bool | Unset): Include archived clients Default: False.
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.
        q (None | str | Unset): An email or phone number (exact match, however it is written), or part of a first or
            last name (case-insensitive); empty or omitted lists everyone
    """

    include_archived: bool | Unset = False
    page: int | Unset = 1
    page_size: int | Unset = 20
    q: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        include_archived = self.include_archived

        page = self.page

        page_size = self.page_size

        q: None | str | Unset
        if isinstance(self.q, Unset):
            q = UNSET
        else:
            q = self.q

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if include_archived is not UNSET:
            field_dict["include_archived"] = include_archived
        if page is not UNSET:
            field_dict["page"] = page
        if page_size is not UNSET:
            field_dict["page_size"] = page_size
        if q is not UNSET:
            field_dict["q"] = q

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        include_archived = d.pop("include_archived", UNSET)

        page = d.pop("page", UNSET)

        page_size = d.pop("page_size", UNSET)

        def _parse_q(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        q = _parse_q(d.pop("q", UNSET))

        client_search = cls(
            include_archived=include_archived,
            page=page,
            page_size=page_size,
            q=q,
        )

        return client_search
