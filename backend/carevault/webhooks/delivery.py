"""The delivery worker: a background task of every app process (like the audit sealer).

Each round has two steps, each safe with any number of processes at once:

1. Queue. Every enabled endpoint is taken with `FOR UPDATE SKIP LOCKED` (one process works
   on it, the others pass), its practice's feed is read after the endpoint's own cursor
   (carevault.events.feed: committed-safe, never skipping or repeating), a delivery row is
   inserted per wanted event (unique per endpoint and event) and the cursor advanced, in one
   transaction.
2. Send. Due deliveries are claimed with `FOR UPDATE SKIP LOCKED` and leased (their
   `next_attempt_at` moved past the request's timeout) in a short transaction, then POSTed
   outside any transaction, and the outcome written only if the lease is still this
   attempt's. A process that dies mid-request leaves the lease to expire: the delivery is
   sent again (at least once; receivers dedupe on `CareVault-Event-Id`).

A failure is retried with exponential backoff and jitter until the delivery's `give_up_at`
(the retry window, at least 24 h, after it was queued); the last attempt falls on that
deadline. An endpoint whose every attempt failed for a whole window, at least
`disable_after` times in a row, is disabled, with an audit event and a feed event
(`webhook_endpoint.disabled`) the owners' UI shows.

The clock and the randomness are injected, so tests drive retries without sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

import httpcore
import httpx
from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from carevault.audit import service as audit
from carevault.config import Settings
from carevault.core.clock import utc_now
from carevault.core.errors import Gone
from carevault.crypto import DecryptionError
from carevault.db.scoping import in_workspace, workspace_filter
from carevault.events import feed
from carevault.webhooks import signing
from carevault.webhooks.events import ENDPOINT_DISABLED, matches
from carevault.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from carevault.webhooks.service import PERSISTENT_FAILURE
from carevault.webhooks.targets import (
    GuardedNetworkBackend,
    TargetPolicy,
    TargetRefused,
    check_url,
)
from carevault.workspaces.keys import WorkspaceShredded, load_workspace_keys

log = logging.getLogger(__name__)

FIRST_RETRY = timedelta(seconds=30)
LONGEST_RETRY = timedelta(hours=1)
USER_AGENT = "CareVault-Webhooks/1"
_ENDPOINTS_PER_ROUND = 100
_EVENTS_PER_ENDPOINT = 200
_DELIVERIES_PER_ROUND = 20
_PRUNE_EVERY = timedelta(hours=1)
_PRUNE_BATCH = 10_000


@dataclass(frozen=True)
class WorkerConfig:
    policy: TargetPolicy = field(default_factory=TargetPolicy)
    timeout_seconds: float = 10.0
    retry_window: timedelta = timedelta(hours=24)
    disable_after: int = 10
    interval_seconds: float = 1.0
    # Finished deliveries (and their attempts) are deleted once this old.
    log_retention: timedelta = timedelta(days=30)

    @property
    def lease(self) -> timedelta:
        """How long a claimed delivery is this process's: the request's timeout and room."""
        return timedelta(seconds=self.timeout_seconds * 3 + 30)


@dataclass(frozen=True)
class WorkerStatus:
    running: bool = False
    last_round_at: datetime | None = None
    delivered: int = 0  # by this process since it started
    failed_attempts: int = 0
    error: str | None = None


@dataclass(frozen=True)
class Outcome:
    succeeded: bool
    status_code: int | None
    error: str | None
    duration_ms: int


def worker_config(settings: Settings) -> WorkerConfig:
    return WorkerConfig(
        policy=TargetPolicy(settings.webhook_allowed_network_list),
        timeout_seconds=settings.webhook_timeout_seconds,
        retry_window=timedelta(hours=settings.webhook_retry_hours),
        disable_after=settings.webhook_disable_after_failures,
        interval_seconds=settings.webhook_poll_interval_seconds,
        log_retention=timedelta(days=settings.webhook_log_retention_days),
    )


def backoff(attempt: int, rng: Callable[[], float]) -> timedelta:
    """The wait after the `attempt`-th failure: 30 s doubling to at most 1 h, times a
    random factor in [0.75, 1.25) so receivers that recover are not hit all at once."""
    base: timedelta = min(FIRST_RETRY * 2 ** min(max(attempt - 1, 0), 20), LONGEST_RETRY)
    return base * (0.75 + 0.5 * rng())


def guarded_client(policy: TargetPolicy, timeout_seconds: float) -> httpx.AsyncClient:
    """An HTTP client that connects only to addresses the policy allows, checked when each
    connection is opened (after DNS), follows no redirects and reads no proxy settings."""
    transport = httpx.AsyncHTTPTransport(retries=0)
    # httpx takes no network backend; its pool is httpcore's, which does. Rebuilt here with
    # the same TLS context; tests/services/test_webhook_targets.py checks the guard is used.
    transport._pool = httpcore.AsyncConnectionPool(
        ssl_context=transport._pool._ssl_context,
        max_connections=20,
        max_keepalive_connections=0,  # every delivery resolves and checks afresh
        network_backend=GuardedNetworkBackend(policy),
    )
    return httpx.AsyncClient(
        transport=transport,
        follow_redirects=False,
        trust_env=False,
        timeout=httpx.Timeout(timeout_seconds, connect=min(timeout_seconds, 5.0)),
    )


def encode_body(payload: dict[str, object]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()


class WebhookWorker:
    def __init__(
        self,
        engine: AsyncEngine,
        config: WorkerConfig,
        *,
        clock: Callable[[], datetime] = utc_now,
        rng: Callable[[], float] = random.random,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self.engine = engine
        self.config = config
        self.clock = clock
        self.rng = rng
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self._client = client
        self._own_client = client is None
        self.status = WorkerStatus()
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._next_prune: datetime | None = None
        # Requests are sent concurrently, but the worker's database work takes turns: it
        # never holds more than one of the request path's pooled connections.
        self._database_turn = asyncio.Semaphore(1)

    # --- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        self.status = replace(self.status, running=True)
        self._stopping = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name="carevault-webhook-worker")

    async def stop(self) -> None:
        """Finish the round in flight (its requests time out within the configured limit),
        then stop; cancelled only if it overruns that."""
        self._stopping.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), self.config.timeout_seconds + 5)
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
            self._task = None
        await self.close()
        self.status = replace(self.status, running=False)

    async def close(self) -> None:
        if self._client is not None and self._own_client:
            await self._client.aclose()
            self._client = None

    async def _run(self) -> None:
        while not self._stopping.is_set():
            await self.run_once()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.config.interval_seconds)

    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = guarded_client(self.config.policy, self.config.timeout_seconds)
        return self._client

    async def run_once(self) -> int:
        """Queue new events, then send what is due; returns how many attempts were made.
        Failures are recorded in the status, never raised (the task outlives outages)."""
        attempts, error = 0, None
        try:
            await self.prune_log_if_due()
            await self.queue_events()
            while not self._stopping.is_set():
                sent = await self.send_due()
                attempts += sent
                if sent < _DELIVERIES_PER_ROUND:
                    break
        except Exception as exc:
            error = f"webhook round failed: {type(exc).__name__}"
            log.warning("webhook round failed (%s)", type(exc).__name__)
        self.status = replace(self.status, last_round_at=self.clock(), error=error)
        return attempts

    async def prune_log_if_due(self) -> int:
        """Delete finished deliveries past the log's retention, a bounded batch at most once
        an hour per process (several processes deleting the same rows is harmless)."""
        now = self.clock()
        if self._next_prune is not None and now < self._next_prune:
            return 0
        self._next_prune = now + _PRUNE_EVERY
        async with self.sessions() as db, db.begin():
            old = (
                # unscoped: housekeeping over every practice's finished deliveries
                select(WebhookDelivery.id)
                .where(
                    WebhookDelivery.status != "pending",
                    WebhookDelivery.created_at < now - self.config.log_retention,
                )
                .limit(_PRUNE_BATCH)
                .with_for_update(skip_locked=True)
            )
            result = await db.execute(
                # unscoped: the rows chosen above, of whichever practice
                delete(WebhookDelivery).where(WebhookDelivery.id.in_(old.scalar_subquery()))
            )
        return int(getattr(result, "rowcount", 0) or 0)

    # --- 1. queue ---------------------------------------------------------------------------

    async def queue_events(self) -> int:
        """Deliveries for every enabled endpoint's new events; returns how many were queued."""
        queued = 0
        async with self.sessions() as db, db.begin():
            endpoints = (
                await db.execute(
                    # unscoped: the worker serves every practice; each row names its own
                    select(
                        WebhookEndpoint.id,
                        WebhookEndpoint.workspace_id,
                        WebhookEndpoint.cursor,
                        WebhookEndpoint.event_types,
                    )
                    .where(WebhookEndpoint.enabled)
                    .order_by(WebhookEndpoint.id)
                    .limit(_ENDPOINTS_PER_ROUND)
                    .with_for_update(skip_locked=True, of=WebhookEndpoint)
                )
            ).all()
            now = self.clock()
            for endpoint_id, workspace_id, cursor, event_types in endpoints:
                queued += await self._queue_for(
                    db, endpoint_id, workspace_id, cursor, event_types, now
                )
        return queued

    async def _queue_for(
        self,
        db: AsyncSession,
        endpoint_id: uuid.UUID,
        workspace_id: uuid.UUID,
        cursor: str | None,
        event_types: list[str],
        now: datetime,
    ) -> int:
        after = feed.Cursor.decode(cursor) if cursor else None
        try:
            page = await feed.read_events(db, workspace_id, after, _EVENTS_PER_ENDPOINT)
        except Gone as gone:
            if gone.code != "cursor_expired":
                raise
            # Disabled for longer than the feed keeps events: what was pruned is gone; go on
            # from the oldest event kept, and say so.
            log.warning("webhook endpoint %s missed pruned events", endpoint_id)
            page = await feed.read_events(db, workspace_id, None, _EVENTS_PER_ENDPOINT)
        rows = [
            {
                "id": uuid.uuid4(),
                "workspace_id": workspace_id,
                "endpoint_id": endpoint_id,
                "event_id": event.cursor.encode(),
                "event_type": event.type,
                "payload": _payload(event),
                "status": "pending",
                "attempts": 0,
                "created_at": now,
                "next_attempt_at": now,
                "give_up_at": now + self.config.retry_window,
            }
            for event in page.events
            if matches(event.type, event_types)
        ]
        if rows:
            await db.execute(
                insert(WebhookDelivery).on_conflict_do_nothing(
                    constraint="uq_webhook_deliveries_endpoint_event"
                ),
                rows,
            )
        if page.events:
            await db.execute(
                update(WebhookEndpoint)
                .where(
                    workspace_filter(WebhookEndpoint, workspace_id),
                    WebhookEndpoint.id == endpoint_id,
                )
                .values(cursor=page.next_cursor.encode())
            )
        return len(rows)

    # --- 2. send ----------------------------------------------------------------------------

    async def send_due(self) -> int:
        """Claim due deliveries, send them concurrently, record each outcome."""
        claimed = await self._claim()
        if claimed:
            await asyncio.gather(*(self._attempt(delivery) for delivery in claimed))
        return len(claimed)

    async def _claim(self) -> list[_Claim]:
        now = self.clock()
        async with self.sessions() as db, db.begin():
            due = (
                # unscoped: the worker serves every practice; each row names its own
                select(WebhookDelivery.id)
                .join(WebhookEndpoint, WebhookEndpoint.id == WebhookDelivery.endpoint_id)
                .where(
                    WebhookDelivery.status == "pending",
                    WebhookDelivery.next_attempt_at <= now,
                    WebhookEndpoint.enabled,
                )
                .order_by(WebhookDelivery.next_attempt_at)
                .limit(_DELIVERIES_PER_ROUND)
                .with_for_update(skip_locked=True, of=WebhookDelivery)
            )
            rows = (
                await db.execute(
                    # unscoped: the rows claimed above, of whichever practice
                    update(WebhookDelivery)
                    .where(WebhookDelivery.id.in_(due.scalar_subquery()))
                    .values(
                        next_attempt_at=now + self.config.lease,
                        attempts=WebhookDelivery.attempts + 1,
                    )
                    .returning(
                        WebhookDelivery.id,
                        WebhookDelivery.workspace_id,
                        WebhookDelivery.endpoint_id,
                        WebhookDelivery.event_id,
                        WebhookDelivery.event_type,
                        WebhookDelivery.payload,
                        WebhookDelivery.attempts,
                        WebhookDelivery.give_up_at,
                    )
                )
            ).all()
        return [_Claim(**row._asdict()) for row in rows]

    async def _attempt(self, claim: _Claim) -> None:
        attempted_at = self.clock()
        target = await self._target(claim)
        if isinstance(target, Outcome):
            outcome = target
        else:
            url, secret = target
            outcome = await self._post(claim, url, secret)
        await self._record(claim, attempted_at, outcome)

    async def _target(self, claim: _Claim) -> tuple[str, str] | Outcome:
        """The endpoint's URL and secret (opened under the practice's data key)."""
        try:
            async with self._database_turn, self.sessions() as db, db.begin():
                await load_workspace_keys(db, claim.workspace_id)
                row = (
                    await db.execute(
                        in_workspace(WebhookEndpoint, claim.workspace_id)
                        .where(WebhookEndpoint.id == claim.endpoint_id)
                        .with_only_columns(WebhookEndpoint.url, WebhookEndpoint.secret)
                    )
                ).one_or_none()
        except WorkspaceShredded:
            return Outcome(False, None, "practice_shredded", 0)
        except DecryptionError:
            return Outcome(False, None, "secret_unreadable", 0)
        if row is None:
            return Outcome(False, None, "endpoint_deleted", 0)
        return row.url, row.secret

    async def _post(self, claim: _Claim, url: str, secret: str) -> Outcome:
        body = encode_body(claim.payload)
        timestamp = int(self.clock().timestamp())
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            signing.SIGNATURE_HEADER: signing.signature_header(secret, timestamp, body),
            signing.EVENT_ID_HEADER: claim.event_id,
            signing.EVENT_TYPE_HEADER: claim.event_type,
            signing.DELIVERY_ID_HEADER: str(claim.id),
        }
        started = time.perf_counter()
        try:
            # Registration checked the URL; this checks it again as it resolves now (the
            # connection itself is then made to a checked address: GuardedNetworkBackend).
            await check_url(self.config.policy, url)
            response = await self.client.post(url, content=body, headers=headers)
        except TargetRefused:
            return Outcome(False, None, "target_refused", _ms_since(started))
        except httpx.TimeoutException:
            return Outcome(False, None, "timeout", _ms_since(started))
        except httpx.ConnectError as exc:
            refused = str(exc).startswith("refused:")
            error = "target_refused" if refused else "connect_error"
            return Outcome(False, None, error, _ms_since(started))
        except httpx.HTTPError as exc:
            return Outcome(False, None, _error_class(exc), _ms_since(started))
        duration = _ms_since(started)
        # The response body is never read into the log: a receiver could echo anything.
        await response.aclose()
        status = response.status_code
        if 200 <= status < 300:
            return Outcome(True, status, None, duration)
        error = "redirect_not_followed" if 300 <= status < 400 else "http_status"
        return Outcome(False, status, error, duration)

    async def _record(self, claim: _Claim, attempted_at: datetime, outcome: Outcome) -> None:
        now = self.clock()
        async with self._database_turn, self.sessions() as db, db.begin():
            db.add(
                WebhookAttempt(
                    workspace_id=claim.workspace_id,
                    delivery_id=claim.id,
                    attempted_at=attempted_at,
                    succeeded=outcome.succeeded,
                    status_code=outcome.status_code,
                    duration_ms=outcome.duration_ms,
                    error=outcome.error,
                )
            )
            values: dict[str, object] = {
                "last_attempt_at": attempted_at,
                "last_status_code": outcome.status_code,
                "last_error": outcome.error,
            }
            if outcome.succeeded:
                values |= {"status": "succeeded", "delivered_at": now}
            elif now >= claim.give_up_at or outcome.error in _FINAL:
                values |= {"status": "failed"}
            else:
                values |= {
                    "next_attempt_at": min(
                        now + backoff(claim.attempts, self.rng), claim.give_up_at
                    )
                }
            await db.execute(
                update(WebhookDelivery)
                .where(
                    workspace_filter(WebhookDelivery, claim.workspace_id),
                    WebhookDelivery.id == claim.id,
                    # Still this attempt's lease: not re-claimed after it expired.
                    WebhookDelivery.attempts == claim.attempts,
                    WebhookDelivery.status == "pending",
                )
                .values(**values)
            )
            if outcome.error not in ("endpoint_deleted", "practice_shredded"):
                await self._endpoint_health(db, claim, outcome, now)
        if outcome.succeeded:
            self.status = replace(self.status, delivered=self.status.delivered + 1)
        else:
            self.status = replace(self.status, failed_attempts=self.status.failed_attempts + 1)

    async def _endpoint_health(
        self, db: AsyncSession, claim: _Claim, outcome: Outcome, now: datetime
    ) -> None:
        if outcome.succeeded:
            await db.execute(
                update(WebhookEndpoint)
                .where(
                    workspace_filter(WebhookEndpoint, claim.workspace_id),
                    WebhookEndpoint.id == claim.endpoint_id,
                )
                .values(consecutive_failures=0, failing_since=None, last_success_at=now)
            )
            return
        row = (
            await db.execute(
                update(WebhookEndpoint)
                .where(
                    workspace_filter(WebhookEndpoint, claim.workspace_id),
                    WebhookEndpoint.id == claim.endpoint_id,
                )
                .values(
                    consecutive_failures=WebhookEndpoint.consecutive_failures + 1,
                    failing_since=func.coalesce(WebhookEndpoint.failing_since, now),
                )
                .returning(
                    WebhookEndpoint.consecutive_failures,
                    WebhookEndpoint.failing_since,
                    WebhookEndpoint.enabled,
                )
            )
        ).one_or_none()
        if row is None or not row.enabled:
            return
        if (
            row.consecutive_failures >= self.config.disable_after
            and row.failing_since <= now - self.config.retry_window
        ):
            await self._disable(db, claim, row.consecutive_failures, now)

    async def _disable(self, db: AsyncSession, claim: _Claim, failures: int, now: datetime) -> None:
        await db.execute(
            update(WebhookEndpoint)
            .where(
                workspace_filter(WebhookEndpoint, claim.workspace_id),
                WebhookEndpoint.id == claim.endpoint_id,
            )
            .values(enabled=False, disabled_at=now, disabled_reason=PERSISTENT_FAILURE)
        )
        await audit.record(
            db,
            audit.Actor(claim.workspace_id),
            "webhook.disabled",
            resource_type="webhook_endpoint",
            resource_ids=[claim.endpoint_id],
            details={"reason": PERSISTENT_FAILURE, "consecutive_failures": failures},
        )
        await feed.record_event(
            db, claim.workspace_id, ENDPOINT_DISABLED, "webhook_endpoint", claim.endpoint_id
        )
        log.warning("webhook endpoint %s disabled after persistent failure", claim.endpoint_id)


@dataclass(frozen=True)
class _Claim:
    id: uuid.UUID
    workspace_id: uuid.UUID
    endpoint_id: uuid.UUID
    event_id: str
    event_type: str
    payload: dict[str, object]
    attempts: int
    give_up_at: datetime


# Outcomes no retry can change.
_FINAL = frozenset({"endpoint_deleted", "practice_shredded"})


def _payload(event: feed.FeedEvent) -> dict[str, object]:
    described = feed.describe(event)
    occurred: datetime = described["occurred_at"]
    return described | {"occurred_at": occurred.isoformat().replace("+00:00", "Z")}


def _ms_since(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


def _error_class(exc: Exception) -> str:
    """`RemoteProtocolError` → `remote_protocol_error`: the kind of failure, no message
    (which could quote what the receiver sent)."""
    name = type(exc).__name__
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")[:64]
