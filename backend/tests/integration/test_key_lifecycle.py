"""Rotation → re-encryption → retirement → shredding, against real PostgreSQL and the real CLI."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.clients.models import Client
from carevault.crypto import FieldCipher, LocalFileProvider, envelope, install
from carevault.db.engine import create_engine
from carevault.lifecycle import reencrypt as job
from carevault.workspaces.keys import load_workspace_keys, provision
from tests.support.cli import invoke
from tests.support.db import RingHolder
from tests.support.keys import CLIENTS, headers, read_last_names, rotate_now, seed


async def test_reencrypt_moves_every_value_to_the_new_version_and_retire_then_succeeds(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    _url, engine, holder, ring_file = world
    workspace_id, names = await seed(engine, 30)
    # One value of the oldest format too, as written before practice keys existed.
    some_id = next(iter(names))
    legacy = envelope.seal_aesgcm(
        holder.ring.active_cipher, holder.ring.active_header, b"Legacy", b"clients.last_name"
    )
    async with engine.begin() as connection:
        await connection.execute(
            text("UPDATE clients SET last_name = :v WHERE id = :id"), {"v": legacy, "id": some_id}
        )
    names[some_id] = "Legacy"
    rotate_now(holder, ring_file)

    refused = await invoke(["keys", "retire", "1", "--yes"])
    assert refused.exit_code == 2, refused.output
    assert "clients.last_name: 29 value(s) of format 0x03 under version 1" in refused.output
    assert "clients.last_name: 1 value(s) of format 0x01 under version 1" in refused.output
    assert "run `carevault reencrypt` first" in refused.output

    dry = await invoke(["reencrypt", "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert "rows to rewrite: 30" in dry.output
    assert "target: format 0x03 under key version 2" in dry.output

    result = await invoke(["reencrypt", "--batch-size", "7"])
    assert result.exit_code == 0, result.output
    assert "Re-encrypted 30 row(s) (90 value(s))" in result.output
    assert set(await headers(engine)) == {(0x03, 2)}
    assert await read_last_names(engine, workspace_id) == names

    again = await invoke(["reencrypt"])
    assert "Re-encrypted 0 row(s)" in again.output
    retired = await invoke(["keys", "retire", "1", "--yes"])
    assert retired.exit_code == 0, retired.output
    assert "1 practice data key(s) of that version destroyed" in retired.output
    holder.ring = LocalFileProvider(ring_file).load()
    assert holder.ring.keys[1].material is None
    assert await read_last_names(engine, workspace_id) == names


async def test_reencrypt_skips_a_row_a_clinician_holds_and_a_rerun_finishes_it(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    _url, engine, holder, ring_file = world
    workspace_id, names = await seed(engine, 10)
    rotate_now(holder, ring_file)
    held = next(iter(names))
    async with engine.connect() as clinician:
        transaction = await clinician.begin()
        await clinician.execute(
            text("SELECT 1 FROM clients WHERE id = :id FOR UPDATE"), {"id": held}
        )
        started = time.monotonic()
        summary = await job.reencrypt(engine, batch_size=3, max_passes=2)
        assert time.monotonic() - started < 30  # waited on the held row only briefly
        assert summary.rows == 9 and summary.rows_left == 1
        await transaction.rollback()
    finished = await job.reencrypt(engine)
    assert finished.rows == 1 and finished.rows_left == 0
    assert set(await headers(engine)) == {(0x03, 2)}
    assert await read_last_names(engine, workspace_id) == names


async def test_a_row_held_through_every_skipping_pass_is_waited_for_by_the_last(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    """A note a clinician autosaves every few seconds can be locked each time a pass reaches
    it (the rotation-under-load test met it: three values left under the old version, and
    `keys retire` refused). The last pass waits for such a row instead of leaving it."""
    _url, engine, holder, ring_file = world
    workspace_id, names = await seed(engine, 10)
    rotate_now(holder, ring_file)
    held = next(iter(names))
    async with engine.connect() as clinician:
        transaction = await clinician.begin()
        await clinician.execute(
            text("SELECT 1 FROM clients WHERE id = :id FOR UPDATE"), {"id": held}
        )
        running = asyncio.create_task(job.reencrypt(engine, batch_size=3, max_passes=2))
        async with engine.connect() as observer:
            # Released once the job waits on it (or it ended without waiting: it then fails).
            while not running.done():
                waiting = await observer.scalar(
                    text(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                        "AND datname = current_database()"
                    )
                )
                await observer.rollback()
                if waiting:
                    break
                await asyncio.sleep(0.05)
        await transaction.rollback()
    summary = await running
    assert summary.rows == 10 and summary.rows_left == 0
    assert set(await headers(engine)) == {(0x03, 2)}
    assert await read_last_names(engine, workspace_id) == names


async def test_an_unopenable_value_is_reported_by_row_and_the_rest_go_on(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    _url, engine, holder, ring_file = world
    _workspace_id, names = await seed(engine, 5)
    broken = sorted(names)[2]
    async with engine.begin() as connection:
        await connection.execute(
            text(
                "UPDATE clients SET medical_history = set_byte(medical_history, 20, "
                "get_byte(medical_history, 20) # 1) WHERE id = :id"
            ),
            {"id": broken},
        )
    rotate_now(holder, ring_file)
    result = await invoke(["reencrypt"])
    assert result.exit_code == 1
    assert f"could not open clients.medical_history of row {broken}" in result.output
    assert "History" not in result.output
    assert "Re-encrypted 4 row(s)" in result.output


async def raw_values(engine: AsyncEngine, workspace_id: uuid.UUID) -> dict[uuid.UUID, bytes]:
    """The stored bytes of each client's last_name (no column type, no database opening)."""
    async with engine.connect() as connection:
        rows = await connection.execute(
            text("SELECT id, last_name FROM clients WHERE workspace_id = :w"), {"w": workspace_id}
        )
        return {row.id: bytes(row.last_name) for row in rows}


async def open_in_python(engine: AsyncEngine, workspace_id: uuid.UUID) -> dict[uuid.UUID, str]:
    """Each last_name opened by the Python reference, bound to the row it was read from."""
    from carevault.crypto import current_cipher

    cipher = current_cipher()
    cipher.data_keys.forget(workspace_id.bytes)
    async with AsyncSession(engine) as db:
        await load_workspace_keys(db, workspace_id)
    return {
        row_id: cipher.open(value, (workspace_id.bytes, row_id.bytes), b"clients.last_name")
        for row_id, value in (await raw_values(engine, workspace_id)).items()
    }


async def write_database_formats(
    engine: AsyncEngine, holder: RingHolder, workspace_id: uuid.UUID, names: dict[uuid.UUID, str]
) -> None:
    """Give two rows a 0x02 value (master key, column-bound) and two a 0x04 value (practice
    data key, row-bound), both by the Python reference of the pgcrypto SQL functions."""
    from carevault.crypto import current_cipher

    cipher = current_cipher()
    async with AsyncSession(engine) as db:
        await load_workspace_keys(db, workspace_id)
    data_key = cipher.data_keys.material(holder.ring, workspace_id.bytes, 1)
    master = holder.ring.material_for(1)
    assert data_key is not None and master is not None
    ids = sorted(names)
    rewritten: dict[uuid.UUID, bytes] = {}
    for row_id in ids[:2]:
        names[row_id] = f"Old {row_id.hex[:6]}"
        rewritten[row_id] = envelope.seal_cbc_hmac(
            master, 1, names[row_id].encode(), b"clients.last_name"
        )
    for row_id in ids[2:4]:
        names[row_id] = f"Bound {row_id.hex[:6]}"
        rewritten[row_id] = envelope.seal_cbc_hmac(
            data_key,
            1,
            names[row_id].encode(),
            workspace_id.bytes + row_id.bytes + b"clients.last_name",
            format_byte=envelope.FORMAT_PGCRYPTO_BOUND,
        )
    async with engine.begin() as connection:
        for row_id, value in rewritten.items():
            await connection.execute(
                text("UPDATE clients SET last_name = :v WHERE id = :id"),
                {"v": value, "id": row_id},
            )


async def test_reencrypt_rewrites_formats_02_and_04_to_03_under_the_application_backend(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    _url, engine, holder, ring_file = world
    workspace_id, names = await seed(engine, 8)
    await write_database_formats(engine, holder, workspace_id, names)
    before = await headers(engine)
    assert before[(0x02, 1)] == 2 and before[(0x04, 1)] == 2
    rotate_now(holder, ring_file)
    summary = await job.reencrypt(engine, batch_size=3)
    assert summary.unopenable == [] and summary.target_format == 0x03
    assert set(await headers(engine)) == {(0x03, 2)}
    assert await read_last_names(engine, workspace_id) == names


@pytest.fixture
async def pgcrypto_world(
    require_pgcrypto: None,
    world: tuple[str, AsyncEngine, RingHolder, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[AsyncEngine, RingHolder, Path]]:
    """`world` with CAREVAULT_PHI_BACKEND=pgcrypto (engine compiled for it)."""
    from carevault.crypto import PhiBackend

    url, _engine, holder, ring_file = world
    install(FieldCipher(holder), PhiBackend.PGCRYPTO)
    monkeypatch.setenv("CAREVAULT_PHI_BACKEND", "pgcrypto")
    engine = create_engine(url, pool_size=2)
    try:
        yield engine, holder, ring_file
    finally:
        await engine.dispose()
        install(FieldCipher(holder), PhiBackend.AESGCM)


async def test_reencrypt_under_pgcrypto_targets_04_and_rewrites_02_03_and_old_04(
    pgcrypto_world: tuple[AsyncEngine, RingHolder, Path],
) -> None:
    engine, holder, ring_file = pgcrypto_world
    workspace_id, names = await seed(engine, 8)  # written by the database: 0x04
    assert set(await headers(engine)) == {(0x04, 1)}
    await write_database_formats(engine, holder, workspace_id, names)
    # And one application-sealed 0x03 value, as written before the backend was switched.
    from carevault.crypto import current_cipher

    app_row = sorted(names)[5]
    names[app_row] = "Application"
    sealed = current_cipher().seal(
        "Application", (workspace_id.bytes, app_row.bytes), b"clients.last_name"
    )
    async with engine.begin() as connection:
        await connection.execute(
            text("UPDATE clients SET last_name = :v WHERE id = :id"), {"v": sealed, "id": app_row}
        )
    assert (await headers(engine))[(0x02, 1)] == 2
    rotate_now(holder, ring_file)

    dry = await invoke(["reencrypt", "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert "target: format 0x04 under key version 2" in dry.output
    assert "rows to rewrite: 8" in dry.output

    result = await invoke(["reencrypt", "--batch-size", "3"])
    assert result.exit_code == 0, result.output
    assert "to format 0x04 under key version 2" in result.output
    # Nothing left the database-side format; every value reads back, bound to its row.
    assert set(await headers(engine)) == {(0x04, 2)}
    assert await open_in_python(engine, workspace_id) == names
    again = await job.reencrypt(engine)
    assert again.rows == 0 and again.target_format == 0x04


BATCH = 10
KILLED_BATCH = 4  # batches 1-3 commit; the job dies inside batch 4's transaction
BLOCKER_LOCK = 872_346_001


async def test_reencrypt_killed_mid_run_loses_nothing_and_a_rerun_finishes(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    """`kill -9` of the real CLI while a batch transaction is open, its UPDATEs done and its
    COMMIT not yet sent: that batch rolls back whole, earlier batches stay, a rerun finishes.

    The pause is made by the database, not by a hook in the job: a row trigger on the last
    row of batch 4 waits for an advisory lock this test holds, so the job's UPDATE of that
    row (the last statement before COMMIT) cannot return until the job has been killed."""
    _url, engine, holder, ring_file = world
    workspace_id, names = await seed(engine, CLIENTS)
    last_of_batch = sorted(names)[KILLED_BATCH * BATCH - 1]
    async with engine.begin() as connection:
        await connection.execute(
            text(
                "CREATE FUNCTION cv_test_block() RETURNS trigger LANGUAGE plpgsql AS $$ "
                f"BEGIN PERFORM pg_advisory_xact_lock({BLOCKER_LOCK}); RETURN NEW; END $$"
            )
        )
        await connection.execute(
            text(
                "CREATE TRIGGER cv_test_block AFTER UPDATE ON clients FOR EACH ROW "
                f"WHEN (NEW.id = '{last_of_batch}') EXECUTE FUNCTION cv_test_block()"
            )
        )
    rotate_now(holder, ring_file)
    async with engine.connect() as blocker:
        await blocker.execute(text(f"SELECT pg_advisory_lock({BLOCKER_LOCK})"))
        await blocker.commit()
        process = subprocess.Popen(  # noqa: ASYNC220 (a real process, killed for real)
            [sys.executable, "-m", "carevault", "reencrypt", "--batch-size", str(BATCH)],
            env=os.environ.copy(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            waiting = None
            deadline = time.monotonic() + 60
            while waiting is None and time.monotonic() < deadline and process.poll() is None:
                waiting = (
                    await blocker.execute(
                        text(
                            "SELECT pid, query FROM pg_stat_activity WHERE datname = "
                            "current_database() AND wait_event_type = 'Lock' AND "
                            "wait_event = 'advisory' AND xact_start IS NOT NULL"
                        )
                    )
                ).first()
                await blocker.commit()
                if waiting is None:
                    await asyncio.sleep(0.02)
            assert waiting is not None, "the job never reached the last UPDATE of batch 4"
            assert waiting.query.lstrip().upper().startswith("UPDATE CLIENTS")
            os.kill(process.pid, signal.SIGKILL)
        finally:
            process.kill()
            process.wait(timeout=30)
        # The batch's UPDATEs are done but uncommitted: the open transaction holds them.
        await blocker.execute(text(f"SELECT pg_advisory_unlock({BLOCKER_LOCK})"))
        await blocker.commit()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the server notices the dead client, rolls back
            gone = await blocker.scalar(
                text("SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = :p"),
                {"p": waiting.pid},
            )
            await blocker.commit()
            if gone:
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the killed job's server session never ended")
    async with engine.begin() as connection:
        await connection.execute(text("DROP TRIGGER cv_test_block ON clients"))
    partial = await headers(engine)
    # Exactly the three committed batches moved (3 values a row); batch 4 rolled back whole.
    done = (KILLED_BATCH - 1) * BATCH * 3
    assert partial == {(0x03, 2): done, (0x03, 1): CLIENTS * 3 - done}
    assert await read_last_names(engine, workspace_id) == names
    rerun = await invoke(["reencrypt"])
    assert rerun.exit_code == 0, rerun.output
    assert f"Re-encrypted {CLIENTS - (KILLED_BATCH - 1) * BATCH} row(s)" in rerun.output
    assert set(await headers(engine)) == {(0x03, 2)}
    assert await read_last_names(engine, workspace_id) == names


async def test_shred_prompt_names_the_key_versions_before_asking(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    """The warning names the versions backups depend on itself, not only after the shred."""
    _url, engine, holder, _ring_file = world
    doomed, _ = await seed(engine, 1)
    async with AsyncSession(engine) as db:
        name = await db.scalar(text("SELECT name FROM workspaces WHERE id = :id"), {"id": doomed})
    live = ", ".join(str(v) for v, k in sorted(holder.ring.keys.items()) if not k.retired)
    typed_wrong = await invoke(["workspaces", "shred", "--workspace", name], stdin="nope\n")
    assert typed_wrong.exit_code == 2 and "nothing was shredded" in typed_wrong.output
    warning, _, _ = typed_wrong.output.partition("Type the practice's name")
    assert f"once key version(s) {live} are retired" in warning
    assert "listed below" not in typed_wrong.output
    async with AsyncSession(engine) as db:
        assert (
            await db.scalar(
                text("SELECT shredded_at FROM workspaces WHERE id = :id"), {"id": doomed}
            )
            is None
        )


async def test_rotate_help_states_the_default_and_the_minimum_delay() -> None:
    result = await invoke(["keys", "rotate", "--help"])
    text_ = " ".join(result.output.replace("│", " ").split())
    assert "default: the refresh interval + 2 x CAREVAULT_KEY_ACTIVATION_MARGIN_SECONDS" in text_
    assert "minimum: the refresh interval + the margin" in text_


async def test_shredding_a_practice_makes_its_phi_unreadable_and_leaves_others(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    _url, engine, holder, _ring_file = world
    doomed, _ = await seed(engine, 3)
    kept, kept_names = await seed(engine, 3)
    async with AsyncSession(engine) as db:
        name = await db.scalar(text("SELECT name FROM workspaces WHERE id = :id"), {"id": doomed})
    wrong = await invoke(["workspaces", "shred", "--workspace", name, "--confirm", "nope"])
    assert wrong.exit_code == 2 and "nothing was shredded" in wrong.output
    shredded = await invoke(["workspaces", "shred", "--workspace", name, "--confirm", name])
    assert shredded.exit_code == 0, shredded.output
    assert "2 key(s) destroyed (its data keys and blind-index key)" in shredded.output
    holder_cipher = FieldCipher(holder)  # a process that never had the keys cached
    install(holder_cipher)
    from carevault.workspaces.keys import WorkspaceShredded

    async with AsyncSession(engine) as db:
        with pytest.raises(WorkspaceShredded):
            await load_workspace_keys(db, doomed)
        await provision(db, holder.ring)  # provisioning never revives a shredded practice
        assert (
            await db.scalar(
                text("SELECT count(*) FROM workspace_keys WHERE workspace_id = :id"), {"id": doomed}
            )
            == 0
        )
    assert await read_last_names(engine, kept) == kept_names


async def test_blind_indexes_move_to_the_practice_key_and_search_works_throughout(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    """Rows from before practice keys carry indexes under the ring-wide key: search finds
    them and new rows alike; reencrypt recomputes them under the practice's own key; a
    rotation rewraps that key (indexes unchanged) so the old master version can retire."""
    from carevault.crypto import BlindIndex, PracticeBlindIndex, current_cipher
    from carevault.db.encryption import bound_changes

    _url, engine, holder, ring_file = world
    workspace_id, names = await seed(engine, 2)
    legacy_id, fresh_id = sorted(names)
    cipher = current_cipher()
    ring = holder.ring
    legacy_index = BlindIndex(cipher).email("old@example.org", str(workspace_id))
    async with AsyncSession(engine) as db, db.begin():
        await load_workspace_keys(db, workspace_id)
        # The legacy row: format 0x01 email and a ring-wide index, as before the upgrade.
        legacy_email = envelope.seal_aesgcm(
            ring.active_cipher, ring.active_header, b"old@example.org", b"clients.email"
        )
        await db.execute(
            text("UPDATE clients SET email = :e, email_bidx = :i WHERE id = :id"),
            {"e": legacy_email, "i": legacy_index, "id": legacy_id},
        )
        from sqlalchemy import update

        await db.execute(
            update(Client)
            .where(Client.id == fresh_id)
            .values(
                **bound_changes(Client, workspace_id, fresh_id, {"email": "new@example.org"}),
                email_bidx=PracticeBlindIndex(cipher).email("new@example.org", str(workspace_id)),
            )
        )

    async def found(email: str) -> list[uuid.UUID]:
        index = PracticeBlindIndex(cipher)
        async with AsyncSession(engine) as db:
            await load_workspace_keys(db, workspace_id)
            rows = await db.scalars(
                select(Client.id).where(
                    Client.workspace_id == workspace_id,
                    Client.email_bidx.in_(index.candidates("email", email, str(workspace_id))),
                )
            )
            return list(rows)

    assert await found("OLD@example.org ") == [legacy_id]
    assert await found("new@example.org") == [fresh_id]
    rotate_now(holder, ring_file)
    summary = await job.reencrypt(engine)
    assert summary.index_keys_rewrapped == 1
    async with AsyncSession(engine) as db:
        stored = await db.scalar(
            text("SELECT email_bidx FROM clients WHERE id = :id"), {"id": legacy_id}
        )
    practice_index = PracticeBlindIndex(current_cipher()).email(
        "old@example.org", str(workspace_id)
    )
    assert stored == practice_index != legacy_index
    assert await found("old@example.org") == [legacy_id]
    assert await found("new@example.org") == [fresh_id]
    retired = await invoke(["keys", "retire", "1", "--yes"])
    assert retired.exit_code == 0, retired.output
    install(FieldCipher(RingHolder(LocalFileProvider(ring_file).load())))
    assert await found("new@example.org") == [fresh_id]  # the rewrapped key opens under 2


async def test_retire_does_not_count_values_of_a_shredded_practice(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    """The shred runbook ends with rotate → reencrypt → retire; `reencrypt` leaves a shredded
    practice's rows alone (nothing can open them), so `retire` must not wait for them."""
    _url, engine, holder, ring_file = world
    doomed, _ = await seed(engine, 2)
    kept, kept_names = await seed(engine, 2)
    async with AsyncSession(engine) as db:
        name = await db.scalar(text("SELECT name FROM workspaces WHERE id = :id"), {"id": doomed})
    shredded = await invoke(["workspaces", "shred", "--workspace", name, "--confirm", name])
    assert shredded.exit_code == 0, shredded.output
    rotate_now(holder, ring_file)
    result = await invoke(["reencrypt"])
    assert result.exit_code == 0, result.output
    assert "Re-encrypted 2 row(s)" in result.output
    retired = await invoke(["keys", "retire", "1", "--yes"])
    assert retired.exit_code == 0, retired.output
    assert "still use key version 1" not in retired.output
    holder.ring = LocalFileProvider(ring_file).load()
    assert await read_last_names(engine, kept) == kept_names


async def test_dry_run_prints_counts_per_column_format_and_version_and_changes_nothing(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    import re

    _url, engine, holder, ring_file = world
    workspace_id, names = await seed(engine, 6)
    await write_database_formats(engine, holder, workspace_id, names)  # 2 x 0x02, 2 x 0x04
    rotate_now(holder, ring_file)
    from carevault.crypto import current_cipher

    async with AsyncSession(engine, expire_on_commit=False) as db, db.begin():
        await provision(db, holder.ring)
        current_cipher().data_keys.forget(workspace_id.bytes)
        await load_workspace_keys(db, workspace_id)
        extra = Client(
            workspace_id=workspace_id, first_name="New", last_name="Row", medical_history="x"
        )
        db.add(extra)  # sealed under version 2 already
    before = await headers(engine)

    dry = await invoke(["reencrypt", "--dry-run"])
    assert dry.exit_code == 0, dry.output
    rows = {
        (match[0], int(match[1], 16), int(match[2])): int(match[3])
        for match in re.findall(r"^(\S+\.\S+)\s+0x([0-9a-f]{2})\s+(\d+)\s+(\d+)$", dry.output, re.M)
    }
    assert rows == {
        ("clients.first_name", 0x03, 1): 6,
        ("clients.first_name", 0x03, 2): 1,
        ("clients.last_name", 0x02, 1): 2,
        ("clients.last_name", 0x03, 1): 2,
        ("clients.last_name", 0x04, 1): 2,
        ("clients.last_name", 0x03, 2): 1,
        ("clients.medical_history", 0x03, 1): 6,
        ("clients.medical_history", 0x03, 2): 1,
    }
    assert "rows to rewrite: 6 (clients 6," in dry.output
    assert await headers(engine) == before  # counted only


async def test_retire_force_destroys_a_version_still_in_use_and_says_what_it_strands(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    from carevault.crypto import DecryptionError, current_cipher

    _url, engine, holder, ring_file = world
    workspace_id, _names = await seed(engine, 4)
    rotate_now(holder, ring_file)
    async with AsyncSession(engine) as db, db.begin():
        await provision(db, holder.ring)

    forced = await invoke(["keys", "retire", "1", "--yes", "--force"])
    assert forced.exit_code == 0, forced.output
    assert "clients.last_name: 4 value(s) of format 0x03 under version 1" in forced.output
    assert "Key version 1 is retired" in forced.output
    assert "1 practice data key(s) of that version destroyed" in forced.output
    holder.ring = LocalFileProvider(ring_file).load()
    assert holder.ring.keys[1].retired and holder.ring.keys[1].material is None
    async with AsyncSession(engine) as db:
        versions = await db.scalars(
            text("SELECT key_version FROM workspace_keys WHERE workspace_id = :w"),
            {"w": workspace_id},
        )
        remaining = set(versions)
    assert 1 not in remaining and 2 in remaining  # (0 is the practice's blind-index key)
    # The values sealed under version 1 are now unreadable for good, and reported as such.
    with pytest.raises(DecryptionError):
        await read_last_names(engine, workspace_id)
    # A rerun of reencrypt reports them by row, and the practice's lost blind-index key,
    # instead of failing as a whole.
    current_cipher().data_keys.forget(workspace_id.bytes)
    rerun = await invoke(["reencrypt"])
    assert rerun.exit_code == 1, rerun.output
    assert "Re-encrypted 0 row(s)" in rerun.output
    assert rerun.output.count("could not open clients.") == 4
    assert f"blind-index key of practice {workspace_id} was wrapped under a retired" in (
        rerun.output
    )
    assert "Lovelace" not in rerun.output and "Last" not in rerun.output
