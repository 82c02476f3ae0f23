"""Calling the domain services directly (no HTTP): the errors they raise and the audit
events they write in the caller's transaction."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.errors import http_status
from carevault.audit.models import AuditEvent
from carevault.auth.principal import Principal
from carevault.core.errors import DomainError
from carevault.workspaces.models import Workspace


@contextmanager
def refused(code: str, status: int | None = None) -> Iterator[pytest.ExceptionInfo[DomainError]]:
    """The block fails with the expected domain failure `code` (and, when given, the HTTP
    `status` the web layer answers it with)."""
    with pytest.raises(DomainError) as raised:
        yield raised
    assert raised.value.code == code, raised.value.message
    if status is not None:
        assert http_status(raised.value) == status


def field_names(error: DomainError) -> set[str]:
    """The fields an `invalid(...)` failure names, without their location prefix."""
    return {detail["field"].rsplit(".", 1)[-1] for detail in error.details}


async def audit_events(db: AsyncSession, workspace_id: uuid.UUID) -> list[AuditEvent]:
    """The workspace's audit events so far, oldest first."""
    statement = (
        select(AuditEvent).where(AuditEvent.workspace_id == workspace_id).order_by(AuditEvent.id)
    )
    return list((await db.execute(statement)).scalars())


def summary(events: list[AuditEvent]) -> list[tuple[str, list[uuid.UUID] | None, Any]]:
    """(action, resource ids, details) of each event: what the tests compare."""
    return [(event.action, event.resource_ids, event.details) for event in events]


@dataclass
class Clinic:
    """A practice and a clinician acting in it (the `clinic` fixture of tests/services)."""

    space: Workspace
    clinician: Principal
