"""One page of a scoped select, with the total the page shape reports."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession


class PageRequest(Protocol):
    @property
    def offset(self) -> int: ...

    @property
    def page_size(self) -> int: ...


async def fetch_page(
    db: AsyncSession, statement: Select[Any], paging: PageRequest
) -> tuple[list[Any], int]:
    """(the rows of the page, the number of rows over all pages). `statement` is ordered."""
    counted: Select[Any] = select(func.count()).select_from(statement.order_by(None).subquery())
    total = await db.scalar(counted)
    rows = await db.scalars(statement.offset(paging.offset).limit(paging.page_size))
    return list(rows), int(total or 0)
