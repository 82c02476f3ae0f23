"""The ORM side of row binding: every flushed encrypted value is bound to its row.

A listener on the declarative base (carevault.db.base registers it) runs before each
INSERT and UPDATE the unit of work emits and binds every encrypted attribute to the
instance's workspace and primary key (assigning the primary key first when it is still
unset), so model code writes plain `str` and `date` and can never forget. Core statements
bypass the listener and must bind explicitly;
an unbound value reaching an encrypted column is refused (carevault.crypto.binding).
"""

from __future__ import annotations

import uuid
from functools import cache
from typing import Any

from sqlalchemy.orm import Mapper

from carevault.crypto import bind_row_values, bind_to
from carevault.crypto.types import EncryptedString


@cache
def encrypted_attributes(mapper: Mapper[Any]) -> tuple[str, ...]:
    return tuple(
        prop.key
        for prop in mapper.column_attrs
        if any(isinstance(col.type, EncryptedString) for col in prop.columns)
    )


def encrypted_column_names(table: Any) -> tuple[str, ...]:
    return tuple(col.name for col in table.columns if isinstance(col.type, EncryptedString))


def bind_instance(mapper: Mapper[Any], connection: Any, target: Any) -> None:
    attributes = encrypted_attributes(mapper)
    if not attributes:
        return
    state = target.__dict__
    if state.get("id") is None:
        target.id = uuid.uuid4()
    workspace_id = state.get("workspace_id")
    if workspace_id is None:
        return  # the unbound values are refused by the column type, loudly
    binding = (workspace_id.bytes, target.id.bytes)
    for key in attributes:
        value = state.get(key)
        if value is not None:
            # Straight into the instance dict: the unit of work reads its parameters from
            # there, and the change history (what is dirty) stays as it was.
            state[key] = bind_to(value, binding)


def bound_changes(
    model: Any, workspace_id: uuid.UUID, row_id: uuid.UUID, changes: dict[str, Any]
) -> dict[str, Any]:
    """`changes` for a Core UPDATE of one row of `model`, encrypted fields bound to it."""
    binding = (workspace_id.bytes, row_id.bytes)
    names = encrypted_attributes(model.__mapper__)
    return {
        key: bind_to(value, binding) if key in names else value for key, value in changes.items()
    }


def bound_rows(model: Any, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows for a Core/bulk INSERT into `model`, each with its `id` and `workspace_id`."""
    names = encrypted_column_names(model.__table__)
    return [bind_row_values(names, row) for row in rows]
