"""Notices every CareVault process hears within a second: a practice shredded, a key
activated (and, for caches to come, a user disabled, a token revoked, a session ended).

Correctness never waits on a notice: every request looks its credential, its user and its
practice's `shredded_at` up in the database, so a revocation holds on the very next request
of every process whether or not a notice arrives. A notice drops what processes keep in
memory sooner than its expiry: a shredded practice's unwrapped data keys and decrypted
client names, and a key ring that a refresh would bring in later.

Two carriers, either enough alone:

- Redis pub/sub, when CAREVAULT_REDIS_URL is set;
- PostgreSQL NOTIFY on the channel `carevault_events`, heard by one LISTEN per process on a
  dedicated direct connection (CAREVAULT_NOTIFY_DATABASE_URL, else the database URL when no
  transaction pooler sits in between: PgBouncer cannot carry LISTEN in transaction mode).
  NOTIFY itself is an ordinary statement and goes through the pooler; sent inside the
  committing transaction (`notify_in`), it is delivered only if that transaction commits.

A notice names a kind and at most a practice's id: never PHI, never key material.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from functools import partial
from typing import Any

import asyncpg
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

log = logging.getLogger(__name__)

CHANNEL = "carevault_events"
# How long a carrier that failed waits before connecting again (doubling up to the last).
RECONNECT_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)
REDIS_TIMEOUT_SECONDS = 1.0


class Kind(StrEnum):
    SHRED = "shred"
    KEY_ACTIVATED = "key_activated"
    USER_DISABLED = "user_disabled"
    TOKEN_REVOKED = "token_revoked"  # noqa: S105 (a notice's kind, not a secret)
    LOGOUT = "logout"


@dataclass(frozen=True)
class Notice:
    kind: Kind
    workspace_id: uuid.UUID | None = None

    def encode(self) -> str:
        workspace = str(self.workspace_id) if self.workspace_id else None
        return json.dumps({"kind": self.kind.value, "workspace_id": workspace})

    @classmethod
    def decode(cls, payload: str | bytes) -> Notice | None:
        """The notice, or None for anything that is not one (logged by kind only)."""
        try:
            data = json.loads(payload)
            workspace = data.get("workspace_id")
            return cls(Kind(data["kind"]), uuid.UUID(workspace) if workspace else None)
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("ignored a malformed notice on %s", CHANNEL)
            return None


Handler = Callable[[Notice], Awaitable[None]]


@dataclass
class ListenerState:
    """One carrier's listener, for readiness: listening, or reconnecting since when (and the
    class of the last failure, never its message)."""

    listening: bool = False
    since: datetime = field(default_factory=lambda: datetime.now(UTC))
    error: str | None = None

    def connected(self) -> None:
        self.listening, self.since, self.error = True, datetime.now(UTC), None

    def lost(self, error: str | None) -> None:
        if self.listening:
            self.listening, self.since = False, datetime.now(UTC)
        if error is not None:
            self.error = error


async def notify_in(db: AsyncSession, notice: Notice) -> None:
    """Queue `notice` in `db`'s transaction: PostgreSQL delivers it to every LISTEN when the
    transaction commits, and never if it rolls back."""
    await db.execute(select(func.pg_notify(CHANNEL, notice.encode())))


class Notifier:
    """One per process: publishes notices and hands those it hears to `handler`."""

    def __init__(
        self,
        *,
        engine: AsyncEngine,
        handler: Handler,
        listen_dsn: str | None,
        redis_url: str | None = None,
    ) -> None:
        self._engine = engine
        self._handler = handler
        self._listen_dsn = listen_dsn
        self._redis_url = redis_url
        self._redis: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        # Each configured carrier's listener (readiness reads them): None when not listened on.
        self.postgres: ListenerState | None = ListenerState() if listen_dsn else None
        self.redis: ListenerState | None = ListenerState() if redis_url else None

    @property
    def postgres_listening(self) -> bool:
        return self.postgres is not None and self.postgres.listening

    @property
    def redis_listening(self) -> bool:
        return self.redis is not None and self.redis.listening

    # --- publishing ---------------------------------------------------------------------

    async def publish(self, notice: Notice) -> None:
        """Send `notice` to every process, this one included; never raises: Redis first when
        configured, else (or when Redis fails) PostgreSQL NOTIFY."""
        if self._redis_url is not None:
            try:
                async with asyncio.timeout(REDIS_TIMEOUT_SECONDS):
                    await self._redis_client().publish(CHANNEL, notice.encode())
                return
            except Exception as exc:  # Redis down: PostgreSQL carries it
                log.warning("publishing a notice to Redis failed (%s)", type(exc).__name__)
        try:
            async with self._engine.begin() as connection:
                await connection.execute(select(func.pg_notify(CHANNEL, notice.encode())))
        except Exception as exc:  # the per-request checks still hold; expiry does the rest
            log.warning("publishing a notice failed (%s)", type(exc).__name__)

    def _redis_client(self) -> Any:
        if self._redis is None:
            import redis.asyncio as redis  # only when configured

            assert self._redis_url is not None
            self._redis = redis.Redis.from_url(
                self._redis_url,
                socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
                socket_timeout=REDIS_TIMEOUT_SECONDS,
            )
        return self._redis

    # --- listening ----------------------------------------------------------------------

    def start(self) -> None:
        if self._listen_dsn is not None:
            self._tasks.append(asyncio.create_task(self._listen_postgres(self._listen_dsn)))
        if self._redis_url is not None:
            self._tasks.append(asyncio.create_task(self._listen_redis()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
            self._redis = None

    async def _handle(self, payload: str | bytes) -> None:
        notice = Notice.decode(payload)
        if notice is None:
            return
        try:
            await self._handler(notice)
        except Exception as exc:  # one bad notice must not stop the listener
            log.warning("handling a %s notice failed (%s)", notice.kind, type(exc).__name__)

    async def _listen_postgres(self, dsn: str) -> None:
        failures = 0
        while True:
            connection: asyncpg.Connection | None = None
            try:
                connection = await asyncpg.connect(dsn, timeout=5)
                heard: asyncio.Queue[str] = asyncio.Queue()
                await connection.add_listener(CHANNEL, partial(_queue, heard))
                failures = 0
                if self.postgres is not None:
                    self.postgres.connected()
                while not connection.is_closed():
                    try:
                        async with asyncio.timeout(1.0):
                            payload = await heard.get()
                    except TimeoutError:
                        continue
                    await self._handle(payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for notices in PostgreSQL failed (%s)", type(exc).__name__)
                if self.postgres is not None:
                    self.postgres.lost(type(exc).__name__)
            finally:
                if self.postgres is not None:
                    self.postgres.lost(None)
                if connection is not None:
                    connection.terminate()
            await asyncio.sleep(RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)])
            failures += 1

    async def _listen_redis(self) -> None:
        import redis.asyncio as redis

        failures = 0
        while True:
            client = redis.Redis.from_url(
                self._redis_url,  # type: ignore[arg-type]
                socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
            )
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    failures = 0
                    if self.redis is not None:
                        self.redis.connected()
                    while True:
                        message = await pubsub.get_message(
                            ignore_subscribe_messages=True, timeout=1.0
                        )
                        if message is not None and message.get("type") == "message":
                            await self._handle(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for notices in Redis failed (%s)", type(exc).__name__)
                if self.redis is not None:
                    self.redis.lost(type(exc).__name__)
            finally:
                if self.redis is not None:
                    self.redis.lost(None)
                with contextlib.suppress(Exception):
                    await client.aclose()
            await asyncio.sleep(RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)])
            failures += 1


def _queue(
    heard: asyncio.Queue[str], _connection: Any, _pid: int, _channel: str, payload: str
) -> None:
    heard.put_nowait(payload)


async def publish_once(engine: AsyncEngine, redis_url: str | None, notice: Notice) -> None:
    """For a command (`keys activate`, `workspaces shred`): publish and close."""
    notifier = Notifier(engine=engine, handler=_ignore, listen_dsn=None, redis_url=redis_url)
    try:
        await notifier.publish(notice)
    finally:
        await notifier.stop()


async def _ignore(_: Notice) -> None:
    return None
