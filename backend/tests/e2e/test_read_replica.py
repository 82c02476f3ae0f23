"""A real streaming replica (Debian's PostgreSQL 15: initdb, pg_basebackup -R, pg_ctl) under a
temporary directory on free loopback ports, and the app reading from it
(CAREVAULT_READ_DATABASE_URL; carevault.db.replica, docs/how-to/scaling.md "Read replica").

Checked: lists, searches, the calendar, the notes list and the change feed read from the
replica (the router's counts, and a client the paused replica has not replayed missing from
another credential's list) while their audit events are committed on the primary;
read-your-writes (the writer's next list sees its write at once); replay paused past the lag
bound sends reads back to the primary and readiness says `replica_lagging`; the replica
stopped, reads come from the primary, nothing fails, readiness says `replica_unreachable`.
Exports: the record export, `$everything` and the bulk export's pages read from the replica
(and from the primary when it is behind or down); a write's `CareVault-Read-After` position
holds read-your-writes without the process's own memory of the write.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from carevault.auth.models import Role
from carevault.db.engine import create_engine
from carevault.db.migrate import upgrade_async
from carevault.db.replica import (
    READ_AFTER_COOKIE,
    READ_AFTER_HEADER,
    UNREACHABLE_LSN,
    ReplicaRouter,
    ReplicaStatus,
    parse_read_after,
)
from carevault.observability.metrics import replica_metrics
from tests.support.cli import cli_env
from tests.support.http import ApiContext, running_api

BIN = Path("/usr/lib/postgresql/15/bin")
SYSTEM_USER = "embedded_postgres"  # PostgreSQL refuses to run as root
DEADLINE_SECONDS = 20.0  # every wait below


def _free_port() -> int:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        port: int = listener.getsockname()[1]
        return port


class Cluster:
    """One PostgreSQL 15 server of the test's own (not the system's)."""

    def __init__(self, root: Path, name: str) -> None:
        self.pgdata = root / name
        self.log = root / f"{name}.log"
        self.port = _free_port()
        self.as_user = ["runuser", "-u", SYSTEM_USER, "--"] if os.geteuid() == 0 else []

    def run(self, *command: str) -> None:
        subprocess.run(
            [*self.as_user, *command], check=True, capture_output=True, timeout=120, text=True
        )

    def own(self, *paths: Path) -> None:
        if self.as_user:
            for path in paths:
                shutil.chown(path, SYSTEM_USER, SYSTEM_USER)

    def start(self) -> None:
        self.log.touch()
        self.own(self.log)
        options = f"-h 127.0.0.1 -p {self.port} -k '' -c fsync=off -c max_connections=60"
        self.run(str(BIN / "pg_ctl"), "-D", str(self.pgdata), "-l", str(self.log), "-w",
                 "-t", "60", "-o", options, "start")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self.run(str(BIN / "pg_ctl"), "-D", str(self.pgdata), "-w", "-m", mode, "stop")

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    async def fetch(
        self, query: str, *args: object, database: str = "carevault"
    ) -> list[asyncpg.Record]:
        connection = await asyncpg.connect(self.dsn(database), timeout=5)
        try:
            return list(await connection.fetch(query, *args))
        finally:
            await connection.close()


@pytest.fixture
def replication() -> Iterator[tuple[Cluster, Cluster]]:
    """A primary (wal_level=replica, the replication line initdb writes for 127.0.0.1) and a
    hot standby cloned from it with pg_basebackup -R, both stopped at the end."""
    if not (BIN / "pg_basebackup").exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL 15's tools are missing from {BIN} (CI must have them)")
        pytest.skip(f"PostgreSQL 15's tools are missing from {BIN} (postgresql-15)")
    root = Path(tempfile.mkdtemp(prefix="carevault-replica-"))
    root.chmod(0o755)  # the server's user must reach its directories
    primary, replica = Cluster(root, "primary"), Cluster(root, "replica")
    try:
        primary.pgdata.mkdir()
        primary.own(primary.pgdata)
        primary.run(str(BIN / "initdb"), "-D", str(primary.pgdata), "--auth=trust",
                    "--encoding=utf8", "-U", "postgres")  # fmt: skip
        with (primary.pgdata / "postgresql.conf").open("a") as conf:
            conf.write("\nwal_level = replica\nmax_wal_senders = 4\n")
        hba = (primary.pgdata / "pg_hba.conf").read_text()
        assert "host    replication     all             127.0.0.1/32" in hba, hba
        primary.start()
        replica.pgdata.mkdir(mode=0o700)
        replica.own(replica.pgdata)
        replica.run(str(BIN / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(primary.port),
                    "-U", "postgres", "-D", str(replica.pgdata), "-R", "-X", "stream",
                    "-c", "fast")  # fmt: skip
        replica.start()
        yield primary, replica
    finally:
        replica.stop("immediate")
        primary.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)


async def _until(condition: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"not within {DEADLINE_SECONDS:g} s: {what}"
        await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def _app(
    primary: Cluster, replica: Cluster, data_dir: Path, *, read_your_writes_seconds: float = 4.0
) -> AsyncIterator[ApiContext]:
    admin = await asyncpg.connect(primary.dsn(), timeout=5)
    try:
        await admin.execute("CREATE DATABASE carevault")
    finally:
        await admin.close()
    engine = create_engine(primary.url("carevault"), pool_size=1)
    try:
        await upgrade_async(engine)
    finally:
        await engine.dispose()
    async with running_api(
        primary.url("carevault"),
        data_dir,
        read_database_url=replica.url("carevault"),
        read_replica_check_interval_seconds=1.0,
        read_replica_max_lag_seconds=0.5,
        read_your_writes_seconds=read_your_writes_seconds,
        audit_sealer=False,
    ) as context:
        yield context


def _router(context: ApiContext) -> ReplicaRouter:
    router = context.app.state.carevault.replica
    assert isinstance(router, ReplicaRouter)
    return router


async def _names(client: object, router: ReplicaRouter) -> tuple[set[str], str]:
    """The listed last names, and which database served them."""
    before = router.counts.replica
    response = await client.get("/clients", params={"page_size": 100})  # type: ignore[attr-defined]
    assert response.status_code == 200, response.text
    served = "replica" if router.counts.replica > before else "primary"
    return {row["last_name"] for row in response.json()["items"]}, served


async def test_reads_from_a_streaming_replica(
    replication: tuple[Cluster, Cluster], data_dir: Path
) -> None:
    primary, replica = replication
    async with _app(primary, replica, data_dir) as context:
        router = _router(context)
        _, (owner, clinician) = await context.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
        await _until(
            lambda: router.status.state == "streaming" and router.status.behind_bytes == 0,
            "the replica caught up",
        )
        async with context.signed_in(owner) as writer, context.signed_in(clinician) as reader:
            # A write by one credential, its own list at once from the primary (read your
            # writes), then the replica, once it has replayed the write.
            created = await writer.post(
                "/clients", json={"first_name": "Ada", "last_name": "Alpha"}
            )
            assert created.status_code == 201, created.text
            assert await _names(writer, router) == ({"Alpha"}, "primary")
            assert router.counts.read_your_writes >= 1
            client_id = created.json()["id"]
            booked = await writer.post(
                "/appointments",
                json={
                    "client_id": client_id,
                    "starts_at": "2025-01-14T09:00:00Z",
                    "ends_at": "2025-01-14T09:50:00Z",
                },
            )
            assert booked.status_code == 201, booked.text
            noted = await writer.post(
                "/sessions",
                json={"client_id": client_id, "session_date": "2025-01-14", "subjective": "x"},
            )
            assert noted.status_code == 201, noted.text
            await _until(lambda: router.status.behind_bytes == 0, "the write replayed")
            assert await _names(reader, router) == ({"Alpha"}, "replica")

            # Every replica route answers from the hot standby (which refuses any write).
            before = router.counts.replica
            searched = await reader.post("/clients/search", json={"q": "alp"})
            assert searched.status_code == 200, searched.text
            assert [c["last_name"] for c in searched.json()["items"]] == ["Alpha"]
            calendar = await reader.get(
                "/appointments",
                params={"start": "2025-01-13T00:00:00Z", "end": "2025-01-20T00:00:00Z"},
            )
            assert calendar.status_code == 200, calendar.text
            assert [a["id"] for a in calendar.json()] == [booked.json()["id"]]
            notes = await reader.get("/sessions")
            assert notes.status_code == 200, notes.text
            assert [n["id"] for n in notes.json()["items"]] == [noted.json()["id"]]
            # The change feed: owners only; the writer's window has passed by now.
            await _until(lambda: not router.recently_wrote(_key(writer)), "the window passed")
            feed = await writer.get("/events")
            assert feed.status_code == 200, feed.text
            assert any(e["type"].startswith("client.") for e in feed.json()["data"]), feed.json()
            assert router.counts.replica == before + 4

            # The lists' audit events were committed on the primary (the replica cannot
            # write): one `client.list` per list, the last naming the client it listed.
            listed = await primary.fetch(
                "SELECT resource_ids FROM audit_events WHERE action = 'client.list' "
                "ORDER BY occurred_at"
            )
            assert len(listed) == 3  # the writer's list, the reader's, the search
            assert [str(i) for i in listed[-1]["resource_ids"]] == [client_id]
            for record in (booked.json(), noted.json()):
                actions = await primary.fetch(
                    "SELECT action FROM audit_events WHERE $1 = ANY(resource_ids)",
                    uuid.UUID(record["id"]),
                )
                assert any(a["action"].endswith(".list") for a in actions), actions

            # Replay paused: within the lag bound another credential reads the replica's
            # older state (bounded staleness, and proof of where it read), the writer its
            # own write from the primary.
            await replica.fetch("SELECT pg_wal_replay_pause()")
            router.max_lag_seconds = 60.0
            second = await writer.post("/clients", json={"first_name": "Bo", "last_name": "Beta"})
            assert second.status_code == 201, second.text
            assert await _names(writer, router) == ({"Alpha", "Beta"}, "primary")
            assert await _names(reader, router) == ({"Alpha"}, "replica")
            # Past the bound: reads go back to the primary, and readiness says why.
            router.max_lag_seconds = 0.5
            await _until(lambda: router.status.state == "lagging", "the replica reported behind")
            assert await _names(reader, router) == ({"Alpha", "Beta"}, "primary")
            report = (await writer.get("/system/readiness")).json()
            assert "replica_lagging" in report["reasons"], report
            assert report["replica"]["state"] == "lagging"
            assert report["replica"]["serving_reads"] is False
            assert report["replica"]["replay_paused"] is True
            assert report["replica"]["lag_seconds"] > 0.5
            # Replay resumed: the replica serves again, with the write.
            await replica.fetch("SELECT pg_wal_replay_resume()")
            await _until(lambda: router.status.state == "streaming", "the replica caught up")
            assert await _names(reader, router) == ({"Alpha", "Beta"}, "replica")

            # Fail closed: the list read on the replica, its event refused on the primary, no
            # names in the answer (a JSON 503, the class of the refusal).
            await primary.fetch(
                "CREATE FUNCTION refuse_list_events() RETURNS trigger LANGUAGE plpgsql AS "
                "$$BEGIN RAISE EXCEPTION 'refused' USING ERRCODE = '53000'; END$$"
            )
            await primary.fetch(
                "CREATE TRIGGER refuse_list_events BEFORE INSERT ON audit_events FOR EACH ROW "
                "WHEN (NEW.action = 'client.list') EXECUTE FUNCTION refuse_list_events()"
            )
            before = router.counts.replica
            refused = await reader.get("/clients")
            assert router.counts.replica == before + 1
            assert refused.status_code == 503, refused.text
            assert "Alpha" not in refused.text and "Beta" not in refused.text
            await primary.fetch("DROP TRIGGER refuse_list_events ON audit_events")
            await _until(lambda: router.usable(), "the replica in use again")

            # The replica stopped: reads come from the primary, nothing fails, and readiness
            # names it (degraded, still serving).
            replica.stop("immediate")
            await _until(lambda: router.status.state == "unreachable", "the replica seen down")
            assert await _names(reader, router) == ({"Alpha", "Beta"}, "primary")
            searched = await reader.post("/clients/search", json={"q": "bet"})
            assert searched.status_code == 200, searched.text
            feed = await writer.get("/events")
            assert feed.status_code == 200, feed.text
            report = (await writer.get("/system/readiness")).json()
            assert report["status"] == "degraded", report
            assert "replica_unreachable" in report["reasons"], report
            async with context.client() as anonymous:
                ready = await anonymous.get("http://testserver/health/ready")
            assert ready.status_code == 200, ready.text
            metrics = {f.name: f for f in replica_metrics(context.app.state.carevault)}
            assert metrics["carevault_replica_serving_reads"].samples[0].value == 0
            served = {
                s.labels["served_by"]: s.value
                for s in metrics["carevault_replica_route_requests"].samples
            }
            assert served["replica"] == router.counts.replica > 0
            assert served["primary_after_write"] >= 1 and served["primary_unusable"] >= 2

            # Lost between two checks (the checks stopped, the state left as "streaming"):
            # the request that meets it answers a JSON 503, the next reads the primary.
            await router.stop()
            router.status = ReplicaStatus(state="streaming", checked=time.monotonic())
            lost = await reader.get("/clients")
            assert lost.status_code == 503, lost.text
            assert lost.json()["error"]["code"] == "database_unavailable", lost.text
            assert router.status.state == "unreachable"
            assert await _names(reader, router) == ({"Alpha", "Beta"}, "primary")


def _key(client: object) -> bytes:
    from carevault.db.replica import credential_key

    cookie = client.cookies.get("carevault_session")  # type: ignore[attr-defined]
    key = credential_key(None, cookie)
    assert key is not None
    return key


def _resources(bundle: dict[str, Any], resource_type: str) -> list[dict[str, Any]]:
    return [
        entry["resource"]
        for entry in bundle.get("entry", [])
        if entry["resource"]["resourceType"] == resource_type
    ]


async def _record(
    client: httpx.AsyncClient, router: ReplicaRouter, client_id: str
) -> tuple[int, str]:
    """The client's record export (FHIR): how many appointments it holds, and which
    database served it."""
    before = router.counts.replica
    answer = await client.get(f"/clients/{client_id}/export", params={"format": "fhir"})
    assert answer.status_code == 200, answer.text
    served = "replica" if router.counts.replica > before else "primary"
    return len(_resources(answer.json(), "Appointment")), served


async def _bulk_export(client: httpx.AsyncClient) -> dict[str, int]:
    """A whole bulk export ($export, polled to the end): records per type."""
    root = httpx.AsyncClient(
        transport=client._transport,
        base_url="http://testserver",
        headers=client.headers,
        cookies=client.cookies,
    )
    async with root:
        started = await root.get("/fhir/R4/$export", headers={"Prefer": "respond-async"})
        assert started.status_code == 202, started.text
        status_url = started.headers["Content-Location"]
        deadline = time.monotonic() + DEADLINE_SECONDS
        while True:
            answer = await root.get(status_url)
            if answer.status_code != 202:
                break
            assert time.monotonic() < deadline, "the export did not complete"
            await asyncio.sleep(0.1)
    assert answer.status_code == 200, answer.text
    counts: dict[str, int] = {}
    for output in answer.json()["output"]:
        counts[output["type"]] = counts.get(output["type"], 0) + output["count"]
    return counts


async def test_exports_and_write_positions_on_a_streaming_replica(
    replication: tuple[Cluster, Cluster], data_dir: Path
) -> None:
    """Exports read from the replica (the record export and the bulk export's pages), their
    audit events on the primary; a write answers its WAL position, and a request presenting
    it reads from the replica only once the replica has replayed it (read-your-writes across
    instances: this process's own memory of the write is wiped to stand for another one)."""
    primary, replica = replication
    # A long window: the writer's cookie (which lives as long) must outlast a loaded machine.
    async with _app(primary, replica, data_dir, read_your_writes_seconds=30.0) as context:
        router = _router(context)
        space, (owner, reader_email) = await context.workspace_with_users(
            None, Role.OWNER, Role.OWNER
        )
        await _until(
            lambda: router.status.state == "streaming" and router.status.behind_bytes == 0,
            "the replica caught up",
        )
        async with context.signed_in(owner) as writer, context.signed_in(reader_email) as reader:
            created = await writer.post(
                "/clients", json={"first_name": "Ada", "last_name": "Alpha"}
            )
            assert created.status_code == 201, created.text
            client_id = created.json()["id"]
            # The write's position: a header for API clients, the same in a cookie for the UI.
            first_position = parse_read_after(created.headers[READ_AFTER_HEADER])
            assert first_position is not None and first_position < UNREACHABLE_LSN
            assert writer.cookies.get(READ_AFTER_COOKIE) == created.headers[READ_AFTER_HEADER]
            await _until(lambda: router.replayed(first_position), "the client replayed")

            # The record export reads from the replica; its events are on the primary.
            assert await _record(reader, router, client_id) == (0, "replica")
            exported = await primary.fetch(
                "SELECT action FROM audit_events WHERE action = 'client.export' "
                "AND $1 = ANY(resource_ids)",
                uuid.UUID(client_id),
            )
            assert len(exported) == 1

            # Replay paused, an appointment booked: the reader's export (from the replica)
            # lacks it, which proves where it read; the writer's has it (read your writes).
            await replica.fetch("SELECT pg_wal_replay_pause()")
            router.max_lag_seconds = 60.0
            booked = await writer.post(
                "/appointments",
                json={
                    "client_id": client_id,
                    "starts_at": "2025-01-14T09:00:00Z",
                    "ends_at": "2025-01-14T09:50:00Z",
                },
            )
            assert booked.status_code == 201, booked.text
            position = parse_read_after(booked.headers[READ_AFTER_HEADER])
            assert position is not None and position > first_position
            assert await _record(reader, router, client_id) == (0, "replica")
            assert await _record(writer, router, client_id) == (1, "primary")
            everything = await reader.get(
                f"http://testserver/fhir/R4/Patient/{client_id}/$everything"
            )
            assert everything.status_code == 200, everything.text
            assert _resources(everything.json(), "Appointment") == []

            # Another instance knows nothing of the write but the position the writer
            # presents (its cookie): it reads from the primary until the replica replays it.
            router._writes.clear()
            assert not router.recently_wrote(_key(writer))
            waiting = router.counts.awaiting_replay
            assert await _record(writer, router, client_id) == (1, "primary")
            assert await _names(writer, router) == ({"Alpha"}, "primary")
            assert router.counts.awaiting_replay == waiting + 2
            # The same with the header (an API client), and a malformed one reads the primary.
            token = {READ_AFTER_HEADER: booked.headers[READ_AFTER_HEADER]}
            before = router.counts.replica
            listed = await reader.get("/clients", headers=token)
            assert listed.status_code == 200 and router.counts.replica == before, listed.text
            garbled = await reader.get("/clients", headers={READ_AFTER_HEADER: "not-a-position"})
            assert garbled.status_code == 200 and router.counts.replica == before, garbled.text
            # Without a position, the replica (bounded staleness, by design).
            assert await _record(reader, router, client_id) == (0, "replica")

            # Replay resumed: once the replica has replayed the position, it serves the
            # writer (still without any memory of the write in this process).
            await replica.fetch("SELECT pg_wal_replay_resume()")
            router.max_lag_seconds = 0.5
            await _until(lambda: router.replayed(position), "the appointment replayed")
            router._writes.clear()
            assert await _record(writer, router, client_id) == (1, "replica")

            # The bulk export's pages come from the replica once it has replayed the
            # export's start; the job's rows and its events are on the primary.
            pages = router.counts.export_pages_replica, router.counts.export_pages_primary
            counts = await _bulk_export(reader)
            assert counts["Patient"] == 1 and counts["Appointment"] == 1, counts
            assert router.counts.export_pages_replica > pages[0]
            assert router.counts.export_pages_primary == pages[1]
            started = await primary.fetch(
                "SELECT count(*) AS n FROM audit_events WHERE action = 'export.start'"
            )
            assert started[0]["n"] == 1

            # `carevault export` reads its pages from the replica too, given its URL.
            code, output = await _export_command(
                context, replica, space.name, data_dir / "cli-export"
            )
            assert code == 0, output
            assert "Pages read from the replica: " in output and ", from the primary: 0." in output
            assert "Pages read from the replica: 0," not in output

            # Replay paused again and a client added: the replica never reaches the new
            # export's start, so after its wait the worker reads every page from the primary
            # (and the export holds the new client).
            await replica.fetch("SELECT pg_wal_replay_pause()")
            second = await writer.post("/clients", json={"first_name": "Bo", "last_name": "Beta"})
            assert second.status_code == 201, second.text
            replica_pages = router.counts.export_pages_replica
            counts = await _bulk_export(reader)
            assert counts["Patient"] == 2, counts
            assert router.counts.export_pages_replica == replica_pages
            assert router.counts.export_pages_primary > pages[1]
            await replica.fetch("SELECT pg_wal_replay_resume()")

            # The replica stopped: both exports answer from the primary.
            replica.stop("immediate")
            await _until(lambda: router.status.state == "unreachable", "the replica seen down")
            assert await _record(reader, router, client_id) == (1, "primary")
            fallback = router.counts.export_pages_primary
            counts = await _bulk_export(reader)
            assert counts["Patient"] == 2 and counts["Appointment"] == 1, counts
            assert router.counts.export_pages_primary > fallback
            assert router.counts.export_pages_replica == replica_pages
            code, output = await _export_command(
                context, replica, space.name, data_dir / "cli-fallback"
            )
            assert code == 0, output
            assert "Pages read from the replica: 0, from the primary: " in output, output


async def _export_command(
    context: ApiContext, replica: Cluster, workspace: str, output: Path
) -> tuple[int, str]:
    """`carevault export` of the practice, with the replica's URL configured."""
    from typer.testing import CliRunner

    from carevault.cli import app as cli

    env = cli_env(context) | {"CAREVAULT_READ_DATABASE_URL": replica.url("carevault")}
    arguments = ["export", "--workspace", workspace, "--output", str(output)]
    result = await asyncio.to_thread(
        lambda: CliRunner().invoke(cli, arguments, env=env, catch_exceptions=False)
    )
    return result.exit_code, result.output
