"""Small builders for rows the tests need (no PHI beyond obviously fake values)."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from carevault.appointments.models import Appointment
from carevault.clients.models import Client
from carevault.notes.models import SessionNote
from carevault.workspaces import service as workspace_service
from carevault.workspaces.models import Workspace


async def workspace(db: AsyncSession, name: str | None = None) -> Workspace:
    return await workspace_service.create(db, name or f"Practice {uuid.uuid4().hex[:8]}")


async def client(db: AsyncSession, space: Workspace, **fields: object) -> Client:
    values: dict[str, object] = {
        "first_name": "Ada",
        "last_name": "Lovelace",
        "email": "ada@example.org",
        "phone": "+44 20 7946 0000",
        "date_of_birth": date(1990, 12, 10),
        "address": "12 Analytical Row, London",
        "emergency_contact_name": "Charles Babbage",
        "emergency_contact_phone": "+44 20 7946 0001",
        "medical_history": "Migraine since 2015",
        "notes": "Prefers afternoon sessions",
    }
    values.update(fields)
    row = Client(workspace_id=space.id, **values)
    db.add(row)
    await db.flush()
    return row


async def appointment(db: AsyncSession, space: Workspace, owner: Client) -> Appointment:
    starts = datetime(2026, 11, 20, 9, tzinfo=UTC)
    row = Appointment(
        workspace_id=space.id,
        client_id=owner.id,
        starts_at=starts,
        ends_at=starts + timedelta(minutes=50),
        location="Room 2, second floor",
        notes="Bring the referral letter",
    )
    db.add(row)
    await db.flush()
    return row


async def note(db: AsyncSession, space: Workspace, owner: Client, **fields: object) -> SessionNote:
    values: dict[str, object] = {
        "session_date": date(2026, 11, 20),
        "subjective": "Reports low mood for two weeks",
        "objective": "Flat affect, speech slowed",
        "assessment": "Moderate depressive episode",
        "plan": "Weekly CBT; review in four weeks",
    }
    values.update(fields)
    row = SessionNote(workspace_id=space.id, client_id=owner.id, **values)
    db.add(row)
    await db.flush()
    return row
