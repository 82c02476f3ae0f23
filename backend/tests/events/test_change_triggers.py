"""PostgreSQL records a change event with every write to a client, appointment, note or user
(migration 0023), whatever statement makes it, and nothing for bookkeeping-only updates."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.auth.models import User
from carevault.clients.models import Client
from carevault.events.models import ChangeEvent
from carevault.notes.models import SessionNote
from carevault.workspaces.models import Workspace
from tests.support import factories


async def kinds(db: AsyncSession, workspace_id: object) -> list[tuple[str, str]]:
    rows = await db.execute(
        select(ChangeEvent.type, ChangeEvent.resource_id)
        .where(ChangeEvent.workspace_id == workspace_id)
        .order_by(ChangeEvent.id)
    )
    return [(kind, str(resource)) for kind, resource in rows]


async def test_every_kind_of_change_is_an_event(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    author = await factories.user(db, space)
    person = await factories.client(db, space)
    visit = await factories.appointment(db, space, person, author)
    note = await factories.note(db, space, person, author_id=author.id)
    start = len(await kinds(db, space.id))
    now = datetime.now(UTC)
    # (raw SQL: the triggers see every statement, not only the ORM's)
    await db.execute(text("UPDATE clients SET notes = 'x'::bytea WHERE id = :i"), {"i": person.id})
    await db.execute(update(Client).where(Client.id == person.id).values(archived_at=now))
    await db.execute(update(Client).where(Client.id == person.id).values(archived_at=None))
    await db.execute(
        text("UPDATE appointments SET status = 'cancelled' WHERE id = :i"), {"i": visit.id}
    )
    # A draft saved (its version raised) is updated; once signed, amended.
    await db.execute(update(SessionNote).where(SessionNote.id == note.id).values(version=2))
    await db.execute(
        update(SessionNote)
        .where(SessionNote.id == note.id)
        .values(status="finalized", finalized_at=now)
    )
    await db.execute(update(SessionNote).where(SessionNote.id == note.id).values(version=3))
    await db.execute(
        update(SessionNote).where(SessionNote.id == note.id).values(cosign_status="cosigned")
    )
    await db.execute(update(SessionNote).where(SessionNote.id == note.id).values(deleted_at=now))
    await db.execute(update(User).where(User.id == author.id).values(disabled_at=now))
    await db.execute(update(User).where(User.id == author.id).values(disabled_at=None))
    await db.execute(text("DELETE FROM sessions WHERE id = :i"), {"i": note.id})
    await db.execute(text("DELETE FROM appointments WHERE id = :i"), {"i": visit.id})
    events = (await kinds(db, space.id))[start:]
    assert events == [
        ("client.updated", str(person.id)),
        ("client.archived", str(person.id)),
        ("client.restored", str(person.id)),
        ("appointment.cancelled", str(visit.id)),
        ("note.updated", str(note.id)),
        ("note.signed", str(note.id)),
        ("note.amended", str(note.id)),
        ("note.cosigned", str(note.id)),
        ("note.deleted", str(note.id)),
        ("user.disabled", str(author.id)),
        ("user.enabled", str(author.id)),
        ("note.deleted", str(note.id)),
        ("appointment.deleted", str(visit.id)),
    ]


async def test_creations_are_events_one_per_row(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    author = await factories.user(db, space)
    person = await factories.client(db, space)
    await factories.appointment(db, space, person, author)
    await factories.note(db, space, person, author_id=author.id)
    types = [kind for kind, _ in await kinds(db, space.id)]
    assert types == ["user.created", "client.created", "appointment.created", "note.created"]


async def test_bookkeeping_and_resealing_record_nothing(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    person = await factories.client(db, space)
    author = await factories.user(db, space)
    before = await kinds(db, space.id)
    await db.execute(update(Client).where(Client.id == person.id).values(phone_bidx=b"x"))
    await db.execute(update(User).where(User.id == author.id).values(password_hash="other"))
    await db.execute(text("UPDATE clients SET updated_at = now() WHERE id = :i"), {"i": person.id})
    await db.execute(text("SELECT set_config('carevault.resealing', 'on', true)"))
    await db.execute(text("UPDATE clients SET notes = 'y'::bytea WHERE id = :i"), {"i": person.id})
    await db.execute(text("SELECT set_config('carevault.resealing', '', true)"))
    assert await kinds(db, space.id) == before


async def test_a_shred_is_an_event(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    await db.execute(
        update(Workspace).where(Workspace.id == space.id).values(shredded_at=datetime.now(UTC))
    )
    assert await kinds(db, space.id) == [("workspace.shredded", str(space.id))]


async def test_events_carry_the_writing_transaction(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    await factories.client(db, space)
    txid = await db.scalar(text("SELECT (pg_current_xact_id()::text)::bigint"))
    stored = await db.scalar(select(ChangeEvent.txid).where(ChangeEvent.workspace_id == space.id))
    assert stored == txid
