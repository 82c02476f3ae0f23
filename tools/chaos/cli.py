"""`python -m tools.chaos [--quick] [--only NAME ...] [--report FILE]`."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from tools.chaos.clinicians import Load, Sample
from tools.chaos.malformed import send_malformed
from tools.chaos.pgbouncer import OwnPgBouncer
from tools.chaos.postgres import OwnPostgres
from tools.chaos.report import write_report
from tools.loadtest.api import Credentials, api_token
from tools.loadtest.processes import ServerProcess, free_port, role_of, run_carevault, tree

DATABASE = "carevault_chaos"
PASSWORD = "chaos suite password"  # noqa: S105 (a throwaway account in a throwaway database)
RECOVERY_LIMIT_SECONDS = 90.0
# Scenarios where no request may fail even inside the fault window: malformed requests are
# the clients' fault, and while the key provider is down the cached ring keeps serving.
MALFORMED = "malformed requests"
KEYS_DOWN = "key provider down + rotation"
NO_5XX_IN_WINDOW = (MALFORMED, KEYS_DOWN)
DATABASE_STOPPED = "database stopped"
FAST_STOP_CLIENTS = "database fast stop, 10 token clients"
# Scenarios where the server keeps every client's keep-alive connection: a database outage
# is answered with 503s on the same connection, never by closing it.
KEEPS_CONNECTIONS = (DATABASE_STOPPED, FAST_STOP_CLIENTS)
# The only server errors any scenario may see: the failure vocabulary's JSON 503s (with
# Retry-After; api/failures.py). A plain-text or JSON 500 is a defect wherever it appears.
FAILURE_CODES = {"database_unavailable", "database_timeout", "storage_full"}


@dataclass
class Outcome:
    name: str
    fault: str
    skipped: str | None = None
    requests: int = 0
    acknowledged: int = 0
    lost: int = 0
    phantom_writes: int = 0
    unexplained_gaps: int = 0
    errors_in_window: int = 0  # 5xx
    errors_outside: int = 0
    no_answer_in_window: int = 0
    no_answer_outside: int = 0
    recovery_seconds: float | None = None
    audit_verify: bool | None = None
    tracebacks: int = 0
    notes: list[str] = field(default_factory=list)
    latencies: dict[str, list[float]] = field(default_factory=dict)  # steady state, by kind
    steady_ok: int = 0
    steady_total: int = 0
    statuses: dict[int, int] = field(default_factory=dict)  # every answer, by HTTP status
    codes: dict[str, int] = field(default_factory=dict)  # the error codes of the 5xx
    off_vocabulary: int = 0  # 5xx other than a JSON 503 of FAILURE_CODES with Retry-After
    clients: int = 0  # API-token clients (virtual clinicians) during the scenario
    reopened_connections: int = 0  # keep-alive connections the clients had to open again

    def summary(self) -> str:
        if self.skipped:
            return f"{self.name}: skipped ({self.skipped})"
        return (
            f"{self.name}: {self.requests} requests, {self.acknowledged} acknowledged, "
            f"lost {self.lost}, phantom {self.phantom_writes}, gaps {self.unexplained_gaps}, "
            f"5xx {self.errors_in_window}/{self.errors_outside}, no answer "
            f"{self.no_answer_in_window}/{self.no_answer_outside}, recovery "
            f"{self.recovery_seconds} s, audit verify {self.audit_verify}, "
            f"{self.clients} clients, connections reopened {self.reopened_connections}, "
            f"5xx outside the vocabulary {self.off_vocabulary}, statuses "
            f"{dict(sorted(self.statuses.items()))}, 5xx codes {self.codes}; "
            f"{'; '.join(self.notes)}"
        )


@dataclass
class Timing:
    clinicians: int = 4
    warmup: float = 4.0
    tail: float = 4.0
    db_stop: float = 10.0
    db_freeze: float = 12.0
    keys_down: float = 15.0
    disk_full: float = 15.0
    malformed: int = 200
    fast_stop_clients: int = 10
    # Those clients send back to back, as scripts do (a clinician thinks 0.25 s), so that
    # requests meet pooled connections at the moment the server ends them.
    fast_stop_think: float = 0.0


QUICK = Timing(clinicians=2, warmup=1.5, tail=1.0, db_stop=3.0)


class Harness:
    """The suite's own PostgreSQL, moto server and `carevault serve --workers 2`."""

    def __init__(
        self, workdir: Path, timing: Timing, *, use_moto: bool = True, pgbouncer: bool = False
    ) -> None:
        self.workdir = workdir
        self.timing = timing
        self.use_moto = use_moto
        self.pg = OwnPostgres(workdir / "postgres", free_port())
        # The app behind PgBouncer in transaction mode (CAREVAULT_DATABASE_POOLER); the
        # suite's own checks and the faults still go to PostgreSQL itself.
        self.bouncer = (
            OwnPgBouncer(workdir / "pgbouncer", free_port(), self.pg.port) if pgbouncer else None
        )
        self.moto: subprocess.Popen[bytes] | None = None
        self.server: ServerProcess | None = None
        self.tokens: list[str] = []
        self.emails: list[str] = []
        self.env: dict[str, str] = {}

    # --- setup and teardown --------------------------------------------------------------

    def start(self) -> None:
        self.pg.init()
        self.pg.start()
        asyncio.run(self._create_database())
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CAREVAULT_", "AWS_"))}
        env.update(
            {
                "CAREVAULT_DATABASE_URL": self.pg.url(DATABASE),
                "CAREVAULT_DATA_DIR": str(self.workdir / "data"),
                "CAREVAULT_LOG_LEVEL": "warning",
                "CAREVAULT_LOG_FORMAT": "json",
                "CAREVAULT_KEY_CACHE_TTL_SECONDS": "3",
                # Staged rotation: a rotated key activates 3 + 1 s later at the earliest.
                "CAREVAULT_KEY_ACTIVATION_MARGIN_SECONDS": "1",
                # The generator is not a person: no per-credential request limit in its way.
                "CAREVAULT_API_RATE_LIMIT_PER_MINUTE": "1000000",
                "CAREVAULT_API_RATE_LIMIT_PER_PRACTICE_PER_MINUTE": "10000000",
            }
        )
        if self.bouncer is not None:
            self.bouncer.start()
            env.update(
                {
                    "CAREVAULT_DATABASE_URL": self.bouncer.url(DATABASE),
                    "CAREVAULT_DATABASE_POOLER": "transaction",
                    "CAREVAULT_MIGRATION_DATABASE_URL": self.pg.url(DATABASE),
                }
            )
        if self.use_moto:
            port = free_port()
            self.moto = subprocess.Popen(  # noqa: S603 (our interpreter, fixed arguments)
                [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            env.update(
                {
                    "CAREVAULT_KEY_PROVIDER": "aws",
                    "CAREVAULT_AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
                    "CAREVAULT_AWS_REGION": "us-east-1",
                    "CAREVAULT_AWS_SECRET_ID": "chaos/keyring",
                    "AWS_ACCESS_KEY_ID": "testing",
                    "AWS_SECRET_ACCESS_KEY": "testing",
                    "AWS_DEFAULT_REGION": "us-east-1",
                }
            )
            self._wait_for_port(port)
        self.env = env
        run_carevault(["db", "upgrade"], env, timeout=180)
        run_carevault(["keys", "init"], env, timeout=60)  # only `keys init` creates a ring
        emails = self.emails = [f"clinician{i}@chaos.test" for i in range(self.timing.clinicians)]
        for email in emails:
            run_carevault(
                ["users", "create", "--workspace", "Chaos practice", "--email", email],
                env,
                stdin=PASSWORD + "\n",
                timeout=120,
            )
        self.server = ServerProcess(env, workers=2, log_path=self.workdir / "server.log")
        self.server.start(timeout=180)
        self.tokens = [
            asyncio.run(api_token(self.server.base_url, Credentials(email, PASSWORD)))
            for email in emails
        ]

    async def tokens_for(self, clients: int) -> list[str]:
        """`clients` API tokens: the clinicians' own, then more of theirs in turn (a token
        per client; the clinician they belong to does not matter to the faults)."""
        assert self.server is not None
        while len(self.tokens) < clients:
            email = self.emails[len(self.tokens) % len(self.emails)]
            self.tokens.append(await api_token(self.server.base_url, Credentials(email, PASSWORD)))
        return self.tokens[:clients]

    async def _create_database(self) -> None:
        connection = await asyncpg.connect(self.pg.admin_dsn, timeout=30)
        try:
            await connection.execute(f'CREATE DATABASE "{DATABASE}"')
        finally:
            await connection.close()

    @staticmethod
    def _wait_for_port(port: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                return
            time.sleep(0.2)
        raise RuntimeError("moto's server did not start")

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
        if self.moto is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.moto.pid, signal.SIGCONT)
            self.moto.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.moto.wait(10)
            if self.moto.poll() is None:
                self.moto.kill()
        if self.bouncer is not None:
            self.bouncer.stop()
        self.pg.thaw()
        self.pg.stop("immediate")
        self.pg.unmount_small_disk()

    # --- one scenario ----------------------------------------------------------------------

    async def run(
        self,
        name: str,
        fault_text: str,
        fault: Callable[[Load, Outcome], Awaitable[tuple[float, float]]],
        prepare: Callable[[Outcome], Awaitable[str | None]] | None = None,
        clients: int | None = None,
        think_seconds: float | None = None,
    ) -> Outcome:
        """One scenario, with `clients` API-token clients (by default one per clinician)."""
        assert self.server is not None
        outcome = Outcome(name, fault_text)
        if prepare is not None:
            outcome.skipped = await prepare(outcome)
            if outcome.skipped:
                return outcome
        log_offset = self._log_size()
        tokens = await self.tokens_for(clients or self.timing.clinicians)
        outcome.clients = len(tokens)
        load = Load(self.server.base_url, tokens)
        if think_seconds is not None:
            load.think_seconds = think_seconds
        for index, token in enumerate(tokens):
            headers = {"Authorization": f"Bearer {token}"}
            async with httpx.AsyncClient(
                base_url=self.server.base_url, headers=headers, timeout=15
            ) as client:
                load.notes.append(await load.prepare(client, index, name))
        load.samples.clear()
        workers = [
            asyncio.create_task(load.clinician(i, ledger)) for i, ledger in enumerate(load.notes)
        ]
        try:
            await asyncio.sleep(self.timing.warmup)
            started, ended = await fault(load, outcome)
            outcome.recovery_seconds = await self._recovery(load, ended)
            await asyncio.sleep(self.timing.tail)
        finally:
            load.stop.set()
            await asyncio.wait_for(asyncio.gather(*workers, return_exceptions=True), 60)
        outcome.reopened_connections = load.reopened_connections()
        window_end = ended + (outcome.recovery_seconds or RECOVERY_LIMIT_SECONDS)
        counts = await load.verify()
        outcome.lost = counts["lost"]
        outcome.phantom_writes = counts["phantom_writes"]
        outcome.unexplained_gaps = counts["unexplained_gaps"]
        self._tally(load, outcome, started, window_end)
        outcome.audit_verify = await asyncio.to_thread(self._audit_verify)
        outcome.tracebacks = self._tracebacks_since(log_offset)
        return outcome

    async def _recovery(self, load: Load, since: float) -> float | None:
        """Seconds from the end of the fault until every clinician has saved again."""
        deadline = time.monotonic() + RECOVERY_LIMIT_SECONDS
        while time.monotonic() < deadline:
            recovered = {
                i
                for i, ledger in enumerate(load.notes)
                if any(s.started >= since for s in _ok_saves(load, ledger.note_id))
            }
            if len(recovered) == len(load.notes):
                first = [
                    min(
                        s.started + s.seconds
                        for s in _ok_saves(load, ledger.note_id)
                        if s.started >= since
                    )
                    for ledger in load.notes
                ]
                return round(max(first) - since, 2)
            await asyncio.sleep(0.1)
        return None

    @staticmethod
    def _tally(load: Load, outcome: Outcome, started: float, window_end: float) -> None:
        for sample in load.samples:
            if sample.kind in ("verify", "setup"):
                continue
            outcome.requests += 1
            outcome.statuses[sample.status] = outcome.statuses.get(sample.status, 0) + 1
            if sample.code:
                outcome.codes[sample.code] = outcome.codes.get(sample.code, 0) + 1
            inside = started <= sample.started + sample.seconds and sample.started <= window_end
            if sample.kind == "autosave" and sample.status == 200:
                outcome.acknowledged += 1
            if sample.status >= 500:
                if sample.status != 503 or sample.code not in FAILURE_CODES:
                    outcome.off_vocabulary += 1
                if inside:
                    outcome.errors_in_window += 1
                else:
                    outcome.errors_outside += 1
            elif sample.status == -1:
                if inside:
                    outcome.no_answer_in_window += 1
                else:
                    outcome.no_answer_outside += 1
            if not inside and sample.kind in ("autosave", "read"):
                outcome.steady_total += 1
                if 200 <= sample.status < 300:
                    outcome.steady_ok += 1
                    outcome.latencies.setdefault(sample.kind, []).append(sample.seconds)

    def _audit_verify(self) -> bool:
        try:
            run_carevault(["audit", "verify"], self.env, timeout=300)
        except RuntimeError:
            return False
        return True

    def _log_size(self) -> int:
        assert self.server is not None
        try:
            return self.server.log_path.stat().st_size
        except OSError:
            return 0

    def _tracebacks_since(self, offset: int) -> int:
        assert self.server is not None
        with self.server.log_path.open("rb") as log:
            log.seek(offset)
            return log.read().count(b"Traceback")

    # --- helpers the faults use ----------------------------------------------------------

    def worker_pids(self) -> list[int]:
        assert self.server is not None
        return [p.pid for p in tree(self.server.pid)[1:] if role_of(p, self.server.pid) == "worker"]

    async def wait_for_workers(self, count: int, exclude: int | None = None) -> float:
        began = time.monotonic()
        while time.monotonic() - began < RECOVERY_LIMIT_SECONDS:
            pids = [pid for pid in self.worker_pids() if pid != exclude]
            if len(pids) >= count:
                return time.monotonic() - began
            await asyncio.sleep(0.1)
        raise RuntimeError("workers were not replaced")

    async def readiness(self) -> dict[str, Any] | None:
        assert self.server is not None
        async with httpx.AsyncClient(timeout=10) as client:
            try:
                answer = await client.get(f"{self.server.base_url}/health/ready")
            except httpx.HTTPError:
                return None
        body: dict[str, Any] = answer.json()
        body["http_status"] = answer.status_code
        return body

    async def watch_readiness(self, seconds: float) -> str:
        """Poll /health/ready every half second for `seconds`; what it said, with counts."""
        seen: dict[str, int] = {}
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            text = _ready_text(await self.readiness())
            seen[text] = seen.get(text, 0) + 1
            await asyncio.sleep(0.5)
        return ", ".join(f"{text} x{count}" for text, count in sorted(seen.items()))

    async def fetchval(self, query: str, *args: Any) -> Any:
        connection = await asyncpg.connect(self.pg.admin_dsn.rsplit("/", 1)[0] + f"/{DATABASE}")
        try:
            return await connection.fetchval(query, *args)
        finally:
            await connection.close()

    async def values_not_under(self, version: int) -> int:
        """Stored note and client values whose header is not format 0x03 under `version`."""
        head = bytes((3,)) + version.to_bytes(4, "big")
        columns = [("sessions", c) for c in ("subjective", "objective", "assessment", "plan")]
        checks = [
            f"(SELECT count(*) FROM {table} WHERE {column} IS NOT NULL "  # noqa: S608 (fixed names)
            f"AND substring({column} FROM 1 FOR 5) <> $1)"
            for table, column in [*columns, ("clients", "last_name")]
        ]
        return int(await self.fetchval("SELECT " + " + ".join(checks), head))

    async def sql(self, statement: str) -> None:
        connection = await asyncpg.connect(self.pg.admin_dsn.rsplit("/", 1)[0] + f"/{DATABASE}")
        try:
            await connection.execute(statement)
        finally:
            await connection.close()


def _ok_saves(load: Load, note_id: str) -> list[Sample]:
    return [
        s for s in load.samples if s.kind == "autosave" and s.status == 200 and s.note == note_id
    ]


# --- the scenarios -------------------------------------------------------------------------


def scenarios(h: Harness) -> list[tuple[str, str, Any, Any]]:
    t = h.timing

    async def kill_worker(load: Load, outcome: Outcome) -> tuple[float, float]:
        victim = h.worker_pids()[0]
        started = time.monotonic()
        os.kill(victim, signal.SIGKILL)
        replaced = await h.wait_for_workers(2, exclude=victim)
        outcome.notes.append(f"worker replaced by uvicorn after {replaced:.1f} s")
        return started, started

    async def kill_server(load: Load, outcome: Outcome) -> tuple[float, float]:
        assert h.server is not None and h.server.process is not None
        started = time.monotonic()
        os.killpg(h.server.pid, signal.SIGKILL)  # the session we started: supervisor + workers
        await asyncio.to_thread(h.server.process.wait, 30)
        # The restart (as systemd or an orchestrator would) is part of the recovery.
        await asyncio.to_thread(h.server.start, 180)
        outcome.notes.append(f"restarted and ready after {time.monotonic() - started:.1f} s")
        return started, started

    async def stop_database(load: Load, outcome: Outcome) -> tuple[float, float]:
        started = time.monotonic()
        await asyncio.to_thread(h.pg.stop, "fast")
        seen = await h.watch_readiness(max(0.5, t.db_stop - (time.monotonic() - started) - 0.5))
        outcome.notes.append(f"readiness while stopped: {seen}")
        await asyncio.sleep(max(0.0, t.db_stop - (time.monotonic() - started)))
        await asyncio.to_thread(h.pg.start)
        return started, time.monotonic()

    async def freeze_database(load: Load, outcome: Outcome) -> tuple[float, float]:
        started = time.monotonic()
        h.pg.freeze()
        try:
            await asyncio.sleep(1.0)
            asked = time.monotonic()
            ready = await h.readiness()
            outcome.notes.append(
                f"readiness while frozen: {_ready_text(ready)} in {time.monotonic() - asked:.1f} s"
            )
            await asyncio.sleep(max(0.0, t.db_freeze - (time.monotonic() - started)))
        finally:
            h.pg.thaw()
        return started, time.monotonic()

    async def keys_down_then_rotate(load: Load, outcome: Outcome) -> tuple[float, float]:
        assert h.moto is not None
        started = time.monotonic()
        os.killpg(h.moto.pid, signal.SIGSTOP)
        try:
            seen = await h.watch_readiness(t.keys_down - 0.5)
            outcome.notes.append(f"readiness with the key provider down: {seen}")
            await asyncio.sleep(max(0.0, t.keys_down - (time.monotonic() - started)))
        finally:
            os.killpg(h.moto.pid, signal.SIGCONT)
        ended = time.monotonic()
        # Staged: pending at once everywhere, active at its time (refresh 3 s + margin 1 s).
        await asyncio.to_thread(
            run_carevault, ["keys", "rotate", "--activate-in", "4"], h.env, timeout=120
        )
        rotated = time.monotonic()
        for _ in range(300):  # bounded: 30 s
            sealed_new = await h.fetchval(
                "SELECT count(*) FROM sessions WHERE substring(subjective FROM 1 FOR 5) = $1",
                bytes((3, 0, 0, 0, 2)),
            )
            if sealed_new:
                outcome.notes.append(
                    f"autosaves sealed under version 2 {time.monotonic() - rotated:.1f} s "
                    "after the rotation (staged activation at 4 s)"
                )
                break
            await asyncio.sleep(0.1)
        else:
            outcome.notes.append("NO autosave sealed under version 2 within 30 s")
        return started, ended

    async def kill_reencrypt(load: Load, outcome: Outcome) -> tuple[float, float]:
        """`reencrypt` killed mid-run, then run again: nothing lost, nothing half-written."""
        before = await h.values_not_under(2)
        started = time.monotonic()
        job = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "carevault", "reencrypt"),
            *("--batch-size", "2", "--pause-ms", "200"),
            env=h.env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        # Kill it as soon as it has committed a few batches, i.e. mid-run.
        for _ in range(600):  # bounded: 60 s
            if job.returncode is not None or await h.values_not_under(2) < before:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.3)
        if job.returncode is None:
            job.kill()  # SIGKILL: no cleanup, a batch may be mid-transaction
            outcome.notes.append("reencrypt SIGKILLed mid-run")
        else:
            outcome.notes.append(f"reencrypt ended by itself before the kill ({job.returncode})")
        await asyncio.wait_for(job.wait(), 30)
        killed_at = await h.values_not_under(2)
        await asyncio.to_thread(run_carevault, ["reencrypt"], h.env, timeout=300)
        after = await h.values_not_under(2)
        outcome.notes.append(
            f"values not under version 2: {before} before, {killed_at} after the kill -9, "
            f"{after} after the rerun"
        )
        if after:
            outcome.notes.append("reencrypt did NOT finish on the rerun")
        return started, time.monotonic()

    async def prepare_small_disk(outcome: Outcome) -> str | None:
        space = h.pg.mount_small_disk(24)
        if space is None:
            return f"cannot mount a tmpfs here ({getattr(h.pg, 'mount_error', 'unknown')})"
        await h.sql(f"CREATE TABLESPACE chaos_small LOCATION '{space}'")
        await h.sql("ALTER TABLE audit_events SET TABLESPACE chaos_small")
        await h.sql("ALTER TABLE sessions SET TABLESPACE chaos_small")
        # Readiness's space probe must allocate where audit_events lives (migration 0013).
        await h.sql("ALTER TABLE health_space_probe SET TABLESPACE chaos_small")
        return None

    async def fill_disk(load: Load, outcome: Outcome) -> tuple[float, float]:
        started = time.monotonic()
        filler = await asyncio.to_thread(h.pg.fill_small_disk)
        try:
            seen = await h.watch_readiness(t.disk_full - 0.5)
            outcome.notes.append(f"readiness with the disk full: {seen}")
            await asyncio.sleep(max(0.0, t.disk_full - (time.monotonic() - started)))
        finally:
            filler.unlink()
        return started, time.monotonic()

    async def malformed_requests(load: Load, outcome: Outcome) -> tuple[float, float]:
        started = time.monotonic()
        counts = await send_malformed(load, h.tokens[0], load.notes[0].note_id, t.malformed)
        outcome.notes.append(
            "malformed answers: "
            + ", ".join(f"{kind} {count}" for kind, count in counts.items() if count)
        )
        return started, time.monotonic()

    return [
        ("kill -9 worker", "SIGKILL one of the two workers", kill_worker, None),
        ("kill -9 server", "SIGKILL supervisor and workers, then start again", kill_server, None),
        (
            DATABASE_STOPPED,
            f"pg_ctl stop -m fast, start after {t.db_stop:g} s",
            stop_database,
            None,
        ),
        (
            FAST_STOP_CLIENTS,
            f"pg_ctl stop -m fast under {t.fast_stop_clients} API-token clients, each on one "
            f"keep-alive connection and sending back to back; start after {t.db_stop:g} s",
            stop_database,
            None,
        ),
        (
            "database frozen",
            f"SIGSTOP every PostgreSQL process for {t.db_freeze:g} s",
            freeze_database,
            None,
        ),
        (
            KEYS_DOWN,
            f"SIGSTOP moto (Secrets Manager) for {t.keys_down:g} s, then `keys rotate`",
            keys_down_then_rotate,
            None,
        ),
        (
            "reencrypt killed",
            "kill -9 of `carevault reencrypt` mid-run, then a rerun",
            kill_reencrypt,
            None,
        ),
        (
            "disk full",
            f"the tablespace of audit_events and sessions (24 MB tmpfs) full for {t.disk_full:g} s",
            fill_disk,
            prepare_small_disk,
        ),
        (
            MALFORMED,
            f"{t.malformed} malformed requests mixed into the load",
            malformed_requests,
            None,
        ),
    ]


def _ready_text(ready: dict[str, Any] | None) -> str:
    if ready is None:
        return "no answer"
    reasons = ", ".join(ready.get("reasons", [])) or "-"
    return f"{ready['http_status']} {ready['status']} ({reasons})"


QUICK_SCENARIOS = ("kill -9 worker", DATABASE_STOPPED)


async def run_all(h: Harness, only: set[str] | None) -> list[Outcome]:
    outcomes = []
    for name, text, fault, prepare in scenarios(h):
        if only is not None and name not in only:
            continue
        if name.startswith("key provider") and not h.use_moto:
            outcomes.append(Outcome(name, text, skipped="run without moto (quick mode)"))
            continue
        print(f"chaos: {name} …", flush=True)
        if name == FAST_STOP_CLIENTS:
            clients, think = h.timing.fast_stop_clients, h.timing.fast_stop_think
            outcome = await h.run(name, text, fault, prepare, clients, think)
        else:
            outcome = await h.run(name, text, fault, prepare)
        print(f"chaos: {outcome.summary()}", flush=True)
        outcomes.append(outcome)
    return outcomes


def run_suite(
    workdir: Path,
    *,
    quick: bool = False,
    only: set[str] | None = None,
    use_moto: bool = True,
    pgbouncer: bool = False,
) -> list[Outcome]:
    harness = Harness(workdir, QUICK if quick else Timing(), use_moto=use_moto, pgbouncer=pgbouncer)
    try:
        harness.start()
        return asyncio.run(run_all(harness, only))
    finally:
        harness.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.chaos", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="the CI subset, shortened")
    parser.add_argument("--only", action="append", help="run only this scenario (repeatable)")
    parser.add_argument("--report", type=Path, default=Path("docs/explanation/reliability.md"))
    args = parser.parse_args(argv)
    only = set(args.only) if args.only else (set(QUICK_SCENARIOS) if args.quick else None)
    with tempfile.TemporaryDirectory(prefix="carevault-chaos-") as directory:
        Path(directory).chmod(0o755)
        started = time.monotonic()
        outcomes = run_suite(Path(directory), quick=args.quick, only=only, use_moto=not args.quick)
        elapsed = time.monotonic() - started
    write_report(args.report, outcomes, elapsed)
    print(f"chaos: wrote {args.report}")
    failed = [o.name for o in outcomes if not o.skipped and not passed(o)]
    if failed:
        raise SystemExit(f"chaos: guarantees broken in: {', '.join(failed)}")


def passed(outcome: Outcome) -> bool:
    return (
        outcome.lost == 0
        and outcome.phantom_writes == 0
        and outcome.unexplained_gaps == 0
        and outcome.errors_outside == 0
        and outcome.audit_verify is True
        and outcome.recovery_seconds is not None
        and (outcome.name not in NO_5XX_IN_WINDOW or outcome.errors_in_window == 0)
        and outcome.off_vocabulary == 0
        and (
            outcome.name not in KEEPS_CONNECTIONS
            or (outcome.reopened_connections == 0 and outcome.no_answer_in_window == 0)
        )
    )
