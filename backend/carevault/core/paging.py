"""Which page of a list to return: page-numbered, `page_size` items a page (at most 100)."""

from __future__ import annotations

from dataclasses import dataclass

MAX_PAGE_SIZE = 100


@dataclass(frozen=True)
class Pagination:
    page: int
    page_size: int

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.page_size
