"""Reading the feed by cursor: committed events only, in an order no later commit can
precede, never skipped or repeated (carevault.events.feed)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.core.errors import Gone, Invalid
from carevault.events import background
from carevault.events.feed import (
    START,
    Cursor,
    FeedEvent,
    prune_expired,
    read_events,
    record_event,
)
from carevault.events.models import ChangeEvent


async def read_all(
    engine: AsyncEngine, space: uuid.UUID, after: Cursor | None = None
) -> list[FeedEvent]:
    async with AsyncSession(engine) as db:
        return (await read_events(db, space, after, limit=500)).events


async def test_a_lower_id_committing_later_is_not_skipped(
    feed_engine: AsyncEngine, practice: uuid.UUID
) -> None:
    first = AsyncSession(feed_engine)
    second = AsyncSession(feed_engine)
    try:
        # `first` takes the lower event id and transaction id, and commits last.
        await record_event(first, practice, "client.updated", "client", uuid.uuid4())
        await record_event(second, practice, "client.updated", "client", uuid.uuid4())
        await second.commit()
        # The reader sees nothing yet: moving past `second`'s event would skip `first`'s.
        assert await read_all(feed_engine, practice) == []
        await first.commit()
    finally:
        await first.close()
        await second.close()
    events = await read_all(feed_engine, practice)
    assert len(events) == 2
    assert events[0].cursor < events[1].cursor


async def test_following_cursors_reads_each_event_once(
    feed_engine: AsyncEngine, practice: uuid.UUID
) -> None:
    async with AsyncSession(feed_engine) as db:
        for _ in range(7):
            await record_event(db, practice, "client.updated", "client", uuid.uuid4())
        await db.commit()
    seen: list[Cursor] = []
    after: Cursor | None = None
    for _ in range(10):
        async with AsyncSession(feed_engine) as db:
            page = await read_events(db, practice, after, limit=3)
        seen.extend(event.cursor for event in page.events)
        if not page.events:
            assert page.next_cursor == after
            break
        after = page.next_cursor
    assert len(seen) == 7 == len(set(seen))
    assert seen == sorted(seen)


async def test_other_practices_events_are_not_read(
    feed_engine: AsyncEngine, practice: uuid.UUID
) -> None:
    async with AsyncSession(feed_engine) as db:
        await record_event(db, practice, "client.updated", "client", uuid.uuid4())
        await db.commit()
    assert await read_all(feed_engine, uuid.uuid4()) == []


async def test_pruning_moves_the_horizon_and_expires_older_cursors(
    feed_engine: AsyncEngine, practice: uuid.UUID
) -> None:
    async with AsyncSession(feed_engine) as db:
        for _ in range(3):
            await record_event(db, practice, "client.updated", "client", uuid.uuid4())
        await db.commit()
    events = await read_all(feed_engine, practice)
    async with AsyncSession(feed_engine) as db:
        # The first two are 40 days old.
        await db.execute(
            update(ChangeEvent)
            .where(ChangeEvent.id.in_([e.cursor.event_id for e in events[:2]]))
            .values(occurred_at=datetime.now(UTC) - timedelta(days=40))
        )
        assert await prune_expired(db, datetime.now(UTC), timedelta(days=30), limit=1) == 1
        assert await prune_expired(db, datetime.now(UTC), timedelta(days=30)) == 1
        assert await prune_expired(db, datetime.now(UTC), timedelta(days=30)) == 0
        await db.commit()
    # A reader that had read both pruned events missed nothing.
    assert [e.cursor for e in await read_all(feed_engine, practice, events[1].cursor)] == [
        events[2].cursor
    ]
    # One that had read only the first, or none, missed one: 410.
    for stale in (events[0].cursor, START):
        with pytest.raises(Gone) as expired:
            await read_all(feed_engine, practice, stale)
        assert isinstance(expired.value, Gone) and expired.value.code == "cursor_expired"
    # Without a cursor: from the oldest kept.
    assert [e.cursor for e in await read_all(feed_engine, practice)] == [events[2].cursor]


def test_cursors_round_trip_and_refuse_anything_else() -> None:
    cursor = Cursor(2**40 + 3, 17)
    assert Cursor.decode(cursor.encode()) == cursor
    encoded = cursor.encode()
    beyond_bigint = Cursor(2**63, 1).encode()
    for bad in (
        "",
        "ev_",
        "17",
        encoded + "A",
        encoded[:-1],
        "xx" + encoded[2:],
        encoded + "=",
        beyond_bigint,
    ):
        with pytest.raises(Invalid) as refused:
            Cursor.decode(bad)
        assert refused.value.code == "invalid_cursor"
        assert refused.value.details[0]["field"] == "query.after"


async def test_an_event_rolled_back_with_its_change_is_never_read(
    feed_engine: AsyncEngine, practice: uuid.UUID
) -> None:
    async with AsyncSession(feed_engine) as db:
        await record_event(db, practice, "client.updated", "client", uuid.uuid4())
        await db.rollback()
    async with AsyncSession(feed_engine) as db:
        assert await db.scalar(text("SELECT count(*) FROM change_events")) == 0
    assert await read_all(feed_engine, practice) == []


async def test_one_pruner_at_a_time_and_in_batches(
    feed_engine: AsyncEngine, practice: uuid.UUID, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with AsyncSession(feed_engine) as db:
        for _ in range(5):
            await record_event(db, practice, "client.updated", "client", uuid.uuid4())
        await db.commit()
    later = datetime.now(UTC) + timedelta(days=31)
    monkeypatch.setattr(background, "BATCH", 2)
    async with AsyncSession(feed_engine) as holder, holder.begin():
        await holder.execute(
            text("SELECT pg_advisory_xact_lock(:a, :b)"),
            {"a": background.PRUNER_LOCK[0], "b": background.PRUNER_LOCK[1]},
        )
        assert await background.prune_round(feed_engine, timedelta(days=30), now=later) is None
    assert await background.prune_round(feed_engine, timedelta(days=30), now=later) == 5
    with pytest.raises(Gone):
        await read_all(feed_engine, practice, START)
