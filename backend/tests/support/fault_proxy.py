"""A TCP proxy on loopback between the app and the test PostgreSQL that can freeze or cut.

- frozen: it keeps reading what each side sends but delivers nothing and opens nothing new,
  as a SIGSTOPped server would; on thaw it delivers what it held, in order, and only then
  passes on a close. So a COMMIT sent during a freeze reaches the server late, as it would.
- down: every connection is cut and new ones are closed at once (a stopped server).

It is bounded: it serves only while the test holds it, and `close()` ends every task.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tests.support.db import PgServer, database_name


class FaultProxy:
    def __init__(self, server: PgServer) -> None:
        self.target = server
        self._thawed = asyncio.Event()
        self._thawed.set()
        self.down = False
        self.delay = 0.0  # seconds added to every chunk passed on (a slow database)
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self.port = 0

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def url(self, database_url: str) -> str:
        """The app's URL, routed through the proxy (TCP on loopback)."""
        name = database_name(database_url)
        credentials = self.target.user
        if self.target.password:
            credentials += f":{self.target.password}"
        return f"postgresql+asyncpg://{credentials}@127.0.0.1:{self.port}/{name}"

    def freeze(self) -> None:
        self._thawed.clear()

    def thaw(self) -> None:
        self._thawed.set()

    def cut(self) -> None:
        """Stop the database: every connection closed, new ones refused."""
        self.down = True
        for writer in list(self._writers):
            writer.transport.abort()

    def restore(self) -> None:
        self.down = False

    async def _open_upstream(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.target.socket_dir:
            port = self.target.port or 5432
            path = f"{self.target.socket_dir}/.s.PGSQL.{port}"
            return await asyncio.open_unix_connection(path)
        return await asyncio.open_connection(self.target.host, self.target.port)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        upstream_writer: asyncio.StreamWriter | None = None
        try:
            if self.down:
                return
            await self._thawed.wait()
            if self.down:
                return
            upstream_reader, upstream_writer = await self._open_upstream()
            self._writers.add(upstream_writer)
            await asyncio.gather(
                self._pump(reader, upstream_writer), self._pump(upstream_reader, writer)
            )
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            for each in (writer, upstream_writer):
                if each is not None:
                    self._writers.discard(each)
                    each.transport.abort()
            self._tasks.discard(task)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        while True:
            try:
                data = await source.read(65536)
            except OSError:
                data = b""
            # Held while frozen: delivered on thaw, then the close (if any) follows.
            await self._thawed.wait()
            if not data:
                with contextlib.suppress(OSError):
                    await sink.drain()
                sink.close()
                return
            if self.delay:
                await asyncio.sleep(self.delay)
            sink.write(data)
            await sink.drain()

    async def close(self) -> None:
        self.thaw()
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)


@asynccontextmanager
async def fault_proxy(server: PgServer) -> AsyncIterator[FaultProxy]:
    proxy = FaultProxy(server)
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.close()
