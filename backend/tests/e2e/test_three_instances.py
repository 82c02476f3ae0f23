"""Three `carevault serve` processes behind HAProxy (round robin, health-checked on
/health/ready), sharing one PostgreSQL database, one key ring and one Redis (request limits
and notices), as a hosting provider runs them (issue 27). In one bounded run it shows:

- one API token's limit holds across the three: as many requests admitted as one budget
  allows (within 10 %), each instance admitting some of them;
- a revoked token, a disabled user and a shredded practice fail on the very next request on
  every instance (each asked directly, not through HAProxy);
- exactly one audit sealer seals at a time: the sealer's advisory lock, sampled in
  `pg_locks` all through the run, is never held by two backends; no event is in two seals;
  every practice's seal sequence has no gap and no fork; `carevault audit verify` passes;
- `keys rotate` then `keys activate` under light traffic through HAProxy: 0 failed
  requests, and values written after the activation are under the new version whichever
  instance wrote them;
- `kill -9` of one instance under a stream of creates (each with an Idempotency-Key, retried
  by the client with the same key after a 502/503 or a dropped connection): every
  acknowledged create is there afterwards, none twice.

Loopback only; stops by itself (a hard limit bounds every phase). Needs Debian's haproxy
and Redis on 127.0.0.1:6379: skipped without them, except in CI (`CI=true`), where that
is a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from carevault.audit.sealing import SEALER_LOCK
from carevault.auth.scopes import EVERY_SCOPE, OWNER_ONLY_SCOPES
from carevault.crypto import LocalFileProvider, envelope
from tests.support.db import IN_CI, NewDatabase
from tests.support.processes import carevault_env, free_port
from tests.support.redis_server import redis_url

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.haproxy import HAPROXY, INSTANCE_HEADER, haproxy  # noqa: E402

pytestmark = pytest.mark.e2e

INSTANCES = 3
LIMIT = 200  # units a minute per credential (a read costs 1)
PASSWORD = "three-instances-password"
MAIN, SHRED = "Main clinic", "Shred clinic"
CLINICAL_SCOPES = [scope for scope in EVERY_SCOPE if scope not in OWNER_ONLY_SCOPES]
HARD_LIMIT_SECONDS = 150.0


def require(condition: bool, message: str) -> None:
    if not condition:
        if IN_CI:
            pytest.fail(f"the three-instance test must run in CI: {message}")
        pytest.skip(message)


def libpq(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def cli(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
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
    assert process.returncode == 0, (args, output.decode()[-3000:])
    return output.decode()


@dataclass
class Instance:
    name: str
    port: int
    log: Path
    process: asyncio.subprocess.Process | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@asynccontextmanager
async def serving(env: dict[str, str], instances: list[Instance]) -> AsyncIterator[None]:
    """Every instance started at once, each `carevault serve` with one worker; SIGTERM at
    the end (SIGKILL after 30 s)."""
    logs = []
    try:
        for instance in instances:
            log = instance.log.open("w")
            logs.append(log)
            instance.process = await asyncio.create_subprocess_exec(
                *(sys.executable, "-m", "carevault", "serve", "--port", str(instance.port)),
                env=env,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        deadline = time.monotonic() + 90
        async with httpx.AsyncClient(timeout=2) as probe:
            for instance in instances:
                while True:
                    assert instance.process is not None
                    assert instance.process.returncode is None, instance.log.read_text()[-3000:]
                    assert time.monotonic() < deadline, f"{instance.name} never became ready"
                    with contextlib.suppress(httpx.TransportError):
                        if (await probe.get(f"{instance.base}/health/ready")).status_code == 200:
                            break
                    await asyncio.sleep(0.2)
        yield
    finally:
        for instance in instances:
            if instance.process is not None and instance.process.returncode is None:
                instance.process.send_signal(signal.SIGTERM)
        for instance in instances:
            if instance.process is not None:
                try:
                    await asyncio.wait_for(instance.process.wait(), timeout=30)
                except TimeoutError:
                    instance.process.kill()
                    await instance.process.wait()
        for log in logs:
            log.close()


async def signed_in(base: str, email: str) -> httpx.AsyncClient:
    http = httpx.AsyncClient(base_url=f"{base}/api/v1", timeout=30)
    login = await http.post("/auth/login", json={"email": email, "password": PASSWORD})
    assert login.status_code == 200, login.text
    http.headers["X-CSRF-Token"] = login.json()["csrf_token"]
    return http


async def new_token(session: httpx.AsyncClient, scopes: list[str]) -> tuple[str, str]:
    created = await session.post("/auth/tokens", json={"name": "e2e", "scopes": scopes})
    assert created.status_code == 201, created.text
    return str(created.json()["token"]), str(created.json()["id"])


def bearer(base: str, token: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=f"{base}/api/v1", headers={"Authorization": f"Bearer {token}"}, timeout=30
    )


# The sealer's lock, watched from outside -------------------------------------------------------


@dataclass
class LockWatch:
    samples: int = 0
    held: int = 0  # samples in which some backend held it
    most_holders: int = 0
    holders: set[int] = field(default_factory=set)  # backend pids seen holding it


async def watch_sealer_lock(dsn: str, stop: asyncio.Event, watch: LockWatch) -> None:
    """Every 20 ms: how many backends hold the sealer's advisory lock (granted)."""
    connection = await asyncpg.connect(dsn)
    try:
        while not stop.is_set():
            # This database's only: other tests' sealers share the server.
            rows = await connection.fetch(
                "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
                " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                " AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 2",
                SEALER_LOCK[0],
                SEALER_LOCK[1],
            )
            watch.samples += 1
            watch.held += bool(rows)
            watch.most_holders = max(watch.most_holders, len(rows))
            watch.holders |= {row["pid"] for row in rows}
            await asyncio.sleep(0.02)
    finally:
        await connection.close()


async def seal_problems(dsn: str) -> dict[str, int]:
    connection = await asyncpg.connect(dsn)
    try:
        twice = await connection.fetchval(
            "SELECT count(*) FROM (SELECT e FROM audit_seals, unnest(event_ids) AS e"
            " GROUP BY e HAVING count(*) > 1) AS doubled"
        )
        gaps = await connection.fetchval(
            "SELECT count(*) FROM (SELECT workspace_id, count(*) AS n, count(DISTINCT seq) AS d,"
            " min(seq) AS lo, max(seq) AS hi FROM audit_seals GROUP BY workspace_id) AS chains"
            " WHERE n <> d OR hi - lo + 1 <> n"
        )
        unsealed = await connection.fetchval(
            "SELECT count(*) FROM audit_events WHERE id NOT IN"
            " (SELECT unnest(event_ids) FROM audit_seals)"
        )
        seals = await connection.fetchval("SELECT count(*) FROM audit_seals")
        return {"twice": twice, "gaps": gaps, "unsealed": unsealed, "seals": seals}
    finally:
        await connection.close()


# Load helpers --------------------------------------------------------------------------------


def client_body(label: str) -> dict[str, Any]:
    return {"first_name": "Given", "last_name": label, "medical_history": f"History {label}."}


@dataclass
class Traffic:
    statuses: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    by_instance: Counter[str] = field(default_factory=Counter)


async def light_traffic(
    base: str, token: str, index: int, stop: asyncio.Event, traffic: Traffic
) -> list[tuple[float, str]]:
    """A clinician's pace: create a client, read it back, list a page; no retries, so any
    failure counts. Answers the ids it created, each with when its create was sent."""
    created_ids: list[tuple[float, str]] = []
    async with bearer(base, token) as http:
        step = 0
        while not stop.is_set():
            step += 1
            label = f"Light{index}x{step}"
            sent = time.monotonic()
            try:
                made = await http.post(
                    "/clients",
                    json=client_body(label),
                    headers={"Idempotency-Key": str(uuid.uuid4())},
                )
                traffic.statuses[f"create {made.status_code}"] += 1
                traffic.by_instance[made.headers.get(INSTANCE_HEADER, "?")] += 1
                if made.status_code != 201:
                    traffic.failures.append(f"create {made.status_code} {made.text[:200]}")
                    continue
                client_id = made.json()["id"]
                created_ids.append((sent, client_id))
                read = await http.get(f"/clients/{client_id}")
                traffic.statuses[f"read {read.status_code}"] += 1
                if read.status_code != 200 or read.json()["last_name"] != label:
                    traffic.failures.append(f"read {read.status_code} {read.text[:200]}")
                listed = await http.get("/clients", params={"page_size": 5})
                traffic.statuses[f"list {listed.status_code}"] += 1
                if listed.status_code != 200:
                    traffic.failures.append(f"list {listed.status_code} {listed.text[:200]}")
            except httpx.HTTPError as exc:
                traffic.failures.append(f"{type(exc).__name__}")
            # 4 units a round: at 0.6 s apart a token spends under its 200-unit budget for
            # the whole step even on a slow run (0.15 s spent it in about 10 s: 429s).
            await asyncio.sleep(0.6)
    return created_ids


@dataclass
class Writes:
    acknowledged: dict[str, str] = field(default_factory=dict)  # client id -> label
    attempts: int = 0
    retried: Counter[str] = field(default_factory=Counter)  # why a create was sent again
    given_up: list[str] = field(default_factory=list)


async def idempotent_writer(
    base: str, token: str, index: int, stop: asyncio.Event, writes: Writes
) -> None:
    """Creates, each with its own Idempotency-Key, sent again with the same key after a
    gateway error or a dropped connection until acknowledged (bounded)."""
    async with bearer(base, token) as http:
        step = 0
        while not stop.is_set():
            step += 1
            label, key = f"Kill{index}x{step}", str(uuid.uuid4())
            writes.attempts += 1
            for _ in range(40):
                try:
                    made = await http.post(
                        "/clients", json=client_body(label), headers={"Idempotency-Key": key}
                    )
                except httpx.TransportError as exc:
                    writes.retried[type(exc).__name__] += 1
                    await asyncio.sleep(0.1)
                    continue
                if made.status_code in (502, 503, 504):
                    writes.retried[str(made.status_code)] += 1
                    await asyncio.sleep(0.1)
                    continue
                if made.status_code in (200, 201):
                    writes.acknowledged[made.json()["id"]] = label
                else:
                    writes.given_up.append(f"{made.status_code} {made.text[:200]}")
                break
            else:
                writes.given_up.append(f"{label}: no answer after 40 tries")
            await asyncio.sleep(0.05)


async def newest_client_headers(dsn: str, ids: list[str]) -> Counter[bytes]:
    connection = await asyncpg.connect(dsn)
    try:
        rows = await connection.fetch(
            "SELECT substring(last_name FROM 1 FOR 5) AS head FROM clients"
            " WHERE id = ANY($1::uuid[])",
            ids,
        )
        return Counter(bytes(row["head"]) for row in rows)
    finally:
        await connection.close()


async def count_clients(dsn: str) -> int:
    connection = await asyncpg.connect(dsn)
    try:
        return int(await connection.fetchval("SELECT count(*) FROM clients"))
    finally:
        await connection.close()


# The test ------------------------------------------------------------------------------------


async def test_three_instances_behind_haproxy_share_one_truth(
    new_database: NewDatabase, data_dir: Path, tmp_path: Path
) -> None:
    require(HAPROXY is not None, "Debian's haproxy is not installed (scripts/setup-machine.sh)")
    redis = redis_url()
    require(redis is not None, "no Redis on 127.0.0.1:6379 and no redis-server to start")
    assert redis is not None
    began = time.monotonic()
    database_url = await new_database()
    dsn = libpq(database_url)
    env = carevault_env(database_url, data_dir)
    env.update(
        CAREVAULT_REDIS_URL=redis,
        CAREVAULT_NOTIFICATIONS="true",
        CAREVAULT_API_RATE_LIMIT_PER_MINUTE=str(LIMIT),
        CAREVAULT_API_RATE_LIMIT_PER_PRACTICE_PER_MINUTE="1000000",
        CAREVAULT_KEY_CACHE_TTL_SECONDS="1",
        CAREVAULT_KEY_ACTIVATION_MARGIN_SECONDS="1",
        CAREVAULT_AUDIT_SEAL_INTERVAL_SECONDS="0.2",
        CAREVAULT_WEBHOOK_WORKER="false",
    )
    owner, leaver, other = "owner@main.example", "leaver@main.example", "owner@shred.example"

    async def create_users() -> None:
        for email, role, space in ((owner, "owner", MAIN), (leaver, "clinician", MAIN)):
            await cli(env, "users", "create", "--workspace", space, "--email", email,
                      "--role", role, stdin=PASSWORD + "\n")  # fmt: skip
        await cli(env, "users", "create", "--workspace", SHRED, "--email", other,
                  "--role", "owner", stdin=PASSWORD + "\n")  # fmt: skip

    instances = [
        Instance(f"a{n + 1}", free_port(), tmp_path / f"a{n + 1}.log") for n in range(INSTANCES)
    ]
    users = asyncio.create_task(create_users())  # while the instances start
    stop_watch, watch = asyncio.Event(), LockWatch()
    report: dict[str, Any] = {}
    async with serving(env, instances):
        await users
        report["startup_seconds"] = round(time.monotonic() - began, 1)
        front_port = free_port()
        base = f"http://127.0.0.1:{front_port}"
        with haproxy(tmp_path, front_port, [(i.name, i.port) for i in instances]):
            watcher = asyncio.create_task(watch_sealer_lock(dsn, stop_watch, watch))
            # HAProxy has seen every instance healthy: each answers through it.
            seen: set[str] = set()
            async with httpx.AsyncClient(base_url=base, timeout=5) as probe:
                deadline = time.monotonic() + 20
                while seen != {i.name for i in instances}:
                    assert time.monotonic() < deadline, f"HAProxy sends only to {seen}"
                    with contextlib.suppress(httpx.TransportError):
                        answer = await probe.get("/health")
                        if answer.status_code == 200:
                            seen.add(answer.headers[INSTANCE_HEADER])
                    await asyncio.sleep(0.1)

            owner_session = await signed_in(base, owner)
            leaver_session = await signed_in(base, leaver)
            other_session = await signed_in(base, other)
            try:
                await asyncio.wait_for(
                    run_phases(
                        base, dsn, env, data_dir, instances,
                        owner_session, leaver_session, other_session, report,
                    ),
                    timeout=HARD_LIMIT_SECONDS,
                )  # fmt: skip
            finally:
                for session in (owner_session, leaver_session, other_session):
                    await session.aclose()
                stop_watch.set()
                await watcher

            # The sealers catch up (two instances left), then the trail is checked.
            deadline = time.monotonic() + 15
            while (problems := await seal_problems(dsn))["unsealed"]:
                assert time.monotonic() < deadline, problems
                await asyncio.sleep(0.3)
    verified = await cli(env, "audit", "verify")
    report["sealer"] = {
        **problems,
        "lock_samples": watch.samples,
        "samples_held": watch.held,
        "most_holders": watch.most_holders,
        "holder_backends": len(watch.holders),
    }
    report["test_seconds"] = round(time.monotonic() - began, 1)
    print("\nthree instances:", json.dumps(report, indent=2))

    assert watch.most_holders == 1, "two backends held the sealer's lock at once"
    assert watch.held > 0, "the sampler never saw a sealer at work"
    assert problems["twice"] == 0 and problems["gaps"] == 0 and problems["seals"] > 0
    assert "Traceback" not in verified
    for instance in instances:
        log = instance.log.read_text()
        assert "Traceback" not in log or instance.name == report["killed"], log[-4000:]
        assert "owner@main.example" not in log


async def run_phases(
    base: str,
    dsn: str,
    env: dict[str, str],
    data_dir: Path,
    instances: list[Instance],
    owner_session: httpx.AsyncClient,
    leaver_session: httpx.AsyncClient,
    other_session: httpx.AsyncClient,
    report: dict[str, Any],
) -> None:
    # 1. One credential's budget, spent through all three ---------------------------------
    limited, _ = await new_token(owner_session, CLINICAL_SCOPES)
    statuses: Counter[int] = Counter()
    admitted_by: Counter[str] = Counter()
    started = time.monotonic()
    async with bearer(base, limited) as http:
        queue = list(range(int(LIMIT * 1.5)))

        async def spend() -> None:
            while queue:
                queue.pop()
                answer = await http.get("/clients", params={"page_size": 1})
                statuses[answer.status_code] += 1
                if answer.status_code == 200:
                    admitted_by[answer.headers[INSTANCE_HEADER]] += 1

        await asyncio.gather(*(spend() for _ in range(12)))
    spent_seconds = time.monotonic() - started
    admitted = statuses[200]
    # GCRA refills LIMIT/60 units a second: what the run's own length adds to one budget.
    allowed = LIMIT + LIMIT / 60 * spent_seconds
    report["limit"] = {
        "limit": LIMIT,
        "sent": sum(statuses.values()),
        "admitted": admitted,
        "refused": statuses[429],
        "seconds": round(spent_seconds, 2),
        "admitted_by_instance": dict(sorted(admitted_by.items())),
    }
    assert set(statuses) <= {200, 429}, statuses
    assert 0.9 * allowed <= admitted <= 1.1 * allowed, report["limit"]
    assert admitted < 1.5 * LIMIT  # per process, three budgets would have admitted 1.5 × LIMIT
    assert set(admitted_by) == {i.name for i in instances}, admitted_by

    # 2. Revoked token, disabled user, shredded practice: refused by every instance at once -
    revoked, revoked_id = await new_token(owner_session, CLINICAL_SCOPES)
    leavers, _ = await new_token(leaver_session, CLINICAL_SCOPES)
    shredded, _ = await new_token(other_session, list(EVERY_SCOPE))
    async with bearer(base, shredded) as http:
        made = await http.post("/clients", json=client_body("Shredded"))
        assert made.status_code == 201, made.text
        shredded_client = made.json()["id"]
    # Every instance has used each credential (and opened the practice's keys).
    for instance in instances:
        for token, path in ((revoked, "/clients"), (leavers, "/clients"),
                            (shredded, f"/clients/{shredded_client}")):  # fmt: skip
            async with bearer(instance.base, token) as http:
                assert (await http.get(path)).status_code == 200, instance.name

    async def codes_everywhere(token: str, path: str) -> list[tuple[int, str]]:
        answers = []
        for instance in instances:
            async with bearer(instance.base, token) as http:
                answer = await http.get(path)
                answers.append((answer.status_code, answer.json().get("error", {}).get("code")))
        return answers

    assert (await owner_session.delete(f"/auth/tokens/{revoked_id}")).status_code == 204
    after_revoke = await codes_everywhere(revoked, "/clients")
    leaver_id = (await leaver_session.get("/auth/me")).json()["user"]["id"]
    disabled = await owner_session.post(f"/users/{leaver_id}/disable")
    assert disabled.status_code == 200, disabled.text
    after_disable = await codes_everywhere(leavers, "/clients")
    await cli(env, "workspaces", "shred", "--workspace", SHRED, "--confirm", SHRED)
    after_shred = await codes_everywhere(shredded, f"/clients/{shredded_client}")
    report["revocation"] = {
        "revoked_token": after_revoke,
        "disabled_user": after_disable,
        "shredded_practice": after_shred,
    }
    assert after_revoke == [(401, "token_revoked")] * INSTANCES, after_revoke
    assert all(status == 401 for status, _ in after_disable), after_disable
    assert after_shred == [(410, "workspace_shredded")] * INSTANCES, after_shred

    # 3. Rotation with activation under light traffic: no failed request -------------------
    tokens = [(await new_token(owner_session, CLINICAL_SCOPES))[0] for _ in range(3)]
    stop, traffic = asyncio.Event(), Traffic()
    load = [
        asyncio.create_task(light_traffic(base, token, n, stop, traffic))
        for n, token in enumerate(tokens)
    ]
    try:
        await asyncio.sleep(1.0)
        await cli(env, "keys", "rotate", "--activate-in", "60")
        ring = LocalFileProvider(data_dir / "keyring.json").load()
        assert ring.pending is not None and ring.pending.version == 2
        await asyncio.sleep(2.2)  # one refresh interval and the margin: every process has it
        await cli(env, "keys", "activate", "2")
        await asyncio.sleep(1.0)  # the notice is heard within a second
        tail_started = time.monotonic()
        await asyncio.sleep(2.5)
    finally:
        stop.set()
    created = await asyncio.gather(*load)
    report["rotation"] = {
        "responses": dict(sorted(traffic.statuses.items())),
        "by_instance": dict(sorted(traffic.by_instance.items())),
        "failed": len(traffic.failures),
    }
    assert traffic.failures == [], traffic.failures[:10]
    assert set(traffic.by_instance) == {i.name for i in instances}, traffic.by_instance
    # Sent a second or more after `keys activate` returned (its notice heard by then):
    # under version 2, whichever instance wrote them.
    newest = [i for ids in created for sent, i in ids if sent >= tail_started]
    heads = await newest_client_headers(dsn, newest)
    report["rotation"]["created_after_activation"] = len(newest)
    assert len(newest) >= INSTANCES, "too few creates after the activation to judge"
    assert set(heads) == {envelope.header(envelope.FORMAT_BOUND, 2)}, heads

    # 4. kill -9 one instance under idempotent creates: no acknowledged write lost --------
    before = await count_clients(dsn)
    writers = [(await new_token(owner_session, CLINICAL_SCOPES))[0] for _ in range(4)]
    stop, writes = asyncio.Event(), Writes()
    writing = [
        asyncio.create_task(idempotent_writer(base, token, n, stop, writes))
        for n, token in enumerate(writers)
    ]
    victim = instances[-1]
    try:
        await asyncio.sleep(1.5)
        assert victim.process is not None
        os.kill(victim.process.pid, signal.SIGKILL)
        report["killed"] = victim.name
        await asyncio.sleep(3.0)
    finally:
        stop.set()
    await asyncio.gather(*writing)
    after = await count_clients(dsn)
    report["kill"] = {
        "creates": writes.attempts,
        "acknowledged": len(writes.acknowledged),
        "sent_again": dict(writes.retried),
        "given_up": len(writes.given_up),
        "rows_added": after - before,
    }
    assert writes.given_up == [], writes.given_up[:10]
    assert len(writes.acknowledged) == writes.attempts
    # Every acknowledged create is stored, once: no loss, no duplicate from a retry.
    assert after - before == len(writes.acknowledged), report["kill"]
    async with bearer(base, writers[0]) as http:
        sample = list(writes.acknowledged.items())
        for client_id, label in sample[:: max(1, len(sample) // 20)]:
            read = await http.get(f"/clients/{client_id}")
            assert read.status_code == 200 and read.json()["last_name"] == label, read.text
