"""Lists that survive one unreadable row.

A value that fails to open (tampered, moved, under a destroyed key) must not take a whole
page down with it: the list is read normally, and only when a decryption fails is it read
again row by row, leaving out the rows that cannot be opened and naming them so the caller
can audit them. The fallback costs one query per row, on the failure path only.
"""

from __future__ import annotations

import uuid
from typing import Any, TypeVar

from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.crypto import DecryptionError

T = TypeVar("T")


async def scalars_skipping_unreadable(
    db: AsyncSession, statement: Select[T], id_column: Any
) -> tuple[list[T], list[uuid.UUID]]:
    """(loaded entities in order, ids of the rows that could not be opened)."""
    try:
        return list(await db.scalars(statement)), []
    except DecryptionError:
        pass
    loaded: list[T] = []
    unreadable: list[uuid.UUID] = []
    for row_id in await db.scalars(statement.with_only_columns(id_column)):
        try:
            found = await db.scalar(statement.where(id_column == row_id).limit(None).offset(None))
        except DecryptionError:
            unreadable.append(row_id)
            continue
        if found is not None:
            loaded.append(found)
    return loaded, unreadable


async def rows_skipping_unreadable(
    db: AsyncSession, statement: Select[*tuple[Any, ...]], id_column: Any
) -> tuple[list[Any], list[uuid.UUID]]:
    """Like `scalars_skipping_unreadable`, for statements of several columns."""
    try:
        return list((await db.execute(statement)).all()), []
    except DecryptionError:
        pass
    rows: list[Any] = []
    unreadable: list[uuid.UUID] = []
    for row_id in await db.scalars(statement.with_only_columns(id_column)):
        try:
            found = (
                await db.execute(statement.where(id_column == row_id).limit(None).offset(None))
            ).one_or_none()
        except DecryptionError:
            unreadable.append(row_id)
            continue
        if found is not None:
            rows.append(found)
    return rows, unreadable
