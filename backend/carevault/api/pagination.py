"""Page-numbered lists over HTTP: `?page=1&page_size=20` (at most 100) → {items, total, page,
page_size}. Which page to read (Pagination) is neutral and lives in carevault.core.paging;
this is the query dependency and the response envelope with its OpenAPI example."""

from __future__ import annotations

from typing import Annotated, Any, Generic, TypeVar, get_args

from fastapi import Depends, Query
from pydantic import BaseModel, ConfigDict

from carevault.core.fields import QueryInteger
from carevault.core.paging import MAX_PAGE_SIZE, Pagination

T = TypeVar("T")


def _page_example(schema: dict[str, Any], page: type[Any]) -> None:
    """The example of `Page[Item]` in the OpenAPI document: a page holding `Item`'s example."""
    (item,) = get_args(page.model_fields["items"].annotation) or (None,)
    extra = item.model_config.get("json_schema_extra") if hasattr(item, "model_config") else None
    if isinstance(extra, dict) and isinstance(extra.get("examples"), list) and extra["examples"]:
        first = extra["examples"][0]
        schema["examples"] = [{"items": [first], "total": 21, "page": 2, "page_size": 20}]


class Page(BaseModel, Generic[T]):
    model_config = ConfigDict(json_schema_extra=_page_example)

    items: list[T]
    total: int
    page: int
    page_size: int

    @classmethod
    def of(cls, items: list[T], total: int, paging: Pagination) -> Page[T]:
        return cls(items=items, total=total, page=paging.page, page_size=paging.page_size)


async def pagination(
    page: Annotated[QueryInteger, Query(ge=1, le=1_000_000, description="1-based page number")] = 1,
    page_size: Annotated[
        QueryInteger, Query(ge=1, le=MAX_PAGE_SIZE, description="items per page")
    ] = 20,
) -> Pagination:
    return Pagination(page, page_size)


PageParams = Annotated[Pagination, Depends(pagination)]
