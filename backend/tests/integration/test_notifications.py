"""Notices between processes (carevault.notifications): heard within a second over
PostgreSQL LISTEN/NOTIFY and over Redis pub/sub (when Redis answers on 127.0.0.1:6379), a
Redis that is down falls back to PostgreSQL without an error, a NOTIFY sent in a transaction
that rolls back is never heard, and a running app drops a shredded practice's data keys when
another process's notice arrives. Each test's notices name a practice of its own, so tests
running beside it (on the same server or the same Redis) do not disturb it."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

import carevault
from carevault.crypto import current_cipher
from carevault.db.engine import create_engine
from carevault.notifications import Kind, Notice, Notifier, notify_in
from tests.support.db import IN_CI, NewDatabase, libpq_dsn
from tests.support.http import running_api
from tests.support.redis_server import redis_url

SOURCE = Path(carevault.__file__).resolve().parents[1]  # the backend/ this test imports
HEARD_WITHIN_SECONDS = 1.0


def shared_redis() -> str:
    """The tests' Redis (tests/support/redis_server.py); skipped without one, failed in CI."""
    url = redis_url()
    if url is None:
        message = "no Redis answers on 127.0.0.1:6379 and there is no redis-server to start"
        if IN_CI:
            pytest.fail(f"the Redis notice tests must run in CI: {message}")
        pytest.skip(message)
    return url


async def shred_in_another_process(url: str, data_dir: Path, name: str) -> None:
    """`carevault workspaces shred` in a process of its own (this backend/ on its path)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAREVAULT_")}
    env.update(
        CAREVAULT_DATABASE_URL=url,
        CAREVAULT_DATA_DIR=str(data_dir),
        PYTHONPATH=os.pathsep.join(filter(None, [str(SOURCE), env.get("PYTHONPATH")])),
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "carevault",
        *("workspaces", "shred", "--workspace", name, "--confirm", name),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode == 0, output.decode()


class Heard:
    def __init__(self) -> None:
        self.notices: list[Notice] = []

    async def __call__(self, notice: Notice) -> None:
        self.notices.append(notice)

    async def wait_for(self, notice: Notice, seconds: float = HEARD_WITHIN_SECONDS) -> bool:
        try:
            async with asyncio.timeout(seconds):
                while notice not in self.notices:  # noqa: ASYNC110 (a test's poll)
                    await asyncio.sleep(0.01)
        except TimeoutError:
            return False
        return True


@asynccontextmanager
async def notifier(
    url: str, heard: Heard, *, listen: bool = True, redis_url: str | None = None
) -> AsyncIterator[Notifier]:
    engine = create_engine(url, pool_size=1)
    made = Notifier(
        engine=engine,
        handler=heard,
        listen_dsn=libpq_dsn(url) if listen else None,
        redis_url=redis_url,
    )
    made.start()
    try:
        async with asyncio.timeout(10):
            while listen and not made.postgres_listening:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
            while redis_url and listen and not made.redis_listening:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        yield made
    finally:
        await made.stop()
        await engine.dispose()


async def test_a_notice_reaches_another_process_over_postgres(new_database: NewDatabase) -> None:
    url = await new_database()
    heard, ignored = Heard(), Heard()
    notice = Notice(Kind.SHRED, uuid.uuid4())
    async with notifier(url, heard), notifier(url, ignored, listen=False) as sender:
        await sender.publish(notice)
        assert await heard.wait_for(notice)
        await sender.publish(Notice(Kind.KEY_ACTIVATED))
        assert await heard.wait_for(Notice(Kind.KEY_ACTIVATED))


async def test_a_notice_in_a_transaction_is_heard_only_if_it_commits(
    new_database: NewDatabase,
) -> None:
    url = await new_database()
    heard = Heard()
    rolled_back, committed = Notice(Kind.SHRED, uuid.uuid4()), Notice(Kind.SHRED, uuid.uuid4())
    engine = create_engine(url, pool_size=1)
    try:
        async with notifier(url, heard):
            async with AsyncSession(engine) as db:
                async with db.begin():
                    await notify_in(db, rolled_back)
                    await db.rollback()
                async with db.begin():
                    await notify_in(db, committed)
            assert await heard.wait_for(committed)
    finally:
        await engine.dispose()
    assert rolled_back not in heard.notices


async def test_a_notice_reaches_another_process_over_redis(new_database: NewDatabase) -> None:
    redis = shared_redis()
    url = await new_database()
    heard, ignored = Heard(), Heard()
    notice = Notice(Kind.SHRED, uuid.uuid4())
    # The listener hears Redis only: the notice must have travelled that way.
    engine = create_engine(url, pool_size=1)
    listener = Notifier(engine=engine, handler=heard, listen_dsn=None, redis_url=redis)
    listener.start()
    try:
        async with asyncio.timeout(10):
            while not listener.redis_listening:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        async with notifier(url, ignored, listen=False, redis_url=redis) as sender:
            await sender.publish(notice)
            assert await heard.wait_for(notice)
    finally:
        await listener.stop()
        await engine.dispose()


async def test_with_redis_down_notices_travel_through_postgres(new_database: NewDatabase) -> None:
    url = await new_database()
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        down = f"redis://127.0.0.1:{closed.getsockname()[1]}/0"
    heard, ignored = Heard(), Heard()
    notice = Notice(Kind.SHRED, uuid.uuid4())
    engine = create_engine(url, pool_size=1)
    listener = Notifier(engine=engine, handler=heard, listen_dsn=libpq_dsn(url), redis_url=down)
    listener.start()
    try:
        async with asyncio.timeout(10):
            while not listener.postgres_listening:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        assert not listener.redis_listening
        async with notifier(url, ignored, listen=False, redis_url=down) as sender:
            await sender.publish(notice)  # raises nothing
            assert await heard.wait_for(notice)
    finally:
        await listener.stop()
        await engine.dispose()


async def test_a_running_app_drops_a_shredded_practices_keys_on_the_notice(
    new_database: NewDatabase, data_dir: Path
) -> None:
    """Before: another process's cached keys lived until their 300 s expiry."""
    url = await new_database()
    workspace = uuid.uuid4()
    async with running_api(url, data_dir, notifications=True) as api:
        state = api.app.state.carevault
        assert state.notifier is not None
        async with asyncio.timeout(10):
            while not state.notifier.postgres_listening:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        keys = current_cipher().data_keys
        keys.store(workspace.bytes, {1: b"wrapped"})
        assert keys.loaded(workspace.bytes)
        async with notifier(url, Heard(), listen=False) as other_process:
            await other_process.publish(Notice(Kind.SHRED, workspace))
            async with asyncio.timeout(HEARD_WITHIN_SECONDS):
                while keys.loaded(workspace.bytes):  # noqa: ASYNC110
                    await asyncio.sleep(0.01)


async def test_an_app_without_notifications_opens_no_listener(
    new_database: NewDatabase, data_dir: Path
) -> None:
    async with running_api(await new_database(), data_dir) as api:
        assert api.app.state.carevault.notifier is None


async def test_carevault_workspaces_shred_tells_running_apps(
    new_database: NewDatabase, data_dir: Path
) -> None:
    """The real command, in a process of its own: its NOTIFY goes with the shred's commit,
    and the running app forgets the practice's keys at once (not after 300 s)."""
    url = await new_database()
    async with running_api(url, data_dir, notifications=True) as api:
        state = api.app.state.carevault
        space, _ = await api.workspace_with_users(None)
        async with asyncio.timeout(10):
            while not state.notifier.postgres_listening:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        keys = current_cipher().data_keys
        keys.store(space.id.bytes, {1: b"wrapped"})
        await shred_in_another_process(url, data_dir, space.name)
        async with asyncio.timeout(HEARD_WITHIN_SECONDS):
            while keys.loaded(space.id.bytes):  # noqa: ASYNC110
                await asyncio.sleep(0.01)


async def test_a_key_activation_notice_refreshes_the_ring_at_once(
    new_database: NewDatabase, data_dir: Path
) -> None:
    """Before: a process saw an activated key at its next refresh (300 s by default)."""
    url = await new_database()
    async with running_api(url, data_dir, notifications=True) as api:
        state = api.app.state.carevault
        async with asyncio.timeout(10):
            while not state.notifier.postgres_listening:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        before = state.key_manager.status().last_refresh_at
        async with notifier(url, Heard(), listen=False) as other_process:
            await other_process.publish(Notice(Kind.KEY_ACTIVATED))
            async with asyncio.timeout(HEARD_WITHIN_SECONDS):
                while state.key_manager.status().last_refresh_at == before:  # noqa: ASYNC110
                    await asyncio.sleep(0.01)
