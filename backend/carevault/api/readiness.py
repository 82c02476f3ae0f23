"""Readiness that tells the truth: bounded even against a frozen database, not ready when
the database cannot commit a write, and degraded states named apart.

And cheap: load balancers poll `/health/ready` on every instance every few seconds, so the
public answer comes from state the app keeps (`public_status`), refreshed by a background
task every READY_REFRESH_SECONDS (a database ping, the write probe at its own pace, the
sealer's lag, the key ring's state), and the schema revision (an Alembic migration context,
33-42 ms of CPU) and pgcrypto are read at the first check and then every
SCHEMA_CHECK_INTERVAL_SECONDS.
A snapshot older than READY_MAX_AGE_SECONDS (the task is stuck or not running) is refreshed
on the request, one check at a time. The owners' detailed report checks afresh."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
import weakref
from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypeVar

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from carevault.api.failures import STORAGE_FULL, TIMEOUT, classify, sqlstate_of
from carevault.api.state import AppState
from carevault.audit.checkpoints import measure_trail
from carevault.audit.sealing import NO_AUDIT_KEY, untrusted_seals_message
from carevault.auth.rate_limit_redis import RedisBackend
from carevault.crypto import KeyRingError, PhiBackend, current_cipher
from carevault.crypto.kms_state import KeyState
from carevault.db.migrate import current_revision, head_revision
from carevault.health.schemas import (
    AuditReadiness,
    DatabaseReadiness,
    KeyRingReadiness,
    KmsKeyReadiness,
    KmsReadiness,
    ListenerReadiness,
    NotificationsReadiness,
    PgcryptoReadiness,
    Readiness,
    RedisReadiness,
    ReplicaReadiness,
)
from carevault.notifications import ListenerState
from carevault.runtime import pgcrypto_available

DATABASE_CHECK_TIMEOUT_SECONDS = 3.0
# A load balancer may poll every second per process; the write is made at most this often.
WRITE_PROBE_INTERVAL_SECONDS = 5.0
# Round trips slower than this (together) make the database "slow": degraded, still ready.
SLOW_DATABASE_SECONDS = 1.0
# A request that met a full disk keeps this process unavailable for this long, even once the
# space probe passes again: space freed by a vacuum or a deleted file can be taken at once.
STORAGE_FULL_HOLD_SECONDS = 15.0
# Timeouts seen by requests this recently make the process degraded.
TIMEOUT_HOLD_SECONDS = 15.0
# The schema revision and pgcrypto are read at the first check and then at most this often:
# a migration applied by another node shows as schema_mismatch within this interval.
SCHEMA_CHECK_INTERVAL_SECONDS = 60.0
# The public answer's state is refreshed this often by a background task (0: no task)...
READY_REFRESH_SECONDS = 1.0
# ... and one older than this is refreshed on the request (0: every request checks).
READY_MAX_AGE_SECONDS = 3.0

LOCK_NOT_AVAILABLE = "55P03"
# A notice listener not listening for longer than this makes the process degraded: its
# reconnections are at most 5 s apart, and the first connection takes a moment at start.
LISTENER_GRACE_SECONDS = 6.0

log = logging.getLogger(__name__)

T = TypeVar("T")

# Checks abandoned at their time limit: referenced until they end, so they are not collected
# mid-flight; their outcome no longer matters.
_abandoned: set[asyncio.Task[object]] = set()


async def within(limit: float, work: Awaitable[T]) -> T:
    """`work`'s result, or TimeoutError after `limit` seconds without waiting for its cleanup
    (cancelling a query on a frozen server can itself hang)."""
    task: asyncio.Task[T] = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=limit)
    if task in done:
        return task.result()
    task.cancel()
    _abandoned.add(task)
    task.add_done_callback(_forget)
    raise TimeoutError(f"no answer within {limit:g} s")


def _forget(task: asyncio.Task[object]) -> None:
    _abandoned.discard(task)
    if not task.cancelled():
        task.exception()  # retrieved, so asyncio does not log it


@dataclass
class WriteProbe:
    at: float = 0.0  # monotonic
    at_wall: datetime | None = None
    ok: bool | None = None
    error: str | None = None
    storage_full: bool = False  # the probe could not allocate space (SQLSTATE 53100)
    stuck: asyncio.Future[tuple[str | None, bool]] | None = None  # an abandoned check


_probes: weakref.WeakKeyDictionary[object, WriteProbe] = weakref.WeakKeyDictionary()
PROCESS = f"{socket.gethostname()}:{os.getpid()}"


# Any row in the emptied table needs its fresh file to grow by one 8 kB block.
_SPACE_PROBE_FILLER = "x" * 1024


async def probe_write(engine: AsyncEngine) -> None:
    """Commit one tiny write, and prove that the database can still allocate space.

    - The commit proves the database accepts writes (not read-only, WAL can be flushed, not
      frozen). The row is this process's own, rewritten each time; it fits in a page that
      already exists, so on its own it passes while the disk is full.
    - So, inside the same transaction, a subtransaction empties `health_space_probe` and
      writes a row to it, then is rolled back. TRUNCATE gives the table a new, empty file,
      so the insert must extend that file by a block: on a full disk (or quota) PostgreSQL
      fails it with SQLSTATE 53100, exactly as it fails an audit insert that needs a page.
      Free space left in existing pages of some table cannot make this pass, and the probe
      sees the disk as every worker and every other process sees it, not only what this
      process met. The rollback removes the new file again; nothing is kept. Keep the table
      in the tablespace of audit_events (see migration 0013).
    - A lock timeout keeps concurrent probes of other workers (TRUNCATE locks the table
      exclusively for the moment of the probe) from queueing behind one another.
    """
    async with engine.begin() as connection:
        await connection.execute(text("SET LOCAL lock_timeout = '1s'"))
        await connection.execute(
            text(
                "INSERT INTO health_probes (process, probed_at) VALUES (:process, now()) "
                "ON CONFLICT (process) DO UPDATE SET probed_at = excluded.probed_at"
            ),
            {"process": PROCESS},
        )
        space = await connection.begin_nested()
        try:
            await connection.execute(text("TRUNCATE health_space_probe"))
            await connection.execute(
                text("INSERT INTO health_space_probe (filler) VALUES (:filler)"),
                {"filler": _SPACE_PROBE_FILLER},
            )
        except DBAPIError as exc:
            if sqlstate_of(exc) != LOCK_NOT_AVAILABLE:
                raise
            # Another worker is probing this very moment: its answer stands for this one.
        finally:
            await space.rollback()


@dataclass
class SchemaState:
    revision: str | None = None
    pgcrypto: bool = False
    at: float | None = None  # monotonic; None: never read


_schemas: weakref.WeakKeyDictionary[object, SchemaState] = weakref.WeakKeyDictionary()


async def _schema(engine: AsyncEngine) -> tuple[str | None, bool]:
    """The schema revision and pgcrypto, read again when SCHEMA_CHECK_INTERVAL_SECONDS have
    passed; in between, one round trip proves the database answers."""
    known = _schemas.setdefault(engine.sync_engine, SchemaState())
    if known.at is None or time.monotonic() - known.at >= SCHEMA_CHECK_INTERVAL_SECONDS:
        revision = await current_revision(engine)
        known.pgcrypto = await pgcrypto_available(engine)
        known.revision, known.at = revision, time.monotonic()
    else:
        async with engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    return known.revision, known.pgcrypto


async def _check(
    state: AppState, probe: WriteProbe, at_head: list[bool]
) -> tuple[str | None, bool]:
    revision, pgcrypto = await _schema(state.engine)
    at_head.append(revision == head_revision())
    due = time.monotonic() - probe.at >= WRITE_PROBE_INTERVAL_SECONDS or probe.ok is None
    # A request that met a full disk since the last probe: probe again now, not in 5 s.
    met_full = state.incidents.seen_within(STORAGE_FULL.code, time.monotonic() - probe.at)
    if at_head[-1] and (due or probe.ok is False or met_full):
        probe.at, probe.at_wall = time.monotonic(), datetime.now(UTC)
        try:
            await probe_write(state.engine)
        except Exception as exc:  # reported, not raised: the write is what is being asked
            probe.ok, probe.error = False, _describe(exc)
            probe.storage_full = classify(exc) is STORAGE_FULL
        else:
            probe.ok, probe.error, probe.storage_full = True, None, False
    return revision, pgcrypto


def _describe(error: BaseException) -> str:
    """A class name and SQLSTATE: never the driver's message, which can quote values."""
    state = sqlstate_of(error)
    return f"{type(error).__name__} (sqlstate {state})" if state else type(error).__name__


async def check_database(state: AppState) -> tuple[DatabaseReadiness, bool]:
    expected = head_revision()
    probe = _probes.setdefault(state.engine.sync_engine, WriteProbe())
    at_head: list[bool] = []
    started = time.monotonic()
    try:
        if probe.stuck is not None and not probe.stuck.done():
            # The last check is still waiting on the database: do not pile up another.
            raise TimeoutError("the previous check has not finished")
        check = asyncio.ensure_future(_check(state, probe, at_head))
        probe.stuck = check
        revision, pgcrypto = await within(DATABASE_CHECK_TIMEOUT_SECONDS, check)
        probe.stuck = None
    except Exception as exc:  # any failure here means "not reachable", reported, not raised
        return (
            DatabaseReadiness(
                reachable=False,
                schema_revision=None,
                expected_revision=expected,
                error="TimeoutError" if isinstance(exc, TimeoutError) else _describe(exc),
            ),
            False,
        )
    recent = None
    probed_full = probe.storage_full and bool(at_head) and at_head[-1]
    if probed_full or state.incidents.seen_within(STORAGE_FULL.code, STORAGE_FULL_HOLD_SECONDS):
        recent = STORAGE_FULL.code
    elif state.incidents.seen_within(TIMEOUT.code, TIMEOUT_HOLD_SECONDS):
        recent = TIMEOUT.code
    return (
        DatabaseReadiness(
            reachable=True,
            schema_revision=revision,
            expected_revision=expected,
            error=probe.error,
            writable=probe.ok if at_head and at_head[-1] else None,
            write_probed_at=probe.at_wall,
            latency_ms=round((time.monotonic() - started) * 1000, 1),
            recent_failure=recent,
        ),
        pgcrypto,
    )


async def check_audit(state: AppState, database_reachable: bool) -> AuditReadiness:
    sealer = state.audit_sealer
    status = sealer.status if sealer is not None else None
    error = status.error or status.checkpoint_error if status is not None else None
    if state.key_manager.status().loaded and state.key_manager.ring.audit_key is None:
        error = NO_AUDIT_KEY
    lag = None
    audit_key = state.key_manager.ring.audit_key if state.key_manager.status().loaded else None
    if database_reachable:
        try:
            async with asyncio.timeout(DATABASE_CHECK_TIMEOUT_SECONDS):
                async with state.engine.connect() as connection:
                    lag = await measure_trail(connection, audit_key)
        except Exception as exc:  # reported, not raised
            error = error or f"lag unknown: {type(exc).__name__}"
    if lag is not None and lag.untrusted_seals:
        # Rows someone inserted into audit_seals without the key (past the frontier, or found
        # by the checkpoint writer): never followed, but named.
        error = error or untrusted_seals_message(lag.untrusted_seals, lag.untrusted_seal_ids)
    return AuditReadiness(
        sealer_running=bool(status and status.running),
        lag_seconds=lag.oldest_unsealed_seconds if lag else None,
        unsealed_events=lag.unsealed_events if lag else None,
        lag_budget_seconds=state.settings.audit_seal_lag_budget_seconds,
        last_round_at=status.last_round_at if status else None,
        last_checkpoint_at=status.last_checkpoint_at if status else None,
        untrusted_seals=lag.untrusted_seals if lag else None,
        error=error,
    )


# A refresh is overdue when no success came for two intervals and this much more.
KEY_REFRESH_GRACE_SECONDS = 5.0


def _refresh_overdue(last_success: datetime | None, interval: float) -> bool:
    if last_success is None:
        return False
    age = (datetime.now(UTC) - last_success).total_seconds()
    return age > 2 * interval + KEY_REFRESH_GRACE_SECONDS


async def kms_readiness(state: AppState) -> KmsReadiness | None:
    """The KMS keys' states (DescribeKey, remembered per key for the state interval, so a
    readiness probe costs at most one call per key per interval) and the practices served."""
    remote = state.key_manager.ring.remote
    if remote is None:
        return None  # before importing boto3, which a ring provider's process never needs
    from carevault.crypto.kms import KmsKeys
    from carevault.workspaces.keys import refused_practices

    if not isinstance(remote, KmsKeys):
        return None
    installation = remote.key_id
    try:
        installation = await asyncio.to_thread(remote.arn_of, remote.key_id)
        await asyncio.to_thread(remote.state, installation)
    except KeyRingError as exc:
        log.warning("KMS key state unknown (%s)", type(exc).__name__)
    known = {k.key_id: k for k in remote.known_states()}
    if installation not in known:
        known[installation] = KeyState(installation, "unreachable", datetime.now(UTC))
    refused: dict[str, int] = {}
    for code in list(refused_practices.values()):
        refused[code] = refused.get(code, 0) + 1
    return KmsReadiness(
        installation_key_id=installation,
        keys=[
            KmsKeyReadiness(
                key_id=k.key_id,
                state=k.state,
                checked_at=k.checked_at,
                installation=k.key_id == installation,
            )
            for k in sorted(known.values(), key=lambda k: (k.key_id != installation, k.key_id))
        ],
        practices_cached=current_cipher().data_keys.count_loaded(),
        practices_refused=refused,
        calls=dict(remote.calls),
    )


async def practice_kms_key(state: AppState, workspace_id: uuid.UUID) -> str | None:
    """The practice's own KMS key, if it brought one."""
    from sqlalchemy import select

    from carevault.workspaces.models import Workspace

    async with state.db_sessions() as db:
        return await db.scalar(select(Workspace.kms_key_id).where(Workspace.id == workspace_id))


async def readiness(state: AppState) -> Readiness:
    """A fresh check. Checks run one at a time: one started while another waits on the
    database would be reported as a timeout (check_database), so a second caller (the
    owners' report beside the background check) waits for the first, then checks itself."""
    ready = _ready_state(state)
    async with ready.lock:
        started = time.monotonic()
        report = await _readiness_now(state)
        ready.status, ready.at = report.status, started
        return report


async def _readiness_now(state: AppState) -> Readiness:
    database, pgcrypto = await check_database(state)
    audit = await check_audit(state, database.reachable)
    audit_late = audit.lag_seconds is not None and audit.lag_seconds > audit.lag_budget_seconds
    ring = state.key_manager.status()
    key_ring = KeyRingReadiness(
        loaded=ring.loaded,
        source=ring.source,
        active_version=ring.active_version,
        active_key_age_seconds=ring.active_age_seconds,
        versions=ring.versions,
        refresh_interval_seconds=ring.ttl_seconds,
        last_refresh_at=ring.last_refresh_at,
        last_success_at=ring.last_success_at,
        last_refresh_error=ring.last_error,
        consecutive_failures=ring.consecutive_failures,
        pending_version=ring.pending_version,
        pending_activates_at=ring.pending_activate_after,
        refused_ring_reason=ring.refused_reason,
        data_key_warnings=current_cipher().nonce_warnings() if ring.loaded else [],
        provider=state.settings.key_provider.value,
        kms=await kms_readiness(state) if ring.loaded else None,
    )
    unavailable, degraded = [], []
    if not database.reachable:
        timed_out = database.error == "TimeoutError"
        unavailable.append("database_timeout" if timed_out else "database_unreachable")
    if database.writable is False:
        unavailable.append("database_not_writable")
    if database.recent_failure == STORAGE_FULL.code:
        unavailable.append("storage_full")
    if not ring.loaded:
        unavailable.append("key_ring_not_loaded")
    if database.reachable and database.schema_revision != database.expected_revision:
        degraded.append("schema_mismatch")
    if database.latency_ms is not None and database.latency_ms > SLOW_DATABASE_SECONDS * 1000:
        degraded.append("database_slow")
    if database.recent_failure == TIMEOUT.code:
        degraded.append("database_timeouts")
    if ring.last_error:
        degraded.append("key_refresh_failing")
    elif _refresh_overdue(ring.last_success_at, ring.ttl_seconds):
        # A provider that accepts connections but never answers leaves no error behind
        # until the SDK gives up; an overdue refresh says the same thing sooner.
        degraded.append("key_refresh_overdue")
    if audit.error or audit_late:
        degraded.append("audit_sealing")
    if key_ring.kms is not None:
        states = {k.key_id: k.state for k in key_ring.kms.keys}
        if states.get(key_ring.kms.installation_key_id) != "Enabled":
            unavailable.append("kms_installation_key_unusable")
        elif any(value != "Enabled" for value in states.values()):
            degraded.append("kms_practice_key_unusable")
        if key_ring.kms.practices_refused:
            degraded.append("kms_practices_refused")
    replica = replica_readiness(state)
    if replica is not None and replica.state not in ("streaming", "unknown"):
        degraded.append(f"replica_{replica.state}")
    elif replica is not None and replica.state == "streaming" and not replica.serving_reads:
        degraded.append("replica_check_overdue")  # the checks stopped answering
    notifications = notifications_readiness(state)
    if notifications is not None:
        for carrier in ("postgres", "redis"):
            listener: ListenerReadiness | None = getattr(notifications, carrier)
            if listener is not None and _down_for(listener, LISTENER_GRACE_SECONDS):
                degraded.append(f"notifications_{carrier}_reconnecting")
    redis = await redis_readiness(state)
    if redis is not None and redis.limits == "falling_back":
        degraded.append("redis_limits_falling_back")
    status = "unavailable" if unavailable else "degraded" if degraded else "ready"
    backend = state.settings.phi_backend
    return Readiness(
        status=status,
        reasons=unavailable + degraded,
        database=database,
        key_ring=key_ring,
        pgcrypto=PgcryptoReadiness(available=pgcrypto, in_use=backend is PhiBackend.PGCRYPTO),
        phi_backend=backend.value,
        audit=audit,
        replica=replica,
        notifications=notifications,
        redis=redis,
    )


def _down_for(listener: ListenerReadiness, seconds: float) -> bool:
    return (
        listener.state != "listening"
        and (datetime.now(UTC) - listener.since).total_seconds() > seconds
    )


def notifications_readiness(state: AppState) -> NotificationsReadiness | None:
    """The notice listeners' kept state (carevault.notifications): no round trip."""
    notifier = state.notifier
    if notifier is None:
        return None

    def of(listener: ListenerState | None) -> ListenerReadiness | None:
        if listener is None:
            return None
        return ListenerReadiness(
            state="listening" if listener.listening else "reconnecting",
            since=listener.since,
            error=listener.error,
        )

    return NotificationsReadiness(postgres=of(notifier.postgres), redis=of(notifier.redis))


async def redis_readiness(state: AppState) -> RedisReadiness | None:
    """Whether the request limits are shared in Redis, after a PING of it (bounded at half a
    second; made by the background check, so a load balancer's poll normally does not wait
    on it)."""
    limiter = state.rate_limiter
    backend = limiter.backend if limiter is not None else None
    if not isinstance(backend, RedisBackend):
        return None
    await backend.probe()
    return RedisReadiness(
        limits="shared" if backend.shared else "falling_back",
        since=backend.since,
        fallback_requests=backend.failures,
        error=backend.last_error,
    )


def replica_readiness(state: AppState) -> ReplicaReadiness | None:
    """From the replica router's own background check (carevault.db.replica): no round trip."""
    router = state.replica
    if router is None:
        return None
    status = router.status
    return ReplicaReadiness(
        state=status.state,
        serving_reads=router.usable(),
        lag_seconds=status.lag_seconds,
        max_lag_seconds=router.max_lag_seconds,
        behind_bytes=status.behind_bytes,
        replay_paused=status.replay_paused,
        checked_at=status.checked_at,
        read_your_writes_seconds=router.read_your_writes_seconds,
        requests_on_replica=router.counts.replica,
        requests_on_primary=router.counts.primary,
        error=status.error,
    )


# --- The public answer, from kept state ----------------------------------------------------


@dataclass
class ReadyState:
    status: str | None = None
    at: float = 0.0  # monotonic time of the check behind `status`
    checking: asyncio.Task[str] | None = None
    keeper: asyncio.Task[None] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


_ready: weakref.WeakKeyDictionary[object, ReadyState] = weakref.WeakKeyDictionary()


def _ready_state(state: AppState) -> ReadyState:
    return _ready.setdefault(state.engine.sync_engine, ReadyState())


async def public_status(state: AppState) -> str:
    """ "ready", "degraded" or "unavailable", from the kept state while it is fresh: no
    database round trip and no Alembic on the load balancer's poll."""
    ready = _ready_state(state)
    if ready.status is not None and time.monotonic() - ready.at < READY_MAX_AGE_SECONDS:
        return ready.status
    return await refresh_status(state)


async def refresh_status(state: AppState) -> str:
    """Check now (or join the check already running, so callers never pile up checks)."""
    ready = _ready_state(state)
    if ready.checking is None or ready.checking.done():
        ready.checking = asyncio.ensure_future(_checked_status(state))
    return await asyncio.shield(ready.checking)


async def _checked_status(state: AppState) -> str:
    return (await readiness(state)).status


def start_keeping_ready(state: AppState) -> None:
    """Refresh the public answer's state every READY_REFRESH_SECONDS until stopped."""
    ready = _ready_state(state)
    if READY_REFRESH_SECONDS > 0 and ready.keeper is None:
        ready.keeper = asyncio.create_task(_keep_ready(state), name="carevault-readiness")


async def stop_keeping_ready(state: AppState) -> None:
    ready = _ready_state(state)
    keeper, ready.keeper = ready.keeper, None
    if keeper is not None:
        keeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await keeper
    # A check under way (shielded from its callers) is let finish, within its own limits,
    # so that it hands its connection back before the app's engine is closed; cancelled,
    # its inner task would go on holding one.
    checking = ready.checking
    if checking is not None and not checking.done():
        await asyncio.wait({checking}, timeout=2 * DATABASE_CHECK_TIMEOUT_SECONDS + 1)


async def _keep_ready(state: AppState) -> None:
    # The first check comes one interval after start (or with the first poll, whichever is
    # sooner), not beside the requests of a process that is still warming up.
    while READY_REFRESH_SECONDS > 0:
        await asyncio.sleep(READY_REFRESH_SECONDS)
        if READY_REFRESH_SECONDS <= 0:
            return
        try:
            await refresh_status(state)
        except Exception as exc:  # readiness reports failures itself; a bug must not stop this
            # The class only: a driver's message can quote values.
            log.warning("readiness refresh failed: %s", type(exc).__name__)
