"""The one way to query tenant data: every statement starts from the caller's workspace."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from sqlalchemy import BindParameter, ColumnElement, Select, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.core.errors import not_found
from carevault.db.base import WorkspaceScoped

ModelT = TypeVar("ModelT", bound=WorkspaceScoped)


def in_workspace(
    model: type[ModelT], workspace_id: uuid.UUID | BindParameter[Any]
) -> Select[ModelT]:
    """`SELECT model WHERE workspace_id = …`; add further filters to the result. The
    workspace may be a bound parameter, for a statement built once."""
    return select(model).where(model.workspace_id == workspace_id)


def workspace_filter(model: type[WorkspaceScoped], workspace_id: uuid.UUID) -> Any:
    """The bare condition, for UPDATE and DELETE statements."""
    return model.workspace_id == workspace_id


class WorkspaceRepository(Generic[ModelT]):
    """One workspace-scoped model's rows, fetched by id inside the caller's workspace.

    The statements are built once per (lock, include_deleted) with bound parameters: a
    request pays for neither building nor caching a SELECT. `lock` takes FOR NO KEY UPDATE,
    the weakest lock that serialises changes to the row while still letting other
    transactions insert rows that reference it (a note for a client being edited, a version
    for a note being amended); no caller changes a primary key, which is what FOR UPDATE
    would be for.

    `condition`: a further predicate with bound parameters of its own (the chart access of
    carevault.clients.access), whose values every call then passes as `values`; a call
    without them fails rather than reading unfiltered.
    """

    def __init__(
        self,
        model: type[ModelT],
        *,
        noun: str,
        condition: ColumnElement[bool] | None = None,
    ) -> None:
        self.model = model
        self.noun = noun  # "session note": the 404 says which kind of thing was not found
        self.condition = condition
        self._statements: dict[tuple[bool, bool], Select[ModelT]] = {}

    async def find(
        self,
        db: AsyncSession,
        workspace_id: uuid.UUID,
        row_id: uuid.UUID,
        *,
        lock: bool = False,
        include_deleted: bool = False,
        values: Mapping[str, Any] | None = None,
    ) -> ModelT | None:
        if self.condition is not None and values is None:
            raise TypeError(f"{self.noun}: pass the values of the repository's condition")
        row: ModelT | None = await db.scalar(
            self.statement(lock=lock, include_deleted=include_deleted),
            {"workspace_id": workspace_id, "row_id": row_id, **(values or {})},
        )
        return row

    def statement(self, *, lock: bool = False, include_deleted: bool = False) -> Select[ModelT]:
        """The by-id SELECT, with `workspace_id` and `row_id` as bound parameters."""
        statement = self._statements.get((lock, include_deleted))
        if statement is None:
            statement = self._statements[lock, include_deleted] = self._build(lock, include_deleted)
        return statement

    async def get(
        self,
        db: AsyncSession,
        workspace_id: uuid.UUID,
        row_id: uuid.UUID,
        *,
        lock: bool = False,
        include_deleted: bool = False,
        values: Mapping[str, Any] | None = None,
    ) -> ModelT:
        """The row, or a 404 naming the kind of thing (never whether it exists elsewhere)."""
        row = await self.find(
            db, workspace_id, row_id, lock=lock, include_deleted=include_deleted, values=values
        )
        if row is None:
            raise not_found(self.noun)
        return row

    def _build(self, lock: bool, include_deleted: bool) -> Select[ModelT]:
        model: Any = self.model
        statement = in_workspace(self.model, bindparam("workspace_id")).where(
            model.id == bindparam("row_id")
        )
        deleted_at = getattr(model, "deleted_at", None)
        if deleted_at is not None and not include_deleted:
            statement = statement.where(deleted_at.is_(None))
        if self.condition is not None:
            statement = statement.where(self.condition)
        if lock:
            statement = statement.with_for_update(key_share=True)
        return statement
