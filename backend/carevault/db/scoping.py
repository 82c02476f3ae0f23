"""The one way to query tenant data: every statement starts from the caller's workspace."""

from __future__ import annotations

import uuid
from typing import Any, TypeVar

from sqlalchemy import Select, select

from carevault.db.base import WorkspaceScoped

ModelT = TypeVar("ModelT", bound=WorkspaceScoped)


def in_workspace(model: type[ModelT], workspace_id: uuid.UUID) -> Select[ModelT]:
    """`SELECT model WHERE workspace_id = …`; add further filters to the result."""
    return select(model).where(model.workspace_id == workspace_id)


def workspace_filter(model: type[WorkspaceScoped], workspace_id: uuid.UUID) -> Any:
    """The bare condition, for UPDATE and DELETE statements."""
    return model.workspace_id == workspace_id
