"""Tampering with the sealed audit trail, by the application's own database role and by a
superuser, and the exact finding `carevault audit verify` names for each; plus a checkpoint
store named explicitly with a file:// URL."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from carevault.audit.checkpoints import CHECKPOINT_FILE, Checkpoint, FileStore
from carevault.audit.sealing import key_id
from carevault.audit.verify import verify as verify_trail
from carevault.crypto.keyring import new_key_material
from carevault.db.engine import create_engine
from tests.support.audit import forged_seal
from tests.support.audit_trail import (
    as_runtime_role,
    event_ids,
    produce_events,
    seal_of,
    superuser_script,
    verify,
)
from tests.support.cli import carevault
from tests.support.db import NewDatabase, sql
from tests.support.http import ApiContext, running_api

GUESSED_KEY = b"a key that is not the ring's one" * 2


async def seal_rounds(api: ApiContext, rounds: int = 3) -> uuid.UUID:
    """A workspace whose chain has `rounds` seals (each `audit seal` seals new events)."""
    workspace = await produce_events(api, 2)
    assert (await carevault(api, "audit", "seal"))[0] == 0
    email = (await sql(api, "SELECT email FROM users WHERE workspace_id = $1", workspace))[0][
        "email"
    ]
    for _ in range(rounds - 1):
        async with api.signed_in(email) as client:
            await client.post("/auth/tokens", json={"name": "later"})
        assert (await carevault(api, "audit", "seal"))[0] == 0
    return workspace


async def checkpoint(api: ApiContext) -> str:
    """Write a checkpoint; return its created_at as verify prints it."""
    code, output = await carevault(api, "audit", "checkpoint")
    assert code == 0, output
    return latest_checkpoint(api.settings.data_dir / CHECKPOINT_FILE).created_at.isoformat()


def latest_checkpoint(path: Path) -> Checkpoint:
    return Checkpoint.parse(path.read_text().splitlines()[-1])


async def seals(api: ApiContext, workspace: uuid.UUID) -> list[asyncpg.Record]:
    return await sql(
        api,
        "SELECT id, seq, event_ids, total, prev_mac, mac FROM audit_seals WHERE workspace_id = $1 "
        "ORDER BY seq",
        workspace,
    )


def ids_of(seal: asyncpg.Record) -> list[int]:
    return [int(event_id) for event_id in seal["event_ids"]]


# ---- as the runtime role (owner of the audit tables, not a superuser) -----------------------


async def test_runtime_role_altering_a_sealed_event_is_named(audit_api: ApiContext) -> None:
    workspace = await seal_rounds(audit_api, 2)
    await checkpoint(audit_api)
    target = (await event_ids(audit_api, workspace))[1]
    seq = await seal_of(audit_api, target)
    async with as_runtime_role(audit_api) as attacker:
        await attacker.execute(
            "ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete"
        )
        await attacker.execute(
            "UPDATE audit_events SET action = 'auth.logout' WHERE id = $1", target
        )
        await attacker.execute(
            "ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update_delete"
        )
    code, output = await verify(audit_api)
    assert code == 1
    assert (
        f"BROKEN: workspace {workspace}: event {target} altered after sealing (seal {seq})"
        in output
    )
    assert "deleted" not in output and "trigger" not in output  # re-enabled: only the event


async def test_runtime_role_deleting_a_middle_event_is_named(audit_api: ApiContext) -> None:
    workspace = await seal_rounds(audit_api, 3)
    await checkpoint(audit_api)
    chain = await seals(audit_api, workspace)
    removed = ids_of(chain[1])[0]  # in the middle seal of three
    async with as_runtime_role(audit_api) as attacker:
        await attacker.execute("ALTER TABLE audit_events DISABLE TRIGGER USER")
        await attacker.execute("DELETE FROM audit_events WHERE id = $1", removed)
        await attacker.execute("ALTER TABLE audit_events ENABLE TRIGGER USER")
    code, output = await verify(audit_api)
    assert code == 1
    assert f"BROKEN: workspace {workspace}: event {removed} deleted (sealed in seal 2)" in output
    assert "tail deleted" not in output


async def test_runtime_role_rewriting_a_chain_is_caught(audit_api: ApiContext) -> None:
    """The owner alters an event and rebuilds every seal of its chain, consistently linked,
    with the right key id and correct digests (and content digests) in the seals' format, but
    without the ring's key."""
    workspace = await seal_rounds(audit_api, 3)
    when = await checkpoint(audit_api)
    target = (await event_ids(audit_api, workspace))[0]
    async with as_runtime_role(audit_api) as attacker:
        for table in ("audit_events", "audit_seals"):
            await attacker.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        await attacker.execute(
            "UPDATE audit_events SET action = 'auth.logout' WHERE id = $1", target
        )
        previous = b"\x00" * 32
        rows = await attacker.fetch(
            "SELECT * FROM audit_seals WHERE workspace_id = $1 ORDER BY seq", workspace
        )
        for row in rows:
            forged = await forged_seal(attacker, row, previous, GUESSED_KEY)
            await attacker.execute(
                "UPDATE audit_seals SET digests = $1, content_digest = $2, prev_mac = $3, "
                "mac = $4 WHERE workspace_id = $5 AND seq = $6",
                forged["digests"],
                forged["content_digest"],
                previous,
                forged["mac"],
                workspace,
                row["seq"],
            )
            previous = forged["mac"]
        for table in ("audit_events", "audit_seals"):
            await attacker.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    code, output = await verify(audit_api)
    assert code == 1
    for row in rows:
        ids = ids_of(row)
        assert (
            f"BROKEN: workspace {workspace}: seal {row['seq']} (id {row['id']}, events "
            f"{ids[0]}-{ids[-1]}): MAC does not verify under the audit key (forged, rewritten "
            "or altered); not trusted" in output
        )
    assert (
        f"BROKEN: workspace {workspace}: seal {rows[-1]['seq']} differs from the checkpoint of "
        f"{when} (chain rewritten)" in output
    )
    # The forged seals are trusted for nothing: not for their links, nor for their digests
    # (which match the altered row).
    assert "altered after sealing" not in output
    assert "does not follow" not in output


# ---- as a superuser --------------------------------------------------------------------------


async def test_superuser_disabling_the_triggers_to_delete_the_tail_is_caught(
    audit_api: ApiContext,
) -> None:
    workspace = await seal_rounds(audit_api, 3)
    when = await checkpoint(audit_api)
    chain = await seals(audit_api, workspace)
    kept_last = ids_of(chain[1])[-1]
    newest = ids_of(chain[2])
    await superuser_script(
        audit_api,
        "ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete;"
        "ALTER TABLE audit_seals DISABLE TRIGGER audit_seals_no_update_delete;"
        f"DELETE FROM audit_seals WHERE workspace_id = '{workspace}' AND seq = 3;"
        f"DELETE FROM audit_events WHERE id IN ({', '.join(map(str, newest))});"
        "ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update_delete;"
        "ALTER TABLE audit_seals ENABLE TRIGGER audit_seals_no_update_delete;",
    )
    code, output = await verify(audit_api)
    assert code == 1
    assert (
        f"BROKEN: workspace {workspace}: tail deleted: the checkpoint of {when} records "
        f"{chain[2]['total']} events up to event {newest[-1]} (seal 3); the database ends at "
        f"seal 2 (event {kept_last})" in output
    )


async def test_a_seal_whose_link_was_replaced_is_named_and_not_followed(
    audit_api: ApiContext,
) -> None:
    """The MAC covers the link: the altered seal is named and not trusted."""
    workspace = await seal_rounds(audit_api, 3)
    (altered,) = await sql(
        audit_api,
        "SELECT id, event_ids FROM audit_seals WHERE workspace_id = $1 AND seq = 2",
        workspace,
    )
    await superuser_script(
        audit_api,
        "SET session_replication_role = replica;"
        f"UPDATE audit_seals SET prev_mac = '\\x{'ab' * 32}' "
        f"WHERE workspace_id = '{workspace}' AND seq = 2;",
    )
    code, output = await verify(audit_api)
    assert code == 1
    ids = ids_of(altered)
    assert (
        f"BROKEN: workspace {workspace}: seal 2 (id {altered['id']}, events {ids[0]}-{ids[-1]}): "
        "MAC does not verify under the audit key (forged, rewritten or altered); not trusted"
        in output
    )


async def test_a_deleted_middle_seal_is_named_with_its_neighbouring_events(
    audit_api: ApiContext,
) -> None:
    workspace = await seal_rounds(audit_api, 4)
    chain = await seals(audit_api, workspace)
    await superuser_script(
        audit_api,
        "SET session_replication_role = replica;"
        f"DELETE FROM audit_seals WHERE workspace_id = '{workspace}' AND seq IN (2, 3);",
    )
    code, output = await verify(audit_api)
    assert code == 1
    assert (
        f"BROKEN: workspace {workspace}: seals 2-3 missing (between event "
        f"{ids_of(chain[0])[-1]} and event {ids_of(chain[3])[0]})" in output
    )
    # Their events are still there, behind the sealer and in no seal.
    orphaned = sorted(ids_of(chain[1]) + ids_of(chain[2]))
    assert f"BROKEN: events {orphaned[0]}, " in output and "were never sealed" in output


async def test_seals_made_under_another_audit_key_are_named(audit_api: ApiContext) -> None:
    """Verifying with a key that is not the one that sealed (a swapped or lost ring): every
    seal and the checkpoint are named, and none is taken for valid."""
    workspace = await seal_rounds(audit_api, 2)
    await checkpoint(audit_api)
    sealed_with = await sql(
        audit_api, "SELECT DISTINCT key_id FROM audit_seals WHERE workspace_id = $1", workspace
    )
    other = new_key_material()
    store = FileStore(audit_api.settings.data_dir / CHECKPOINT_FILE)
    engine = create_engine(audit_api.database_url, pool_size=1)
    try:
        async with engine.connect() as connection, connection.begin():
            database = str((await connection.exec_driver_sql("SELECT current_database()")).scalar())
            latest = store.latest(database)
            assert latest is not None
            report = await verify_trail(connection, other, checkpoint=latest)
    finally:
        await engine.dispose()
    messages = [str(finding) for finding in report.findings]
    assert not report.ok
    for seal in await seals(audit_api, workspace):
        ids = ids_of(seal)
        assert (
            f"BROKEN: workspace {workspace}: seal {seal['seq']} (id {seal['id']}, events "
            f"{ids[0]}-{ids[-1]}) was made under another audit key (key id "
            f"{bytes(sealed_with[0]['key_id']).hex()}, the ring's is {key_id(other).hex()}): "
            "MAC does not verify; not trusted" in messages
        )
    assert (
        f"BROKEN: the checkpoint of {latest.created_at.isoformat()} does not verify under the "
        "audit key (altered, or signed with another key)" in messages
    )


async def test_an_altered_checkpoint_does_not_verify(audit_api: ApiContext) -> None:
    """Someone with access to the checkpoint file lowers a chain's count to hide a deleted
    tail; the checkpoint's signature no longer verifies and it is not trusted."""
    workspace = await seal_rounds(audit_api, 2)
    when = await checkpoint(audit_api)
    path = audit_api.settings.data_dir / CHECKPOINT_FILE
    line = path.read_text().splitlines()[-1]
    total = int((await seals(audit_api, workspace))[-1]["total"])
    assert f'"count": {total},' in line
    path.write_text(line.replace(f'"count": {total},', f'"count": {total - 1},') + "\n")
    code, output = await verify(audit_api)
    assert code == 1
    assert (
        f"BROKEN: the checkpoint of {when} does not verify under the audit key (altered, or "
        "signed with another key)" in output
    )
    assert "Every chain is intact." not in output


# ---- CAREVAULT_AUDIT_CHECKPOINT_URL=file://… ------------------------------------------------


@pytest.fixture
async def file_store_api(
    new_database: NewDatabase, data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[ApiContext, Path]]:
    path = tmp_path / "elsewhere" / "checkpoints.jsonl"  # the folder does not exist yet
    monkeypatch.setenv("CAREVAULT_AUDIT_CHECKPOINT_URL", f"file://{path}")
    async with running_api(await new_database(), data_dir, audit_sealer=False) as context:
        yield context, path


async def test_an_explicit_file_url_is_the_checkpoint_store(
    file_store_api: tuple[ApiContext, Path],
) -> None:
    api, path = file_store_api
    workspace = await produce_events(api, 2)
    code, output = await carevault(api, "audit", "checkpoint")
    assert code == 0, output
    assert f"to file://{path}." in output
    assert path.stat().st_mode & 0o777 == 0o600 and len(path.read_text().splitlines()) == 1
    assert not (api.settings.data_dir / CHECKPOINT_FILE).exists()  # not the default
    when = latest_checkpoint(path).created_at.isoformat()

    code, output = await verify(api)
    assert code == 0 and f"against the checkpoint of {when}" in output
    ids = await event_ids(api, workspace)
    await superuser_script(
        api,
        "SET session_replication_role = replica;"
        f"DELETE FROM audit_seals WHERE workspace_id = '{workspace}';"
        f"DELETE FROM audit_events WHERE workspace_id = '{workspace}';",
    )
    code, output = await verify(api)
    assert code == 1
    assert (
        f"BROKEN: workspace {workspace}: tail deleted: the checkpoint of {when} records " in output
    )
    assert f"up to event {ids[-1]} (seal 1); the database holds no seal of it" in output


async def test_pruning_the_oldest_events_and_seals_is_reported_as_seals_missing(
    audit_api: ApiContext,
) -> None:
    """Why docs/how-to/audit-trail.md does not support deleting old rows: verification starts at
    seal 1, so a pruned beginning reads like any other removal."""
    workspace = await seal_rounds(audit_api, 2)
    await checkpoint(audit_api)
    chain = await seals(audit_api, workspace)
    pruned = ids_of(chain[0])
    await superuser_script(
        audit_api,
        "SET session_replication_role = replica;"
        f"DELETE FROM audit_seals WHERE workspace_id = '{workspace}' AND seq = 1;"
        f"DELETE FROM audit_events WHERE id IN ({', '.join(map(str, pruned))});",
    )
    code, output = await verify(audit_api)
    assert code == 1
    assert (
        f"BROKEN: workspace {workspace}: seals 1-1 missing (between the start and event "
        f"{ids_of(chain[1])[0]})" in output
    )


async def test_an_event_hidden_behind_the_sealer_is_named_even_when_the_counts_agree(
    audit_api: ApiContext,
) -> None:
    """A full verify counts events behind the frontier instead of running two set queries when
    every sealed event is accounted for; moving a sealed event's txid past the frontier and
    inserting one behind it keeps the count equal, and must still be caught."""
    workspace = await seal_rounds(audit_api, 2)
    moved = (await event_ids(audit_api, workspace))[-1]  # last in sealing order: stays last
    await superuser_script(
        audit_api,
        "SET session_replication_role = replica;"
        f"UPDATE audit_events SET txid = txid + 1000000000000 WHERE id = {moved};",
    )
    hidden = await sql(
        audit_api,
        "INSERT INTO audit_events (workspace_id, action, txid) VALUES ($1, 'client.read', 1) "
        "RETURNING id",
        workspace,
    )
    code, output = await verify(audit_api)
    assert code == 1
    assert (
        f"BROKEN: events {hidden[0]['id']} were never sealed although the sealer has passed "
        "them (inserted behind its back, or their seal does not verify)" in output
    )
