from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.appointments.models import Appointment
from carevault.auth.models import User
from carevault.auth.passwords import verify_password
from carevault.clients.models import Client
from carevault.crypto import PracticeBlindIndex, current_cipher
from carevault.demo.seed import DEMO_CLIENTS, DEMO_OWNER_EMAIL, DEMO_PASSWORD, seed_demo
from carevault.notes.models import SessionNote
from carevault.workspaces.service import get_by_name
from tests.support.db import RingHolder


async def test_demo_practice_is_seeded_once_and_reads_back(
    db: AsyncSession, ring_holder: RingHolder
) -> None:
    assert await seed_demo(db) is True
    assert await seed_demo(db) is False
    space = await get_by_name(db, "Demo Practice")
    assert space is not None
    owner = (await db.execute(select(User).where(User.email == DEMO_OWNER_EMAIL))).scalar_one()
    assert owner.role == "owner" and verify_password(owner.password_hash, DEMO_PASSWORD)

    db.expunge_all()
    clients = list(
        (await db.execute(select(Client).where(Client.workspace_id == space.id))).scalars()
    )
    assert len(clients) == DEMO_CLIENTS
    assert all(c.first_name and c.last_name and c.email for c in clients)

    # the blind index finds a client by a differently written email
    index = PracticeBlindIndex(current_cipher())
    wanted = clients[3]
    assert wanted.email is not None
    found = (
        (
            await db.execute(
                select(Client.id).where(
                    Client.workspace_id == space.id,
                    Client.email_bidx == index.email(f"  {wanted.email.upper()} ", str(space.id)),
                )
            )
        )
        .scalars()
        .all()
    )
    assert found == [wanted.id]

    appointments = await db.scalar(
        select(func.count()).select_from(Appointment).where(Appointment.workspace_id == space.id)
    )
    notes = (
        (await db.execute(select(SessionNote).where(SessionNote.workspace_id == space.id)))
        .scalars()
        .all()
    )
    assert appointments and appointments >= 20
    finalized = [n for n in notes if n.status == "finalized"]
    drafts = [n for n in notes if n.status == "draft"]
    assert finalized and all(n.subjective and n.plan for n in finalized)
    assert drafts and all(n.subjective and n.finalized_at is None for n in drafts)
