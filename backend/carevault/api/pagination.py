"""Page-numbered lists: `?page=1&page_size=20` (at most 100) → {items, total, page, page_size}."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Generic, TypeVar

from fastapi import Depends, Query
from pydantic import BaseModel

T = TypeVar("T")

MAX_PAGE_SIZE = 100


class Page(BaseModel, Generic[T]):
    items: list[T]
    total: int
    page: int
    page_size: int

    @classmethod
    def of(cls, items: list[T], total: int, paging: Pagination) -> Page[T]:
        return cls(items=items, total=total, page=paging.page, page_size=paging.page_size)


@dataclass(frozen=True)
class Pagination:
    page: int
    page_size: int

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.page_size


async def pagination(
    page: Annotated[int, Query(ge=1, le=1_000_000, description="1-based page number")] = 1,
    page_size: Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description="items per page")] = 20,
) -> Pagination:
    return Pagination(page, page_size)


PageParams = Annotated[Pagination, Depends(pagination)]
