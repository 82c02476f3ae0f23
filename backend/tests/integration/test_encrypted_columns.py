"""EncryptedString against real PostgreSQL, schema from `alembic upgrade head`."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.clients.models import ChartAccessGrant, Client
from carevault.crypto import DecryptionError, KeyRing, current_cipher
from carevault.crypto.types import EncryptedString
from carevault.db.models import Base
from carevault.exports.models import ExportJob
from carevault.idempotency.models import IdempotencyRecord
from carevault.notes.models import SessionNote
from carevault.webhooks.models import WebhookEndpoint
from carevault.workspaces.keys import load_workspace_keys, provision
from carevault.workspaces.models import Workspace
from tests.support import factories
from tests.support.db import RingHolder

ENCRYPTED_COLUMNS = sorted(
    (table.name, column.name)
    for table in Base.metadata.sorted_tables
    for column in table.columns
    if isinstance(column.type, EncryptedString)
)


Model = TypeVar("Model", Client, SessionNote)


async def reread(db: AsyncSession, model: type[Model], row_id: uuid.UUID) -> Model:
    db.expunge_all()
    return (await db.execute(select(model).where(model.id == row_id))).scalar_one()


@pytest.mark.parametrize(
    "value",
    ["", "Zoë Ångström — 患者 🩺", "s" * 5000, "ü" * 5000],
    ids=["empty", "unicode", "5000-ascii", "5000-two-byte"],
)
async def test_round_trip_through_postgres(db: AsyncSession, value: str) -> None:
    space = await factories.workspace(db)
    row = await factories.note(db, space, await factories.client(db, space), subjective=value)
    loaded = await reread(db, SessionNote, row.id)
    assert loaded.subjective == value


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=st.text(max_size=500))
async def test_round_trip_property_through_postgres(db: AsyncSession, value: str) -> None:
    space = await factories.workspace(db)
    row = await factories.client(db, space, notes=value.replace("\x00", ""))
    loaded = await reread(db, Client, row.id)
    assert loaded.notes == value.replace("\x00", "")


def test_every_phi_column_of_the_issue_is_encrypted() -> None:
    expected = (
        {
            ("clients", c)
            for c in (
                "first_name",
                "last_name",
                "email",
                "phone",
                "date_of_birth",
                "address",
                "emergency_contact_name",
                "emergency_contact_phone",
                "medical_history",
                "notes",
            )
        }
        | {("appointments", "location"), ("appointments", "notes")}
        | {
            (t, c)
            for t in ("sessions", "session_versions")
            for c in ("subjective", "objective", "assessment", "plan")
        }
    )
    assert expected <= set(ENCRYPTED_COLUMNS)


async def test_raw_select_of_every_encrypted_column_shows_no_plaintext(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    integrator = {"external_id": "crm-Lovelace", "metadata_json": '{"crm":"Babbage"}'}
    person = await factories.client(db, space, **integrator)
    booked = await factories.appointment(db, space, person)
    booked.external_id, booked.metadata_json = "sched-Lovelace", '{"room":"Room 2"}'
    await factories.note(db, space, person, **integrator)
    await db.execute(
        text(
            "INSERT INTO session_versions (id, workspace_id, session_id, version, amended_at, "
            "subjective) SELECT gen_random_uuid(), workspace_id, id, 1, now(), subjective "
            "FROM sessions WHERE workspace_id = :w"
        ),
        {"w": space.id},
    )
    now = datetime.now(UTC)
    db.add(
        IdempotencyRecord(
            workspace_id=space.id,
            caller_hash=b"c" * 32,
            key_hash=b"k" * 32,
            request_hash=b"r" * 32,
            created_at=now,
            expires_at=now + timedelta(days=1),
            response_status=201,
            response_body='{"first_name":"Ada","last_name":"Lovelace"}',
        )
    )
    reader = await factories.user(db, space)
    db.add(
        ChartAccessGrant(
            workspace_id=space.id,
            client_id=person.id,
            user_id=reader.id,
            reason="Ada Lovelace has low mood, covering",
            granted_at=now,
            expires_at=now + timedelta(hours=1),
        )
    )
    db.add(
        WebhookEndpoint(
            workspace_id=space.id,
            url="https://sync.example.org/hook",
            event_types=["*"],
            secret="whsec_PlainSecretNeverStored",
        )
    )
    db.add(
        ExportJob(
            workspace_id=space.id,
            status="queued",
            resource_types=["Patient"],
            file_key="ab" * 32,
            progress={},
        )
    )
    await db.flush()
    plaintexts = [
        "PlainSecretNeverStored",
        "Ada",
        "Lovelace",
        "ada@example.org",
        "7946",
        "1990-12-10",
        "Analytical",
        "Babbage",
        "Migraine",
        "afternoon",
        "Room 2",
        "referral",
        "low mood",
        "Flat affect",
        "depressive",
        "CBT",
        "crm-",
        "sched-",
        "abab",
    ]
    for table, column in ENCRYPTED_COLUMNS:
        values = (
            (
                await db.execute(
                    text(
                        f"SELECT {column} FROM {table} "
                        f"WHERE workspace_id = :w AND {column} IS NOT NULL"
                    ),
                    {"w": space.id},
                )
            )
            .scalars()
            .all()
        )
        if table != "session_versions" or column == "subjective":
            assert values, f"{table}.{column} has no row to check"
        for value in values:
            assert isinstance(value, bytes), f"{table}.{column} is not bytea"
            assert value[0] == 0x03
            for plaintext in plaintexts:
                assert plaintext.encode() not in value, f"{table}.{column} leaks {plaintext!r}"


async def test_a_flipped_byte_in_the_database_raises(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    row = await factories.client(db, space)
    await db.execute(
        text(
            "UPDATE clients SET last_name = set_byte(last_name, 20, get_byte(last_name, 20) # 1)"
            " WHERE id = :id"
        ),
        {"id": row.id},
    )
    with pytest.raises(DecryptionError, match="authentication failed"):
        await reread(db, Client, row.id)


async def test_a_value_moved_to_another_column_raises(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    row = await factories.client(db, space)
    await db.execute(
        text("UPDATE clients SET last_name = first_name WHERE id = :id"), {"id": row.id}
    )
    with pytest.raises(DecryptionError, match="authentication failed"):
        await reread(db, Client, row.id)


async def test_a_value_moved_to_the_same_column_of_another_table_raises(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    person = await factories.client(db, space)
    appointment = await factories.appointment(db, space, person)
    await db.execute(
        text(
            "UPDATE appointments SET notes = (SELECT notes FROM clients WHERE id = :c) "
            "WHERE id = :a"
        ),
        {"c": person.id, "a": appointment.id},
    )
    db.expunge_all()
    from carevault.appointments.models import Appointment

    with pytest.raises(DecryptionError):
        await db.execute(select(Appointment).where(Appointment.id == appointment.id))


async def rotate(
    db: AsyncSession, ring_holder: RingHolder, ring: KeyRing, space: Workspace
) -> None:
    """Swap in `ring` the way a refresh does, with the practice's new data key provisioned."""
    ring_holder.ring = ring
    await provision(db, ring)
    current_cipher().data_keys.forget(space.id.bytes)
    await load_workspace_keys(db, space.id)


async def test_unknown_and_retired_versions_raise(
    db: AsyncSession, ring_holder: RingHolder
) -> None:
    space = await factories.workspace(db)
    original = ring_holder.ring
    row = await factories.client(db, space)
    await rotate(db, ring_holder, original.rotated(), space)
    newer = await factories.client(db, space, first_name="Grace")
    ring_holder.ring = original  # a ring that has never heard of version 2
    with pytest.raises(DecryptionError, match="version 2 is not in the key ring"):
        await reread(db, Client, newer.id)
    ring_holder.ring = KeyRing.from_json(original.rotated().to_json()).with_retired(1)
    with pytest.raises(DecryptionError, match="version 1 is retired"):
        await reread(db, Client, row.id)


async def test_rotation_changes_new_writes_and_old_rows_still_read(
    db: AsyncSession, ring_holder: RingHolder
) -> None:
    space = await factories.workspace(db)
    old = await factories.client(db, space, first_name="Before")
    await rotate(db, ring_holder, ring_holder.ring.rotated(), space)
    new = await factories.client(db, space, first_name="After")
    versions: dict[uuid.UUID, bytes] = dict(
        (
            await db.execute(
                text(
                    "SELECT id, substring(first_name FROM 2 FOR 4) FROM clients "
                    "WHERE workspace_id = :w"
                ),
                {"w": space.id},
            )
        ).all()
    )
    assert int.from_bytes(versions[old.id], "big") == 1
    assert int.from_bytes(versions[new.id], "big") == 2
    assert (await reread(db, Client, old.id)).first_name == "Before"
    assert (await reread(db, Client, new.id)).first_name == "After"


async def test_encrypted_date_round_trips_and_rejects_wrong_types(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    row = await factories.client(db, space, date_of_birth=date(1984, 2, 29))
    assert (await reread(db, Client, row.id)).date_of_birth == date(1984, 2, 29)
    db.add(Client(workspace_id=space.id, first_name="X", last_name="Y", date_of_birth="1984"))
    with pytest.raises(Exception, match="expected date"):
        await db.flush()
    await db.rollback()


async def test_null_stays_null(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    row = await factories.client(db, space, notes=None)
    raw = await db.scalar(text("SELECT notes FROM clients WHERE id = :id"), {"id": row.id})
    assert raw is None
    assert (await reread(db, Client, row.id)).notes is None


async def test_a_value_moved_to_another_row_of_the_same_practice_raises(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    source = await factories.client(db, space, medical_history="Asthma")
    target = await factories.client(db, space, medical_history="None known")
    await db.execute(
        text(
            "UPDATE clients SET medical_history = (SELECT medical_history FROM clients "
            "WHERE id = :s) WHERE id = :t"
        ),
        {"s": source.id, "t": target.id},
    )
    with pytest.raises(DecryptionError, match="authentication failed"):
        await reread(db, Client, target.id)
    assert (await reread(db, Client, source.id)).medical_history == "Asthma"


async def test_a_value_moved_into_another_practice_raises(db: AsyncSession) -> None:
    """The attack of the issue: copy one practice's PHI into a row another practice reads."""
    ours, theirs = await factories.workspace(db), await factories.workspace(db)
    victim = await factories.client(db, theirs, medical_history="Their secret")
    decoy = await factories.client(db, ours, medical_history="Ours")
    await db.execute(
        text(
            "UPDATE clients SET medical_history = (SELECT medical_history FROM clients "
            "WHERE id = :v) WHERE id = :d"
        ),
        {"v": victim.id, "d": decoy.id},
    )
    with pytest.raises(DecryptionError):
        await reread(db, Client, decoy.id)


async def test_a_row_moved_to_another_practice_whole_raises(db: AsyncSession) -> None:
    """Re-parenting the row itself (changing its workspace_id) also breaks every value."""
    ours, theirs = await factories.workspace(db), await factories.workspace(db)
    victim = await factories.client(db, theirs)
    await db.execute(
        text("UPDATE clients SET workspace_id = :w WHERE id = :id"), {"w": ours.id, "id": victim.id}
    )
    with pytest.raises(DecryptionError):
        await reread(db, Client, victim.id)


async def test_core_writes_must_bind_their_row(db: AsyncSession) -> None:
    """Every write path binds the row or is refused loudly: Core insert, executemany, Core
    update without binding all fail; with `bound_rows`/`bound_changes` they work."""
    from sqlalchemy import Table, insert, update

    from carevault.crypto import UnboundValueError
    from carevault.db.encryption import bound_changes, bound_rows

    space = await factories.workspace(db)
    row: dict[str, Any] = {
        "id": uuid.uuid4(),
        "workspace_id": space.id,
        "first_name": "A",
        "last_name": "B",
    }
    client_table = Client.__table__
    assert isinstance(client_table, Table)
    attempts: list[Callable[[], Awaitable[object]]] = [
        lambda: db.execute(insert(Client).values(**row)),
        lambda: db.execute(insert(Client), [row, {**row, "id": uuid.uuid4()}]),
        lambda: db.execute(insert(client_table), [row]),
        lambda: db.execute(update(Client).where(Client.id == row["id"]).values(first_name="Z")),
    ]
    for attempt in attempts:
        async with db.begin_nested():
            with pytest.raises(Exception) as refused:
                await attempt()
            assert isinstance(refused.value.__cause__ or refused.value, UnboundValueError) or (
                "bound to its row" in str(refused.value)
            )
    await db.execute(insert(Client), bound_rows(Client, [row]))
    await db.execute(
        update(Client)
        .where(Client.id == row["id"])
        .values(**bound_changes(Client, space.id, row["id"], {"first_name": "Zed"}))
    )
    loaded = await reread(db, Client, row["id"])
    assert (loaded.first_name, loaded.last_name) == ("Zed", "B")


async def test_a_value_bound_to_another_row_cannot_be_written_through_core(
    db: AsyncSession,
) -> None:
    """bound_changes rebinds: a value read from row A and written to row B reads back at B."""
    from sqlalchemy import update

    from carevault.db.encryption import bound_changes

    space = await factories.workspace(db)
    first = await factories.client(db, space, notes="copied text")
    second = await factories.client(db, space, notes="original")
    copied = (await reread(db, Client, first.id)).notes
    await db.execute(
        update(Client)
        .where(Client.id == second.id)
        .values(**bound_changes(Client, space.id, second.id, {"notes": copied}))
    )
    assert (await reread(db, Client, second.id)).notes == "copied text"


async def test_legacy_column_bound_values_stay_readable(
    db: AsyncSession, ring_holder: RingHolder
) -> None:
    """Values of format 0x01 (written before practice keys existed) still open."""
    from carevault.crypto import envelope

    space = await factories.workspace(db)
    row = await factories.client(db, space)
    ring = ring_holder.ring
    legacy = envelope.seal_aesgcm(
        ring.active_cipher, ring.active_header, b"Legacy Name", b"clients.last_name"
    )
    await db.execute(
        text("UPDATE clients SET last_name = :v WHERE id = :id"), {"v": legacy, "id": row.id}
    )
    assert (await reread(db, Client, row.id)).last_name == "Legacy Name"
