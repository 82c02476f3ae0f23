"""The whole key lifecycle under load, as an operator runs it against a live deployment.

`carevault serve --workers 2` serves a practice while a few virtual clinicians read their
notes, page through and search the client list, open clients and autosave their own drafts,
without pause. Meanwhile the real CLI runs the runbook: `keys rotate` (pending) → activation →
`reencrypt` → `keys retire` of the old version, then the load goes on a little longer.

Every response is counted and checked against what the clinician last saved or what was
seeded. The run must end with no failed request at all, every stored value in format 0x03
under the new version, and each note holding the last autosave its clinician saw
acknowledged. The refresh interval is 1 s so the run takes seconds, not minutes. Loopback
only; the load stops by itself after the sequence (and a hard time limit bounds the test).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import statistics
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from carevault.auth.scopes import EVERY_SCOPE, OWNER_ONLY_SCOPES
from carevault.crypto import LocalFileProvider, envelope
from carevault.lifecycle.reencrypt import encrypted_tables
from tests.support.db import NewDatabase
from tests.support.processes import free_port

pytestmark = pytest.mark.e2e

REFRESH_SECONDS = 1.0
MARGIN_SECONDS = 1.0
# Longer than the minimum (refresh + margin) so the load sees a real pending phase.
ACTIVATE_IN_SECONDS = 5.0
WARMUP_SECONDS = 1.5
TAIL_SECONDS = 3.0  # after `keys retire`: every worker has reloaded the ring by then
CLIENTS = 300
CLINICIANS = 4  # two per user, each with its own API token and its own draft note
# What a clinician's token may hold (the owner's get the same: they act as clinicians here).
CLINICAL_SCOPES = [scope for scope in EVERY_SCOPE if scope not in OWNER_ONLY_SCOPES]
EXTRA_NOTES = 20
PAGE_SIZE = 100
HARD_LIMIT_SECONDS = 150.0
PASSWORD = "rotation-under-load-pw"
PHASES = ("before", "pending", "active", "reencrypt", "retire", "retired")


def carevault_env(database_url: str, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAREVAULT_")}
    env.update(
        CAREVAULT_DATABASE_URL=database_url,
        CAREVAULT_DATA_DIR=str(data_dir),
        CAREVAULT_KEY_CACHE_TTL_SECONDS=str(REFRESH_SECONDS),
        CAREVAULT_KEY_ACTIVATION_MARGIN_SECONDS=str(MARGIN_SECONDS),
        # The load's clients share one token far past a person's pace: this test is about
        # key rotation, not the per-credential request limit.
        CAREVAULT_API_RATE_LIMIT_PER_MINUTE="1000000",
        CAREVAULT_API_RATE_LIMIT_PER_PRACTICE_PER_MINUTE="10000000",
    )
    return env


async def cli(env: dict[str, str], *args: str, stdin: str | None = None) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "carevault",
        *args,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        output, _ = await asyncio.wait_for(
            process.communicate(None if stdin is None else stdin.encode()), timeout=90
        )
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return process.returncode, output.decode()


@dataclass
class Server:
    base: str
    log: Path


def tail(path: Path, characters: int = 3000) -> str:
    return path.read_text()[-characters:]


@asynccontextmanager
async def running_server(env: dict[str, str], log_path: Path) -> AsyncIterator[Server]:
    """`carevault serve --workers 2` on a free loopback port, stopped with SIGTERM."""
    port = free_port()
    # Logs go to a file: an unread pipe would fill up and block the server.
    with log_path.open("w") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "carevault",
            "serve",
            "--workers",
            "2",
            "--port",
            str(port),
            env=env,
            stdout=log,
            stderr=asyncio.subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            async with httpx.AsyncClient(base_url=base, timeout=2) as probe:
                while True:
                    assert process.returncode is None, tail(log_path)
                    assert time.monotonic() < deadline, "the server never became ready"
                    try:
                        if (await probe.get("/health/ready")).status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    await asyncio.sleep(0.2)
            yield Server(base, log_path)
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(process.wait(), timeout=30)
                except TimeoutError:
                    process.kill()
                    await process.wait()


# Seeding -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeededClient:
    first_name: str
    last_name: str
    email: str
    medical_history: str


def seeded_clients() -> list[SeededClient]:
    return [
        SeededClient(
            f"Given{index:03d}",
            f"Family{index:03d}",
            f"client{index:03d}@rotation.example",
            f"History of client {index}: seasonal allergies, follow-up in spring.",
        )
        for index in range(CLIENTS)
    ]


async def tokens_for(base: str, email: str, count: int) -> list[str]:
    """API tokens of one user, from one sign-in (password hashing is deliberately slow)."""
    async with httpx.AsyncClient(base_url=f"{base}/api/v1", timeout=30) as http:
        login = await http.post("/auth/login", json={"email": email, "password": PASSWORD})
        assert login.status_code == 200, login.text
        tokens = []
        for index in range(count):
            created = await http.post(
                "/auth/tokens",
                json={"name": f"virtual clinician {index}", "scopes": CLINICAL_SCOPES},
                headers={"X-CSRF-Token": login.json()["csrf_token"]},
            )
            assert created.status_code == 201, created.text
            tokens.append(str(created.json()["token"]))
        return tokens


def bearer(base: str, token: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=f"{base}/api/v1", headers={"Authorization": f"Bearer {token}"}, timeout=30
    )


async def seed(base: str, owner_token: str) -> dict[str, SeededClient]:
    """Import the clients, then map their ids to what was imported."""
    clients = seeded_clients()
    lines = ["first_name,last_name,email,medical_history"] + [
        f"{c.first_name},{c.last_name},{c.email},{c.medical_history.replace(',', ';')}"
        for c in clients
    ]
    # Lists answer summaries (no email): the seeded names are unique, so they tell the rows apart.
    by_name = {(c.first_name, c.last_name): c for c in clients}
    assert len(by_name) == CLIENTS
    async with bearer(base, owner_token) as http:
        imported = await http.post(
            "/clients/import",
            content="\n".join(lines) + "\n",
            headers={"Content-Type": "text/csv"},
        )
        assert imported.status_code == 201, imported.text
        assert imported.json()["imported"] == CLIENTS
        expected: dict[str, SeededClient] = {}
        for page in range(1, CLIENTS // PAGE_SIZE + 2):
            listed = await http.get("/clients", params={"page": page, "page_size": PAGE_SIZE})
            assert listed.status_code == 200, listed.text
            for item in listed.json()["items"]:
                seeded = by_name[(item["first_name"], item["last_name"])]
                expected[item["id"]] = SeededClient(
                    seeded.first_name,
                    seeded.last_name,
                    seeded.email,
                    seeded.medical_history.replace(",", ";"),
                )
    assert len(expected) == CLIENTS
    return expected


async def new_note(http: httpx.AsyncClient, client_id: str, text: str) -> dict[str, Any]:
    created = await http.post(
        "/sessions",
        json={
            "client_id": client_id,
            "session_date": date.today().isoformat(),
            "subjective": text,
            "objective": "Calm and engaged.",
            "assessment": "Steady progress.",
            "plan": "Weekly sessions.",
        },
    )
    assert created.status_code == 201, created.text
    return dict(created.json())


# The load ------------------------------------------------------------------------------------


@dataclass
class Tally:
    phase: str = "before"
    responses: Counter[str] = field(default_factory=Counter)  # "kind status"
    ok_by_phase: Counter[tuple[str, str]] = field(default_factory=Counter)  # (phase, kind)
    failures: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.responses.values())


class Clinician:
    """One virtual clinician: owns one draft note, and loops over reads and autosaves."""

    def __init__(
        self, index: int, base: str, token: str, note: dict[str, Any], clients: dict[str, Any]
    ) -> None:
        self.index = index
        self.base = base
        self.token = token
        self.note_id = note["id"]
        self.version = int(note["version"])
        self.acknowledged = note["subjective"]
        self.clients = clients
        self.client_ids = sorted(clients)
        self.random = random.Random(index)
        self.phase = "before"  # of the request being checked

    async def request(
        self, http: httpx.AsyncClient, tally: Tally, kind: str, method: str, url: str, **kw: Any
    ) -> httpx.Response | None:
        phase = self.phase = tally.phase
        started = time.perf_counter()
        try:
            response = await http.request(method, url, **kw)
        except httpx.HTTPError as exc:
            tally.responses[f"{kind} {type(exc).__name__}"] += 1
            tally.failures.append(f"{phase} {kind}: {type(exc).__name__}")
            return None
        tally.latencies.append(time.perf_counter() - started)
        tally.responses[f"{kind} {response.status_code}"] += 1
        if response.status_code != 200:
            tally.failures.append(f"{phase} {kind}: {response.status_code} {response.text[:200]}")
            return None
        return response

    def check(self, tally: Tally, kind: str, ok: bool, what: str) -> None:
        if ok:
            tally.ok_by_phase[(self.phase, kind)] += 1
        else:
            tally.failures.append(f"{self.phase} {kind}: {what}")

    async def run(self, stop: asyncio.Event, tally: Tally) -> None:
        async with bearer(self.base, self.token) as http:
            saves = 0
            while not stop.is_set():
                saves += 1
                await self.autosave(http, tally, f"Clinician {self.index}, autosave {saves}.")
                await self.read_note(http, tally)
                await self.list_clients(http, tally)
                await self.read_client(http, tally)
                if saves % 5 == 0:
                    await self.search_client(http, tally)
                await asyncio.sleep(0.01)

    async def autosave(self, http: httpx.AsyncClient, tally: Tally, text: str) -> None:
        saved = await self.request(
            http,
            tally,
            "autosave",
            "PATCH",
            f"/sessions/{self.note_id}",
            json={"version": self.version, "subjective": text},
        )
        if saved is None:
            # Resynchronise so one failure is not followed by a run of 409s.
            current = await http.get(f"/sessions/{self.note_id}")
            if current.status_code == 200:
                self.version = current.json()["version"]
                self.acknowledged = current.json()["subjective"]
            return
        body = saved.json()
        self.check(
            tally,
            "autosave",
            body["subjective"] == text and body["version"] == self.version + 1,
            "the saved note came back different",
        )
        self.version, self.acknowledged = body["version"], body["subjective"]

    async def read_note(self, http: httpx.AsyncClient, tally: Tally) -> None:
        read = await self.request(http, tally, "note", "GET", f"/sessions/{self.note_id}")
        if read is not None:
            body = read.json()
            self.check(
                tally,
                "note",
                body["subjective"] == self.acknowledged and body["version"] == self.version,
                "the note is not the last acknowledged autosave",
            )

    async def list_clients(self, http: httpx.AsyncClient, tally: Tally) -> None:
        page = self.random.randint(1, -(-CLIENTS // PAGE_SIZE))
        listed = await self.request(
            http, tally, "list", "GET", "/clients", params={"page": page, "page_size": PAGE_SIZE}
        )
        if listed is not None:
            body = listed.json()
            items = body["items"]
            # A row that failed to open would be left out of the page, not fail it: count.
            self.check(
                tally,
                "list",
                body["total"] == CLIENTS
                and len(items) == min(PAGE_SIZE, CLIENTS - (page - 1) * PAGE_SIZE)
                and all(
                    (item["first_name"], item["last_name"])
                    == (
                        self.clients[item["id"]].first_name,
                        self.clients[item["id"]].last_name,
                    )
                    for item in items
                ),
                "the client list is incomplete or wrong",
            )

    async def read_client(self, http: httpx.AsyncClient, tally: Tally) -> None:
        client_id = self.random.choice(self.client_ids)
        read = await self.request(http, tally, "client", "GET", f"/clients/{client_id}")
        if read is not None:
            self.check(
                tally,
                "client",
                read.json()["medical_history"] == self.clients[client_id].medical_history,
                "the client's history is wrong",
            )

    async def search_client(self, http: httpx.AsyncClient, tally: Tally) -> None:
        client_id = self.random.choice(self.client_ids)
        found = await self.request(
            http,
            tally,
            "search",
            "POST",
            "/clients/search",  # the term is PHI: in the body, never the URL
            json={"q": self.clients[client_id].email},
        )
        if found is not None:
            self.check(
                tally,
                "search",
                [item["id"] for item in found.json()["items"]] == [client_id],
                "the search by email did not find exactly the client",
            )


# The runbook ---------------------------------------------------------------------------------


@dataclass
class Runbook:
    rotate_output: str = ""
    reencrypt_output: str = ""
    retire_output: str = ""
    activate_after: datetime | None = None
    reencrypt_seconds: float = 0.0


async def sleep_until(moment: datetime) -> None:
    await asyncio.sleep(max(0.0, (moment - datetime.now(UTC)).total_seconds()))


async def run_book(
    env: dict[str, str], ring_file: Path, tally: Tally, stop: asyncio.Event, book: Runbook
) -> None:
    try:
        await asyncio.sleep(WARMUP_SECONDS)
        rotate = asyncio.create_task(
            cli(env, "keys", "rotate", "--activate-in", f"{ACTIVATE_IN_SECONDS:g}")
        )
        # The pending phase starts when the new version reaches the ring file.
        while (pending := LocalFileProvider(ring_file).load().pending) is None:
            assert not rotate.done(), rotate.result()[1]
            await asyncio.sleep(0.05)
        tally.phase = "pending"
        assert pending.version == 2 and pending.activate_after
        book.activate_after = pending.activate_after
        code, book.rotate_output = await rotate
        assert code == 0, book.rotate_output
        await sleep_until(pending.activate_after)
        tally.phase = "active"
        # One refresh interval of traffic sealing under version 2 before the job starts.
        await asyncio.sleep(REFRESH_SECONDS + 1.5)
        tally.phase = "reencrypt"
        started = time.monotonic()
        code, book.reencrypt_output = await cli(env, "reencrypt", "--batch-size", "50")
        book.reencrypt_seconds = time.monotonic() - started
        assert code == 0, book.reencrypt_output
        tally.phase = "retire"
        code, book.retire_output = await cli(env, "keys", "retire", "1", "--yes")
        assert code == 0, book.retire_output
        tally.phase = "retired"
        await asyncio.sleep(TAIL_SECONDS)
    finally:
        stop.set()


# Checks on the database ----------------------------------------------------------------------


async def stored_headers(database_url: str) -> dict[str, Counter[bytes]]:
    """Per table.column, how many values carry each five-byte header (format + version),
    read straight from the bytes without the application."""
    dsn = database_url.replace("postgresql+asyncpg://", "postgresql://", 1)
    connection = await asyncpg.connect(dsn)
    try:
        found: dict[str, Counter[bytes]] = {}
        for encrypted in encrypted_tables():
            for column in encrypted.columns:
                rows = await connection.fetch(
                    f'SELECT substring("{column.name}" FROM 1 FOR 5) AS head, count(*) AS n '
                    f'FROM "{encrypted.name}" WHERE "{column.name}" IS NOT NULL GROUP BY 1'
                )
                found[f"{encrypted.name}.{column.name}"] = Counter(
                    {bytes(row["head"]): int(row["n"]) for row in rows}
                )
        return found
    finally:
        await connection.close()


async def decryption_failures_audited(database_url: str) -> int:
    dsn = database_url.replace("postgresql+asyncpg://", "postgresql://", 1)
    connection = await asyncpg.connect(dsn)
    try:
        return int(
            await connection.fetchval(
                "SELECT count(*) FROM audit_events WHERE action = 'phi.decryption_failed'"
            )
        )
    finally:
        await connection.close()


# The test ------------------------------------------------------------------------------------


async def create_user(env: dict[str, str], email: str, role: str) -> tuple[int, str]:
    return await cli(
        env,
        "users",
        "create",
        "--workspace",
        "Rotation Clinic",
        "--email",
        email,
        "--role",
        role,
        stdin=PASSWORD + "\n",
    )


async def test_rotate_activate_reencrypt_retire_under_load_fails_no_request(
    new_database: NewDatabase, data_dir: Path, tmp_path: Path
) -> None:
    began = time.monotonic()
    database_url = await new_database()
    env = carevault_env(database_url, data_dir)
    ring_file = data_dir / "keyring.json"  # as `carevault keys init` leaves it (fixture)
    owner_email, clinician_email = "owner@rotation.example", "clinician@rotation.example"

    async def create_users() -> None:
        for email, role in ((owner_email, "owner"), (clinician_email, "clinician")):
            code, output = await create_user(env, email, role)
            assert code == 0, output

    # The users are created while the server starts (it needs only the ring and the schema).
    users = asyncio.create_task(create_users())

    async with running_server(env, tmp_path / "server.log") as server:
        base = server.base
        await users
        tokens = await tokens_for(base, owner_email, CLINICIANS // 2)
        tokens += await tokens_for(base, clinician_email, CLINICIANS - len(tokens))
        owner_token = tokens[0]
        clients = await seed(base, owner_token)
        client_ids = sorted(clients)
        clinicians = []
        for index, token in enumerate(tokens):
            async with bearer(base, token) as http:
                note = await new_note(http, client_ids[index], f"Clinician {index}, first draft.")
                clinicians.append(Clinician(index, base, token, note, clients))
        async with bearer(base, owner_token) as http:
            others = [
                await new_note(http, client_ids[CLINICIANS + i], f"Other note {i}.")
                for i in range(EXTRA_NOTES)
            ]
        assert len(clinicians) == CLINICIANS
        before = await stored_headers(database_url)
        assert set().union(*before.values()) == {envelope.header(envelope.FORMAT_BOUND, 1)}

        tally, stop, book = Tally(), asyncio.Event(), Runbook()
        load_started = time.monotonic()
        setup_seconds = load_started - began
        await asyncio.wait_for(
            asyncio.gather(
                run_book(env, ring_file, tally, stop, book),
                *(clinician.run(stop, tally) for clinician in clinicians),
            ),
            timeout=HARD_LIMIT_SECONDS,
        )
        load_seconds = time.monotonic() - load_started

        # After the retirement: every note reads back as its clinician last saved it.
        finals: dict[str, str] = {}
        async with bearer(base, owner_token) as http:
            for clinician in clinicians:
                read = await http.get(f"/sessions/{clinician.note_id}")
                assert read.status_code == 200, read.text
                finals[clinician.note_id] = read.json()["subjective"]
                assert read.json()["version"] == clinician.version
            for index, note in enumerate(others):
                read = await http.get(f"/sessions/{note['id']}")
                assert read.status_code == 200, read.text
                assert read.json()["subjective"] == f"Other note {index}."
    log = tail(server.log, 10**7)

    report = {
        "requests": tally.total,
        "failed": len(tally.failures),
        "load_seconds": round(load_seconds, 1),
        "requests_per_second": round(tally.total / load_seconds, 1),
        "median_ms": round(statistics.median(tally.latencies) * 1000, 1),
        "p99_ms": round(statistics.quantiles(tally.latencies, n=100)[98] * 1000, 1),
        "responses": dict(sorted(tally.responses.items())),
        "ok_by_phase": {f"{p} {k}": n for (p, k), n in sorted(tally.ok_by_phase.items())},
        "reencrypt_seconds": round(book.reencrypt_seconds, 1),
        "reencrypt_summary": next(
            (line for line in book.reencrypt_output.splitlines() if "Re-encrypted" in line), ""
        ),
        "setup_seconds": round(setup_seconds, 1),
        "test_seconds": round(time.monotonic() - began, 1),
    }
    print("\nrotation under load:", json.dumps(report, indent=2))

    assert tally.failures == [], tally.failures[:20]
    # The load really ran through every step of the runbook.
    for phase in PHASES:
        for kind in ("autosave", "note", "list", "client"):
            assert tally.ok_by_phase[(phase, kind)] > 0, (phase, kind, report)
    assert set(tally.responses) <= {
        f"{kind} 200" for kind in ("autosave", "note", "list", "client", "search")
    }
    for clinician in clinicians:
        assert finals[clinician.note_id] == clinician.acknowledged
    assert "Re-encrypted" in book.reencrypt_output
    assert "is retired" in book.retire_output

    # Every stored value is format 0x03 under version 2, and version 1 is gone for good.
    after = await stored_headers(database_url)
    assert set().union(*after.values()) == {envelope.header(envelope.FORMAT_BOUND, 2)}, after
    ring = LocalFileProvider(ring_file).load()
    assert ring.encryption_version() == 2 and ring.keys[1].retired and ring.keys[1].material is None
    assert await decryption_failures_audited(database_url) == 0

    # Staging worked: no worker ever met a version it had not loaded (no miss refresh),
    # and both workers served.
    assert log.count("Started server process") >= 2, log[-3000:]
    assert "lacks; refreshing now" not in log
    assert "PHI decryption failed" not in log
    # Searches by email went on throughout: the search terms (PHI) never reach the log.
    assert tally.responses["search 200"] > 0
    assert "rotation.example" not in log
    assert "Traceback" not in log, log[-5000:]
