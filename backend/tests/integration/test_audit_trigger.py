import pytest
from sqlalchemy import insert, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from carevault.audit.models import AuditEvent


async def _insert_event(engine: AsyncEngine) -> int:
    async with engine.begin() as connection:
        result = await connection.execute(
            insert(AuditEvent).values(action="test.event").returning(AuditEvent.id)
        )
        return int(result.scalar_one())


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE audit_events SET action = 'edited' WHERE id = :id",
        "DELETE FROM audit_events WHERE id = :id",
        "TRUNCATE audit_events",
    ],
    ids=["update", "delete", "truncate"],
)
async def test_audit_events_refuse_change(engine: AsyncEngine, statement: str) -> None:
    event_id = await _insert_event(engine)
    with pytest.raises(DBAPIError, match="append-only"):
        async with engine.begin() as connection:
            await connection.execute(text(statement), {"id": event_id})
    async with engine.connect() as connection:
        action = await connection.scalar(
            text("SELECT action FROM audit_events WHERE id = :id"), {"id": event_id}
        )
    assert action == "test.event"
