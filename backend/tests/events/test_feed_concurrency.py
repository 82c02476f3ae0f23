"""The feed under 50 concurrent writers committing out of order: a reader following cursors
the whole time reads every committed event exactly once, in cursor order, and never one
whose transaction rolled back. (PostgreSQL on loopback, like every test.)"""

from __future__ import annotations

import asyncio
import random
import uuid

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.db.engine import create_engine
from carevault.events.feed import Cursor, read_page, record_event
from carevault.workspaces.models import Workspace
from tests.support.db import NewDatabase

WRITERS = 50
ROUNDS = 4
PAGE = 7  # small pages: the reader moves its cursor often while commits land


async def test_fifty_writers_committing_out_of_order_no_gaps_no_duplicates(
    new_database: NewDatabase,
) -> None:
    engine = create_engine(await new_database(), pool_size=WRITERS + 2)
    try:
        async with AsyncSession(engine, expire_on_commit=False) as db:
            space = Workspace(name=f"Feed {uuid.uuid4().hex[:8]}")  # no PHI: no keys needed
            db.add(space)
            await db.commit()
        feed = FeedUnderLoad(engine, space.id)
        await feed.run()
    finally:
        await engine.dispose()
    # The writers did commit out of order: a later commit held a lower event id.
    assert any(a > b for a, b in zip(feed.commit_order, feed.commit_order[1:], strict=False))
    ids = [cursor.event_id for cursor in feed.read]
    assert len(ids) == len(set(ids)), "an event was read twice"
    assert set(ids) == feed.committed, "an event was skipped, or a rolled-back one read"
    assert feed.read == sorted(feed.read), "the cursor went backwards"
    assert len(feed.committed) > WRITERS * ROUNDS  # one to three events per transaction


class FeedUnderLoad:
    def __init__(self, engine: AsyncEngine, space: uuid.UUID) -> None:
        self.engine = engine
        self.space = space
        self.committed: set[int] = set()
        self.commit_order: list[int] = []  # each commit's lowest event id, in commit order
        self.read: list[Cursor] = []
        self.rng = random.Random(25)

    async def run(self) -> None:
        done = asyncio.Event()
        reading = asyncio.create_task(self.reader(done))
        for _ in range(ROUNDS):
            await self.round()
        done.set()
        await asyncio.wait_for(reading, timeout=120)

    async def round(self) -> None:
        """Every writer inserts its events (taking ids and transaction ids in whatever order
        they run), then they commit one by one in a shuffled order."""
        inserted = asyncio.Barrier(WRITERS + 1)
        go = [asyncio.Event() for _ in range(WRITERS)]
        ended = [asyncio.Event() for _ in range(WRITERS)]
        writers = [
            asyncio.create_task(self.writer(i, inserted, go[i], ended[i])) for i in range(WRITERS)
        ]
        await inserted.wait()
        order = list(range(WRITERS))
        self.rng.shuffle(order)
        for index in order:
            go[index].set()
            await ended[index].wait()
            await asyncio.sleep(0)  # let the reader poll between commits
        await asyncio.gather(*writers)

    async def writer(
        self, index: int, inserted: asyncio.Barrier, go: asyncio.Event, ended: asyncio.Event
    ) -> None:
        async with AsyncSession(self.engine) as db:
            ids = [
                await record_event(db, self.space, "client.updated", "client", uuid.uuid4())
                for _ in range(1 + index % 3)
            ]
            await inserted.wait()
            await go.wait()
            if index % 10 == 9:
                await db.rollback()
            else:
                await db.commit()
                self.committed.update(ids)
                self.commit_order.append(min(ids))
        ended.set()

    async def reader(self, done: asyncio.Event) -> None:
        cursor: Cursor | None = None
        while True:
            finished = done.is_set()  # one more full read after the last commit
            async with AsyncSession(self.engine) as db:
                page = await read_page(db, self.space, cursor, PAGE)
            self.read.extend(event.cursor for event in page.events)
            cursor = page.next_cursor
            if finished and not page.has_more:
                return
            await asyncio.sleep(0)
