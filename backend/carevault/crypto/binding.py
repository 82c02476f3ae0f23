"""Values that know which row they belong to.

A format-0x03 value authenticates its practice and row ids, so whoever writes it must say
which row it is for. Encrypted columns accept only these bound values and refuse a bare
`str` or `date` loudly: a write path that cannot name its row fails instead of sealing
something weaker. The ORM binds on flush by itself (carevault.db.encryption); Core
statements bind with `bind` or `bind_row_values`.

`BoundText` is a `str` and `BoundDate` a `date`, so code that reads them back from a model
after a flush sees ordinary values.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any


class UnboundValueError(TypeError):
    """An encrypted column was given a value that does not name its row."""


class BoundText(str):
    row_binding: tuple[bytes, bytes]

    def __new__(cls, value: str, binding: tuple[bytes, bytes]) -> BoundText:
        bound = super().__new__(cls, value)
        bound.row_binding = binding
        return bound


class BoundDate(date):
    row_binding: tuple[bytes, bytes]

    def __new__(cls, value: date, binding: tuple[bytes, bytes]) -> BoundDate:
        bound = super().__new__(cls, value.year, value.month, value.day)
        bound.row_binding = binding
        return bound


def binding_of(workspace_id: uuid.UUID, row_id: uuid.UUID) -> tuple[bytes, bytes]:
    return workspace_id.bytes, row_id.bytes


def bind(value: Any, workspace_id: uuid.UUID, row_id: uuid.UUID) -> Any:
    """`value` bound to its row (None stays None)."""
    return bind_to(value, binding_of(workspace_id, row_id))


def bind_to(value: Any, binding: tuple[bytes, bytes]) -> Any:
    if value is None:
        return None
    if getattr(value, "row_binding", None) == binding:
        return value
    if isinstance(value, str):
        return BoundText(value, binding)
    if isinstance(value, date):
        return BoundDate(value, binding)
    raise UnboundValueError(f"cannot bind a {type(value).__name__} to an encrypted column")


def bind_row_values(encrypted_columns: Iterable[str], values: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of one row's values with every encrypted column bound to `values["id"]` and
    `values["workspace_id"]` (both required)."""
    try:
        binding = binding_of(values["workspace_id"], values["id"])
    except KeyError as missing:
        raise UnboundValueError(
            f"binding encrypted values needs the row's {missing.args[0]!r}"
        ) from None
    bound = dict(values)
    for name in encrypted_columns:
        if name in bound:
            bound[name] = bind_to(bound[name], binding)
    return bound
