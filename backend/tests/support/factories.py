"""Small builders for rows the tests need (no PHI beyond obviously fake values), flushed in
the caller's session: on the rolled-back `db` fixture they vanish with the test."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.appointments.models import Appointment
from carevault.auth.models import Role, User
from carevault.auth.principal import Account, Principal
from carevault.clients.models import Client
from carevault.notes.models import SessionNote
from carevault.workspaces import service as workspace_service
from carevault.workspaces.models import Workspace

# Service tests never sign in, so no password is ever checked against this (and hashing one
# at production cost would take a tenth of a second per user).
UNUSABLE_PASSWORD_HASH = "not-a-password-hash"


async def workspace(db: AsyncSession, name: str | None = None, time_zone: str = "UTC") -> Workspace:
    """A practice with its data keys, as `carevault` and sign-up create one."""
    return await workspace_service.create(db, name or f"Practice {uuid.uuid4().hex[:8]}", time_zone)


async def user(db: AsyncSession, space: Workspace, role: Role = Role.CLINICIAN) -> User:
    row = User(
        workspace_id=space.id,
        email=f"{role.value}-{uuid.uuid4().hex[:8]}@example.test",
        password_hash=UNUSABLE_PASSWORD_HASH,
        role=role.value,
    )
    db.add(row)
    await db.flush()
    return row


async def principal(db: AsyncSession, space: Workspace, role: Role = Role.CLINICIAN) -> Principal:
    """A new user of `space` acting from a documentation address (TEST-NET-3)."""
    return Principal(user=Account.of(await user(db, space, role)), ip_address="203.0.113.9")


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


async def appointment(
    db: AsyncSession, space: Workspace, owner: Client, clinician: User | None = None
) -> Appointment:
    """An appointment of `owner` on `clinician`'s calendar (a new clinician by default)."""
    starts = datetime(2026, 11, 20, 9, tzinfo=UTC)
    row = Appointment(
        workspace_id=space.id,
        client_id=owner.id,
        clinician_id=(clinician or await user(db, space)).id,
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
    if "author_id" not in values:  # the practice's first user, or a new clinician
        author_id = await db.scalar(
            select(User.id).where(User.workspace_id == space.id).order_by(User.created_at).limit(1)
        )
        values["author_id"] = author_id or (await user(db, space)).id
    row = SessionNote(workspace_id=space.id, client_id=owner.id, **values)
    db.add(row)
    await db.flush()
    return row
