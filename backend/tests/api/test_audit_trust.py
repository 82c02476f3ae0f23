"""Issue 23: seals inserted without the audit key (the runtime role keeps INSERT on
audit_seals) cannot stall or mislead sealing, readiness, checkpoints or `verify`; and a
checkpoint store that was emptied or rewound is noticed, never silently restarted."""

from __future__ import annotations

import asyncio
import json
import secrets
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import httpx
import pytest

from carevault.api import readiness as health
from carevault.audit.checkpoints import CHECKPOINT_FILE, Checkpoint
from carevault.audit.sealing import key_id
from carevault.auth.models import Role
from carevault.crypto import LocalFileProvider
from tests.support.audit_trail import event_ids, produce_events, verify
from tests.support.cli import carevault
from tests.support.db import NewDatabase, libpq_dsn, sql
from tests.support.http import ApiContext, running_api

HUGE_TXID = 9_000_000_000_000_000
METRICS_TOKEN = "metrics-token-for-trust-tests"


@asynccontextmanager
async def insert_only_role(api: ApiContext) -> AsyncIterator[asyncpg.Connection]:
    """A connection acting as a role with what the runtime role has on audit_seals: SELECT
    and INSERT, nothing else (no owner rights, no UPDATE or DELETE)."""
    role = f"cv_ins_{uuid.uuid4().hex[:8]}"
    connection = await asyncpg.connect(libpq_dsn(api.database_url))
    try:
        await connection.execute(f"CREATE ROLE {role} NOLOGIN NOSUPERUSER")
        await connection.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
        await connection.execute(f"GRANT SELECT, INSERT ON audit_seals TO {role}")
        await connection.execute(f"SET ROLE {role}")
        yield connection
    finally:
        await connection.execute("RESET ROLE")
        await connection.execute(f"DROP OWNED BY {role}")
        await connection.execute(f"DROP ROLE {role}")
        await connection.close()


def ring_key_id(api: ApiContext) -> bytes:
    key = LocalFileProvider(api.settings.data_dir / "keyring.json").load().audit_key
    assert key is not None
    return key_id(key)


async def forge_empty_seal(api: ApiContext, fingerprint: bytes | None = None) -> int:
    """The issue's attack: one INSERT of a seal with a huge txid_to and no events."""
    async with insert_only_role(api) as attacker:
        return int(
            await attacker.fetchval(
                "INSERT INTO audit_seals (workspace_id, seq, event_ids, digests, total, "
                "prev_mac, mac, key_id, txid_from, txid_to, format) VALUES ($1, 1, '{}', "
                "'', 0, $2, $3, $4, 0, $5, 2) RETURNING id",
                uuid.uuid4(),
                b"\x00" * 32,
                secrets.token_bytes(32),
                fingerprint if fingerprint is not None else secrets.token_bytes(8),
                HUGE_TXID,
            )
        )


async def seals_of(api: ApiContext, workspace: uuid.UUID) -> list[asyncpg.Record]:
    return await sql(
        api,
        "SELECT id, seq, event_ids, prev_mac, mac FROM audit_seals WHERE workspace_id = $1 "
        "ORDER BY seq",
        workspace,
    )


async def sealed(api: ApiContext) -> set[int]:
    rows = await sql(api, "SELECT unnest(event_ids) AS id FROM audit_seals")
    return {int(row["id"]) for row in rows}


async def more_events(api: ApiContext, workspace: uuid.UUID) -> None:
    email = (await sql(api, "SELECT email FROM users WHERE workspace_id = $1", workspace))[0][
        "email"
    ]
    async with api.signed_in(email) as client:
        assert (await client.get("/auth/me")).status_code == 200


# ---- seals inserted without the key ------------------------------------------------------


async def test_a_forged_seal_with_a_huge_txid_stops_neither_sealing_nor_checkpoints(
    audit_api: ApiContext,
) -> None:
    workspace = await produce_events(audit_api, 2)
    assert (await carevault(audit_api, "audit", "seal"))[0] == 0
    forged = await forge_empty_seal(audit_api)

    await more_events(audit_api, workspace)
    code, output = await carevault(audit_api, "audit", "seal")
    assert code == 0, output
    # Sealing went on past the forged frontier: every event is in a seal.
    assert set(await event_ids(audit_api, workspace)) <= await sealed(audit_api)

    # Readiness names it and is not "ready"; the lag counts from the genuine frontier.
    report = await health.readiness(audit_api.app.state.carevault)
    assert report.status == "degraded" and "audit_sealing" in report.reasons
    assert report.audit.untrusted_seals == 1
    assert report.audit.error is not None
    assert f"(ids {forged})" in report.audit.error
    assert "MAC does not verify" in report.audit.error

    # Checkpoints record verified heads only, and the next one still reads the store.
    for _ in range(2):
        code, output = await carevault(audit_api, "audit", "checkpoint")
        assert code == 0, output
    lines = (audit_api.settings.data_dir / CHECKPOINT_FILE).read_text().splitlines()
    newest = json.loads(lines[-1])
    assert all(chain["last_event_id"] is not None for chain in newest["chains"])
    forged_chain = (
        await sql(audit_api, "SELECT workspace_id FROM audit_seals WHERE id = $1", forged)
    )[0]["workspace_id"]
    assert str(forged_chain) not in {chain["workspace_id"] for chain in newest["chains"]}

    code, output = await verify(audit_api)
    assert code == 1, output
    assert f"seal 1 (id {forged}, no events) was made under another audit key (key id " in output
    assert "MAC does not verify; not trusted" in output
    assert "1 problem(s) found." in output  # no genuine event or seal is blamed


async def test_a_forged_seal_with_the_real_key_id_over_real_events_blames_no_event(
    audit_api: ApiContext,
) -> None:
    """The variant: a seal at the head of a real chain, with the ring's key id, listing real
    events and a txid range that covers them (so the frontier would jump past newer ones)."""
    workspace = await produce_events(audit_api, 2)
    assert (await carevault(audit_api, "audit", "seal"))[0] == 0
    (genuine,) = await seals_of(audit_api, workspace)
    async with insert_only_role(audit_api) as attacker:
        forged = int(
            await attacker.fetchval(
                "INSERT INTO audit_seals (workspace_id, seq, event_ids, digests, total, "
                "prev_mac, mac, key_id, txid_from, txid_to, format) "
                "SELECT workspace_id, 2, event_ids, digests, total * 2, mac, $2, key_id, "
                "txid_from, $3, 2 FROM audit_seals WHERE id = $1 RETURNING id",
                genuine["id"],
                secrets.token_bytes(32),
                HUGE_TXID,
            )
        )
    assert bytes(
        (await sql(audit_api, "SELECT key_id FROM audit_seals WHERE id = $1", forged))[0]["key_id"]
    ) == ring_key_id(audit_api)

    await more_events(audit_api, workspace)
    assert (await carevault(audit_api, "audit", "seal"))[0] == 0
    assert set(await event_ids(audit_api, workspace)) <= await sealed(audit_api)
    chain = await seals_of(audit_api, workspace)
    # The next genuine seal takes the first free number and links to the genuine head.
    assert [row["seq"] for row in chain] == [1, 2, 3]
    assert chain[2]["prev_mac"] == genuine["mac"]

    report = await health.readiness(audit_api.app.state.carevault)
    assert report.status != "ready" and report.audit.untrusted_seals == 1

    code, output = await verify(audit_api)
    assert code == 1, output
    ids = [int(i) for i in genuine["event_ids"]]
    assert (
        f"BROKEN: workspace {workspace}: seal 2 (id {forged}, events {ids[0]}-{ids[-1]}): MAC "
        "does not verify under the audit key" in output
    )
    # The one problem: nothing about the events it lists, nor the seals around it.
    assert "1 problem(s) found." in output
    assert [line for line in output.splitlines() if line.startswith("BROKEN")] == [
        line for line in output.splitlines() if f"(id {forged}," in line
    ]


async def test_forged_seals_holding_the_next_and_the_last_sequence_numbers_stall_nothing(
    audit_api: ApiContext,
) -> None:
    """Rows at seq head+1 and at the largest bigint of a real chain: the next genuine seal
    takes the first free number after its genuine head (head+2), never max + 1."""
    workspace = await produce_events(audit_api, 2)
    assert (await carevault(audit_api, "audit", "seal"))[0] == 0
    (genuine,) = await seals_of(audit_api, workspace)
    async with insert_only_role(audit_api) as attacker:
        for seq in (2, 2**63 - 1):  # behind the frontier (txid_to 1)
            await attacker.execute(
                "INSERT INTO audit_seals (workspace_id, seq, event_ids, digests, total, "
                "prev_mac, mac, key_id, txid_from, txid_to, format) VALUES ($1, $2, '{}', '', "
                "0, $3, $4, $5, 0, 1, 2)",
                workspace,
                seq,
                genuine["mac"],
                secrets.token_bytes(32),
                ring_key_id(audit_api),
            )
    await more_events(audit_api, workspace)
    code, output = await carevault(audit_api, "audit", "seal")
    assert code == 0, output
    assert set(await event_ids(audit_api, workspace)) <= await sealed(audit_api)
    chain = await seals_of(audit_api, workspace)
    assert [row["seq"] for row in chain] == [1, 2, 3, 2**63 - 1]
    assert chain[2]["prev_mac"] == genuine["mac"]
    code, output = await verify(audit_api)
    assert code == 1 and "2 problem(s) found." in output, output
    assert output.count("MAC does not verify") == 2

    # Behind the frontier, they are found by the checkpoint writer, which checks every new
    # seal's MAC and records what it found: readiness reports them from then on.
    forged = [row["id"] for row in chain if row["seq"] in (2, 2**63 - 1)]
    report = await health.readiness(audit_api.app.state.carevault)
    assert report.audit.untrusted_seals == 0
    assert (await carevault(audit_api, "audit", "checkpoint"))[0] == 0
    report = await health.readiness(audit_api.app.state.carevault)
    assert report.status == "degraded" and report.audit.untrusted_seals == 2
    assert f"(ids {max(forged)}, {min(forged)})" in (report.audit.error or "")


def metrics_client(api: ApiContext) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=api.app),
        base_url="http://testserver",
        headers={"Authorization": f"Bearer {METRICS_TOKEN}"},
    )


async def test_the_app_keeps_sealing_past_a_forged_seal_and_reports_it(
    new_database: NewDatabase, data_dir: Path
) -> None:
    async with running_api(
        await new_database(),
        data_dir,
        audit_seal_interval_seconds=0.05,
        metrics_token=METRICS_TOKEN,
    ) as api:
        space, (owner,) = await api.workspace_with_users(None, Role.OWNER)
        forged = await forge_empty_seal(api)
        async with api.signed_in(owner) as client:
            for _ in range(3):
                assert (await client.get("/auth/me")).status_code == 200
        wanted = set(await event_ids(api, space.id))
        for _ in range(400):  # bounded: the sealer runs every 0.05 s
            if wanted <= await sealed(api):
                break
            await asyncio.sleep(0.05)
        assert wanted <= await sealed(api)
        sealer = api.app.state.carevault.audit_sealer
        for _ in range(400):  # the lag of a round that ran after the last events were sealed
            lag = sealer.status.lag
            if lag is not None and lag.unsealed_events == 0:
                break
            await asyncio.sleep(0.05)
        async with api.signed_in(owner) as client:
            ready = (await client.get("/system/readiness")).json()
        async with metrics_client(api) as client:
            metrics = (await client.get("/metrics")).text
    assert ready["status"] == "degraded" and "audit_sealing" in ready["reasons"]
    assert ready["audit"]["untrusted_seals"] == 1
    assert f"(ids {forged})" in ready["audit"]["error"]
    assert "carevault_audit_untrusted_seals 1.0" in metrics
    assert "carevault_audit_sealer_healthy 0.0" in metrics


# ---- a checkpoint store emptied, rewound or never written ---------------------------------


def checkpoint_file(api: ApiContext) -> Path:
    return api.settings.data_dir / CHECKPOINT_FILE


async def checkpointed_twice(api: ApiContext) -> tuple[uuid.UUID, list[str]]:
    workspace = await produce_events(api, 2)
    assert (await carevault(api, "audit", "checkpoint"))[0] == 0
    await more_events(api, workspace)
    assert (await carevault(api, "audit", "checkpoint"))[0] == 0
    lines = checkpoint_file(api).read_text().splitlines()
    assert len(lines) == 2
    return workspace, lines


async def test_a_deleted_checkpoint_file_fails_verify_and_is_not_restarted_silently(
    audit_api: ApiContext,
) -> None:
    _, lines = await checkpointed_twice(audit_api)
    newest = Checkpoint.parse(lines[-1]).created_at.isoformat()
    checkpoint_file(audit_api).unlink()

    code, output = await verify(audit_api)
    assert code == 1, output
    assert (
        f"holds no checkpoint for this database, but the database records one written at "
        f"{newest}" in output
    )
    assert "Every chain is intact." not in output

    code, output = await carevault(audit_api, "audit", "checkpoint")
    assert code == 1 and "refusing to write a checkpoint over it" in output
    assert "--start-new-chain" in output
    assert not checkpoint_file(audit_api).exists()

    code, output = await carevault(audit_api, "audit", "checkpoint", "--start-new-chain")
    assert code == 0, output
    code, output = await verify(audit_api)
    assert code == 0 and "Every chain is intact." in output


async def test_a_checkpoint_file_replaced_by_its_older_lines_fails_verify(
    audit_api: ApiContext,
) -> None:
    _, lines = await checkpointed_twice(audit_api)
    older, newest = (Checkpoint.parse(line).created_at.isoformat() for line in lines)
    checkpoint_file(audit_api).write_text(lines[0] + "\n")

    code, output = await verify(audit_api)
    assert code == 1, output
    assert (
        f"the newest checkpoint in file://{checkpoint_file(audit_api)} ({older}) is older than "
        f"the one the database records ({newest}" in output
    )
    code, output = await carevault(audit_api, "audit", "checkpoint")
    assert code == 1 and "the store was rewound" in output


async def test_a_checkpoint_record_inserted_without_the_key_is_ignored(
    audit_api: ApiContext,
) -> None:
    """The runtime role can INSERT into audit_checkpoints too: a made-up "newer checkpoint"
    would otherwise make the real store look rewound and stop checkpoints."""
    await checkpointed_twice(audit_api)
    await sql(
        audit_api,
        "INSERT INTO audit_checkpoints (created_at, digest, seals_checked_to, "
        "untrusted_seals, untrusted_seal_ids, mac) "
        "VALUES (now() + interval '1 day', $1, 0, 0, '{}', $2)",
        secrets.token_bytes(32),
        secrets.token_bytes(32),
    )
    code, output = await carevault(audit_api, "audit", "checkpoint")
    assert code == 0, output
    code, output = await verify(audit_api)
    assert code == 0 and "Every chain is intact." in output


async def test_seals_no_checkpoint_covers_fail_verify_after_the_grace_period(
    audit_api: ApiContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    await produce_events(audit_api, 2)
    assert (await carevault(audit_api, "audit", "seal"))[0] == 0
    code, output = await verify(audit_api)  # sealed a moment ago: not due yet
    assert code == 0 and "WARNING: no checkpoint to compare with" in output

    code, output = await verify(audit_api, "--checkpoint-grace", "0")
    assert code == 1, output
    assert "holds no checkpoint for this database, but 1 chain(s) have seals older than 0 s" in (
        output
    )
    # Nor does the app start a chain over them: its grace is two checkpoint intervals.
    monkeypatch.setenv("CAREVAULT_AUDIT_CHECKPOINT_INTERVAL_SECONDS", "0.001")
    code, output = await carevault(audit_api, "audit", "checkpoint")
    assert code == 1 and "its checkpoints were lost, or never written" in output


async def test_the_app_refuses_to_start_a_new_checkpoint_chain_over_sealed_history(
    new_database: NewDatabase, data_dir: Path
) -> None:
    async with running_api(
        await new_database(),
        data_dir,
        audit_seal_interval_seconds=0.05,
        audit_checkpoint_interval_seconds=0.2,
    ) as api:
        _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
        path = checkpoint_file(api)
        sealer = api.app.state.carevault.audit_sealer
        for _ in range(400):  # bounded: a checkpoint is due every 0.2 s
            if path.exists() and sealer.status.last_checkpoint_at is not None:
                break
            await asyncio.sleep(0.05)
        assert path.exists()
        path.unlink()
        for _ in range(400):
            if sealer.status.checkpoint_error:
                break
            await asyncio.sleep(0.05)
        assert "refusing to write a checkpoint over it" in (sealer.status.checkpoint_error or "")
        assert not path.exists()  # no fresh chain
        async with api.signed_in(owner) as client:
            ready = (await client.get("/system/readiness")).json()
        assert ready["status"] == "degraded" and "audit_sealing" in ready["reasons"]
        assert "the store was emptied or replaced" in ready["audit"]["error"]


def test_a_checkpoint_an_older_version_signed_over_an_empty_seal_stays_readable() -> None:
    """Such a checkpoint may sit under object lock forever: reading it must not fail."""
    line = json.dumps(
        {
            "schema": "carevault.audit.checkpoint/1",
            "database": "carevault",
            "created_at": "2026-01-01T00:00:00+00:00",
            "key_id": "00" * 8,
            "previous": None,
            "chains": [
                {
                    "workspace_id": str(uuid.uuid4()),
                    "seq": 1,
                    "last_event_id": None,
                    "count": 0,
                    "head_mac": "00" * 32,
                }
            ],
            "signature": "00" * 32,
        }
    )
    assert Checkpoint.parse(line).chains[0].last_event_id is None
