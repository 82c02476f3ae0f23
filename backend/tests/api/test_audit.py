"""The audit trail: owners read it; seals under the ring's audit key and checkpoints outside
the database catch rows changed, removed or rewritten behind the application's back, by its
own database role or by a superuser."""

from __future__ import annotations

import itertools
import uuid
from pathlib import Path

import asyncpg

from carevault.audit.checkpoints import CHECKPOINT_FILE
from carevault.audit.sealing import content_digest, event_digest, seal_mac_v2
from carevault.auth.models import Role
from carevault.crypto import LocalFileProvider
from tests.support.audit import forged_seal
from tests.support.audit_trail import (
    as_runtime_role,
    event_ids,
    produce_events,
    seal_of,
    sealed_and_checkpointed,
    superuser_script,
    verify,
)
from tests.support.cli import carevault
from tests.support.db import sql
from tests.support.http import ApiContext


async def test_owners_read_the_audit_log_with_filters(audit_api: ApiContext) -> None:
    api = audit_api
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.signed_in(clinician) as client:
        created = await client.post("/auth/tokens", json={"name": "c", "scopes": ["clients:read"]})
        refused = await client.get("/audit-events")
        assert refused.status_code == 403
    async with api.signed_in(owner) as client:
        page = (await client.get("/audit-events", params={"page_size": 100})).json()
        actions = [e["action"] for e in page["items"]]
        assert {"auth.login", "api_token.create"} <= set(actions)
        filtered = (await client.get("/audit-events", params={"action": "api_token.create"})).json()
        assert filtered["total"] == 1 and filtered["items"][0]["action"] == "api_token.create"
        assert filtered["items"][0]["ip_address"] == "203.0.113.7"
        by_user = await client.get("/audit-events", params={"action": "auth.login"})
        assert by_user.json()["total"] == 2
        token_id = created.json()["id"]
        by_resource = await client.get("/audit-events", params={"resource_id": token_id})
        assert [e["resource_ids"] for e in by_resource.json()["items"]] == [[token_id]]
        bad = await client.get("/audit-events", params={"since": "yesterday"})
        assert bad.status_code == 422
        not_an_id = await client.get("/audit-events", params={"resource_id": "abc"})
        assert not_an_id.status_code == 422


async def test_the_audit_screen_names_actors_and_refuses_an_inverted_range(
    audit_api: ApiContext,
) -> None:
    """Issue 24: the owner's audit screen showed raw ids only, and an inverted date range
    answered an empty page, as if nothing had happened."""
    api = audit_api
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    await sql(
        api, "UPDATE users SET display_name = 'Dr Cleo Clinician' WHERE email = $1", clinician
    )
    async with api.signed_in(clinician) as client:
        created = await client.post(
            "/auth/tokens", json={"name": "billing", "scopes": ["clients:read"]}
        )
    async with api.with_token(clinician, ("clients:read",)) as (token, _):
        assert (await token.get("/clients")).status_code == 200
    async with api.signed_in(owner) as client:
        page = (await client.get("/audit-events", params={"action": "api_token.create"})).json()
        (made,) = [e for e in page["items"] if e["resource_ids"] == [created.json()["id"]]]
        assert (made["actor_name"], made["actor_role"], made["token_name"]) == (
            "Dr Cleo Clinician",
            "clinician",
            None,
        )
        listed = (await client.get("/audit-events", params={"action": "client.list"})).json()
        (by_token,) = listed["items"]
        assert (by_token["actor_name"], by_token["token_name"]) == ("Dr Cleo Clinician", "tests")
        logins = (await client.get("/audit-events", params={"action": "auth.login"})).json()
        assert owner.split("@")[0] in {e["actor_name"] for e in logins["items"]}
        inverted = await client.get(
            "/audit-events",
            params={"since": "2026-02-01T00:00:00Z", "until": "2026-01-01T00:00:00Z"},
        )
        assert inverted.status_code == 422, inverted.text
        error = inverted.json()["error"]
        assert error["code"] == "invalid_date_range" and "inverted" in error["message"]
        assert {d["field"] for d in error["details"]} == {"query.since", "query.until"}
        same = await client.get(
            "/audit-events",
            params={"since": "2026-01-01T00:00:00Z", "until": "2026-01-01T00:00:00Z"},
        )
        assert same.status_code == 200 and same.json()["total"] == 0


async def test_audit_events_of_another_workspace_are_invisible(audit_api: ApiContext) -> None:
    api = audit_api
    _, (owner_a,) = await api.workspace_with_users(None, Role.OWNER)
    _, (owner_b,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner_a) as client:
        await client.post("/auth/tokens", json={"name": "a", "scopes": ["clients:read"]})
    async with api.signed_in(owner_b) as client:
        page = (await client.get("/audit-events", params={"action": "api_token.create"})).json()
    assert page["total"] == 0


async def test_events_are_stored_compactly_as_uuid_arrays(audit_api: ApiContext) -> None:
    workspace = await produce_events(audit_api, 1)
    rows = await sql(
        audit_api,
        "SELECT pg_typeof(resource_ids)::text AS type, resource_ids FROM audit_events "
        "WHERE workspace_id = $1 AND action = 'api_token.create'",
        workspace,
    )
    assert rows[0]["type"] == "uuid[]" and isinstance(rows[0]["resource_ids"][0], uuid.UUID)


async def test_an_intact_trail_verifies(audit_api: ApiContext) -> None:
    await sealed_and_checkpointed(audit_api)
    code, output = await verify(audit_api)
    assert code == 0, output
    assert "Every chain is intact." in output
    assert "against the checkpoint of" in output and "events/s" in output


async def test_without_a_checkpoint_verify_warns_that_a_tail_cannot_be_checked(
    audit_api: ApiContext,
) -> None:
    await produce_events(audit_api, 1)
    assert (await carevault(audit_api, "audit", "seal"))[0] == 0
    code, output = await verify(audit_api)
    assert code == 0
    assert "WARNING: no checkpoint to compare with: a deleted tail cannot be detected" in output


async def test_superuser_altering_a_sealed_event_is_named(audit_api: ApiContext) -> None:
    workspace = await sealed_and_checkpointed(audit_api)
    target = (await event_ids(audit_api, workspace))[3]
    await superuser_script(
        audit_api,
        "SET session_replication_role = replica;"
        f"UPDATE audit_events SET action = 'client.read' WHERE id = {target};",
    )
    code, output = await verify(audit_api)
    assert code == 1
    seq = await seal_of(audit_api, target)
    assert f"BROKEN: workspace {workspace}: event {target} altered after sealing (seal {seq})" in (
        output
    )


async def test_superuser_deleting_a_middle_event_is_named(audit_api: ApiContext) -> None:
    workspace = await sealed_and_checkpointed(audit_api)
    removed = (await event_ids(audit_api, workspace))[2]
    seq = await seal_of(audit_api, removed)
    await superuser_script(
        audit_api,
        f"SET session_replication_role = replica; DELETE FROM audit_events WHERE id = {removed};",
    )
    code, output = await verify(audit_api)
    assert code == 1
    assert (
        f"BROKEN: workspace {workspace}: event {removed} deleted (sealed in seal {seq})" in output
    )


async def test_runtime_role_disabling_the_trigger_to_delete_the_tail_is_caught(
    audit_api: ApiContext,
) -> None:
    """The attack of issue 10: the table's owner disables the trigger, deletes the newest
    events, re-enables it. Before, verify said every chain was intact."""
    workspace = await sealed_and_checkpointed(audit_api)
    newest = (await event_ids(audit_api, workspace))[-2:]
    seqs = [await seal_of(audit_api, e) for e in newest]
    async with as_runtime_role(audit_api) as attacker:
        await attacker.execute(
            "ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete"
        )
        await attacker.execute("DELETE FROM audit_events WHERE id = ANY($1)", newest)
        await attacker.execute(
            "ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update_delete"
        )
    code, output = await verify(audit_api)
    assert code == 1
    for event_id, seq in zip(newest, seqs, strict=True):
        assert (
            f"BROKEN: workspace {workspace}: event {event_id} deleted (sealed in seal {seq})"
            in (output)
        )


async def test_runtime_role_deleting_events_and_their_seals_is_a_deleted_tail(
    audit_api: ApiContext,
) -> None:
    workspace = await sealed_and_checkpointed(audit_api)
    ids = await event_ids(audit_api, workspace)
    head = await sql(
        audit_api,
        "SELECT seq, total FROM audit_seals WHERE workspace_id = $1 ORDER BY seq DESC LIMIT 1",
        workspace,
    )
    last_seq, total = int(head[0]["seq"]), int(head[0]["total"])
    async with as_runtime_role(audit_api) as attacker:
        for table in ("audit_events", "audit_seals"):
            await attacker.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        await attacker.execute("DELETE FROM audit_events WHERE workspace_id = $1", workspace)
        await attacker.execute("DELETE FROM audit_seals WHERE workspace_id = $1", workspace)
        for table in ("audit_events", "audit_seals"):
            await attacker.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    code, output = await verify(audit_api)
    assert code == 1
    assert f"BROKEN: workspace {workspace}: tail deleted: the checkpoint of " in output
    assert (
        f"records {total} events up to event {ids[-1]} (seal {last_seq}); the database holds no "
        "seal of it" in output
    )
    # A new checkpoint refuses to bless the truncated chain.
    code, output = await carevault(audit_api, "audit", "checkpoint")
    assert code == 1 and f"chain {workspace} no longer matches the checkpoint" in output


async def test_superuser_truncating_a_chain_after_a_seal_is_a_deleted_tail(
    audit_api: ApiContext,
) -> None:
    workspace = await produce_events(audit_api, 2)
    assert (await carevault(audit_api, "audit", "seal"))[0] == 0
    kept = await event_ids(audit_api, workspace)
    async with audit_api.signed_in(
        (await sql(audit_api, "SELECT email FROM users WHERE workspace_id = $1", workspace))[0][
            "email"
        ]
    ) as client:
        await client.post("/auth/tokens", json={"name": "later"})
    assert (await carevault(audit_api, "audit", "checkpoint"))[0] == 0
    ids = await event_ids(audit_api, workspace)
    await superuser_script(
        audit_api,
        "SET session_replication_role = replica;"
        f"DELETE FROM audit_seals WHERE workspace_id = '{workspace}' AND seq > 1;"
        f"DELETE FROM audit_events WHERE id > {kept[-1]} AND workspace_id = '{workspace}';",
    )
    code, output = await verify(audit_api)
    assert code == 1
    assert (
        f"up to event {ids[-1]} (seal 2); the database ends at seal 1 (event {kept[-1]})" in output
    )


async def test_a_chain_rewritten_without_the_audit_key_is_caught(audit_api: ApiContext) -> None:
    """A superuser alters an event and recomputes its digest and its seal, with every public
    field right (key id and content digest included) but a MAC made without the ring's key."""
    workspace = await sealed_and_checkpointed(audit_api)
    target = (await event_ids(audit_api, workspace))[1]
    seq = await seal_of(audit_api, target)
    await superuser_script(
        audit_api,
        "SET session_replication_role = replica;"
        f"UPDATE audit_events SET action = 'auth.logout' WHERE id = {target};",
    )
    connection = await asyncpg.connect(audit_api.database_url.replace("+asyncpg", ""))
    try:
        await connection.execute("SET session_replication_role = replica")
        seal = await connection.fetchrow(
            "SELECT * FROM audit_seals WHERE workspace_id = $1 AND seq = $2", workspace, seq
        )
        assert seal is not None
        # Every public field recomputed over the rows as they are now, in the seal's format.
        forged = await forged_seal(connection, seal, seal["prev_mac"], b"guessed key" * 3)
        await connection.execute(
            "UPDATE audit_seals SET digests = $1, content_digest = $2, mac = $3 "
            "WHERE workspace_id = $4 AND seq = $5",
            forged["digests"],
            forged["content_digest"],
            forged["mac"],
            workspace,
            seq,
        )
    finally:
        await connection.close()
    code, output = await verify(audit_api)
    assert code == 1
    assert f"BROKEN: workspace {workspace}: seal {seq} (id " in output
    assert "MAC does not verify under the audit key (forged, rewritten or altered)" in output
    assert f"event {target} altered" not in output  # the forged digest matches the row


async def test_a_disabled_trigger_is_reported(audit_api: ApiContext) -> None:
    await sealed_and_checkpointed(audit_api)
    async with as_runtime_role(audit_api) as attacker:
        await attacker.execute("ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_truncate")
        await attacker.execute(
            "ALTER TABLE audit_seals DISABLE TRIGGER audit_seals_no_update_delete"
        )
        code, output = await verify(audit_api)
        await attacker.execute("ALTER TABLE audit_events ENABLE TRIGGER USER")
        await attacker.execute("ALTER TABLE audit_seals ENABLE TRIGGER USER")
    assert code == 1
    assert "BROKEN: trigger audit_events_no_truncate on audit_events is disabled" in output
    assert "BROKEN: trigger audit_seals_no_update_delete on audit_seals is disabled" in output


async def test_unsealed_and_never_sealed_events_are_reported(audit_api: ApiContext) -> None:
    workspace = await sealed_and_checkpointed(audit_api)
    # Committed an hour ago and never sealed (no sealer ran): older than the lag budget.
    late = await sql(
        audit_api,
        "INSERT INTO audit_events (workspace_id, occurred_at, action) "
        "VALUES ($1, now() - interval '1 hour', 'client.read') RETURNING id",
        workspace,
    )
    # Inserted with a transaction id the sealer has already passed: it would never be sealed.
    hidden = await sql(
        audit_api,
        "INSERT INTO audit_events (workspace_id, action, txid) VALUES ($1, 'client.read', 1) "
        "RETURNING id",
        workspace,
    )
    code, output = await verify(audit_api, "--lag-budget", "30")
    assert code == 1
    assert (
        f"LATE: 1 event(s) unsealed for more than 30 s (the sealing lag budget): events "
        f"{late[0]['id']}" in output
    )
    assert (
        f"BROKEN: events {hidden[0]['id']} were never sealed although the sealer has passed "
        "them (inserted behind its back, or their seal does not verify)" in output
    )


async def test_incremental_verify_starts_at_the_checkpoint(audit_api: ApiContext) -> None:
    workspace = await produce_events(audit_api, 5)
    assert (await carevault(audit_api, "audit", "seal"))[0] == 0  # seal 1: before the checkpoint
    email = (await sql(audit_api, "SELECT email FROM users WHERE workspace_id = $1", workspace))[0][
        "email"
    ]

    async def more_events() -> None:
        async with audit_api.signed_in(email) as client:
            await client.post("/auth/tokens", json={"name": "later"})

    await more_events()
    assert (await carevault(audit_api, "audit", "checkpoint"))[0] == 0  # seal 2, checkpointed
    before = len(await sql(audit_api, "SELECT id FROM audit_events"))
    code, output = await verify(audit_api)
    assert code == 0 and f"Verified {before} audit events" in output
    await more_events()
    assert (await carevault(audit_api, "audit", "seal"))[0] == 0  # seal 3
    newest = (await event_ids(audit_api, workspace))[-1]
    code, output = await verify(audit_api, "--since-checkpoint")
    assert code == 0, output
    assert "(since the checkpoint)" in output
    checked = int(output.split("Verified ")[1].split(" ")[0])
    assert checked < before  # the checkpoint's own seal and what came after, not everything
    await superuser_script(
        audit_api,
        "SET session_replication_role = replica;"
        f"UPDATE audit_events SET action = 'x' WHERE id = {newest};",
    )
    code, output = await verify(audit_api, "--since-checkpoint")
    assert code == 1 and f"event {newest} altered after sealing" in output


async def test_export_writes_events_seals_and_the_checkpoint(
    audit_api: ApiContext, tmp_path: Path
) -> None:
    import json

    workspace = await sealed_and_checkpointed(audit_api)
    target = tmp_path / "export.jsonl"
    code, output = await carevault(
        audit_api,
        "audit",
        "export",
        "--since",
        "2000-01-01T00:00:00+00:00",
        "--until",
        "2999-01-01T00:00:00+00:00",
        "--output",
        str(target),
    )
    assert code == 0, output
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    events = [line for line in lines if line["type"] == "event"]
    seals = [line for line in lines if line["type"] == "seal"]
    assert {e["id"] for e in events} >= set(await event_ids(audit_api, workspace))
    assert all(e["seal"] is not None for e in events)
    assert lines[-1]["type"] == "checkpoint"
    head = next(c for c in lines[-1]["chains"] if c["workspace_id"] == str(workspace))
    chain = [s for s in seals if s["workspace_id"] == str(workspace)]
    assert chain[-1]["mac"] == head["head_mac"]  # the seals reach the checkpoint's head
    for previous, following in itertools.pairwise(chain):
        assert following["prev_mac"] == previous["mac"]
    # What an outside verifier does with the export and the audit key (format 2).
    key = LocalFileProvider(audit_api.settings.data_dir / "keyring.json").load().audit_key
    assert key is not None
    encodings = {e["id"]: bytes.fromhex(e["encoding"]) for e in events if e["format"] == 2}
    for event in events:
        assert event_digest(encodings[event["id"]]).hex() == event["digest"]
    for seal in chain:
        ids = seal["event_ids"]
        assert seal["format"] == 2
        assert content_digest(encodings[i] for i in ids).hex() == seal["content_digest"]
        mac = seal_mac_v2(
            key,
            uuid.UUID(seal["workspace_id"]),
            seal["seq"],
            seal["total"],
            bytes.fromhex(seal["prev_mac"]),
            seal["txid_from"],
            seal["txid_to"],
            ids,
            bytes.fromhex(seal["digests"]),
            bytes.fromhex(seal["content_digest"]),
        )
        assert mac.hex() == seal["mac"]


async def test_checkpoints_go_to_the_data_directory_by_default(audit_api: ApiContext) -> None:
    await sealed_and_checkpointed(audit_api)
    path = audit_api.settings.data_dir / CHECKPOINT_FILE
    assert path.exists() and path.stat().st_mode & 0o777 == 0o600
    assert len(path.read_text().splitlines()) == 1
