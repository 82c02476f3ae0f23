"""The client list's name index and its per-process cache, without a database: order and
matching exactly as the list had them before the cache, the byte cap, idle expiry, and the
memory estimate the cap relies on."""

from __future__ import annotations

import gc
import random
import tracemalloc
import uuid

import pytest

from carevault.clients.listing import (
    ClientListCache,
    ListVersion,
    NameIndex,
    folded,
    new_entry,
    usable_key_versions,
    with_archived,
)
from carevault.crypto import KeyRing
from tests.support.client_names import FIRST_NAMES, LAST_NAMES, reference_order

FIRST = [*FIRST_NAMES, ""]
LAST = [*LAST_NAMES, ""]


def index_of(names: list[tuple[uuid.UUID, str, str, bool]], version: int = 1) -> NameIndex:
    entries = {
        client_id.int: new_entry(client_id, first, last, archived, hash(client_id))
        for client_id, first, last, archived in names
    }
    return NameIndex(ListVersion(version, None), frozenset({1}), entries, {})


def random_names(count: int, seed: int = 7) -> list[tuple[uuid.UUID, str, str, bool]]:
    chance = random.Random(seed)
    return [
        (
            uuid.UUID(int=chance.getrandbits(128)),
            chance.choice(FIRST),
            chance.choice(LAST),
            chance.random() < 0.2,
        )
        for _ in range(count)
    ]


@pytest.mark.parametrize("include_archived", [False, True])
@pytest.mark.parametrize("q", [None, "a", "ANG", "de v", "zoe", "ø", " ", "nobody", "ǆ", "ada l"])
def test_order_and_matching_are_those_of_the_list_before_the_cache(
    q: str | None, include_archived: bool
) -> None:
    names = random_names(400)
    expected = reference_order(names, q, include_archived)
    needle = None if q is None else folded(q.strip())
    found, total = index_of(names).page(
        needle, include_archived=include_archived, offset=0, size=len(names)
    )
    assert found == expected and total == len(expected)
    page, total = index_of(names).page(needle, include_archived=include_archived, offset=5, size=7)
    assert page == expected[5:12] and total == len(expected)


@pytest.mark.parametrize("changes", [3, 200])
def test_a_refreshed_index_is_the_index_built_from_scratch(changes: int) -> None:
    """`updated` keeps unchanged clients in place and inserts the changed ones (or sorts
    again past a few dozen): the result must be exactly a fresh build's."""
    chance = random.Random(changes)
    names = random_names(600, seed=changes)
    before = index_of(names)
    after = list(names)
    for _ in range(changes):
        position = chance.randrange(len(after))
        client_id, first, last, archived = after[position]
        action = chance.choice(["rename", "archive", "remove", "add"])
        if action == "rename":
            after[position] = (client_id, chance.choice(FIRST), chance.choice(LAST), archived)
        elif action == "archive":
            after[position] = (client_id, first, last, not archived)
        elif action == "remove":
            del after[position]
        else:
            after.append((uuid.uuid4(), chance.choice(FIRST), chance.choice(LAST), False))
    old = {client_id: (first, last) for client_id, first, last, _ in names}
    entries, opened = {}, []
    for client_id, first, last, archived in after:
        kept = before.entries.get(client_id.int)
        if kept is not None and old[client_id] == (first, last):
            entries[client_id.int] = with_archived(kept, archived)
        else:  # a new fingerprint, as a rewritten ciphertext has
            entry = new_entry(client_id, first, last, archived, chance.getrandbits(63))
            entries[client_id.int] = entry
            opened.append(entry)
    refreshed = before.updated(ListVersion(2, None), frozenset({1}), entries, opened, {})
    fresh = index_of(after)
    for include_archived in (False, True):
        for needle in (None, "a", "ang"):
            assert refreshed.matching(needle, include_archived=include_archived) == list(
                fresh.matching(needle, include_archived=include_archived)
            )
    assert refreshed.nbytes == fresh.nbytes


def test_unreadable_clients_are_named_only_where_they_would_have_been_listed() -> None:
    hidden, archived = uuid.uuid4(), uuid.uuid4()
    index = NameIndex(
        ListVersion(1, None), frozenset(), {}, {hidden: (False, 1), archived: (True, 2)}
    )
    assert index.unreadable_ids(include_archived=False) == [hidden]
    assert set(index.unreadable_ids(include_archived=True)) == {hidden, archived}


def test_the_cache_evicts_the_least_recently_used_practice_to_stay_under_its_cap() -> None:
    one, two, three = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    size = index_of(random_names(50)).nbytes
    cache = ClientListCache(max_bytes=int(size * 2.5))
    assert cache.put(one, index_of(random_names(50)))
    assert cache.put(two, index_of(random_names(50)))
    assert cache.get(one) is not None  # one is now the most recently used
    assert cache.put(three, index_of(random_names(50)))
    assert cache.get(two) is None and cache.get(one) is not None and cache.get(three) is not None
    assert cache.stats.evictions == 1 and len(cache) == 2
    assert cache.nbytes <= cache.max_bytes

    # An index bigger than the whole cap is not kept (that practice is served uncached).
    assert not cache.put(uuid.uuid4(), index_of(random_names(200)))
    assert len(cache) == 2 and cache.nbytes <= cache.max_bytes


def test_an_older_index_never_replaces_a_newer_one() -> None:
    practice = uuid.uuid4()
    cache = ClientListCache()
    newer, older = index_of(random_names(5), version=9), index_of(random_names(5), version=8)
    assert cache.put(practice, newer)
    assert not cache.put(practice, older)
    assert cache.get(practice) is newer


def test_an_index_refreshed_from_the_kept_one_replaces_it_even_at_a_lower_counter() -> None:
    """A database restored to an earlier state has a lower counter: the index brought up to
    date from the kept one must replace it, or every request would refresh forever."""
    practice = uuid.uuid4()
    cache = ClientListCache()
    kept = index_of(random_names(5), version=9)
    cache.put(practice, kept)
    restored = index_of(random_names(5), version=4)
    assert cache.put(practice, restored, replacing=kept)
    assert cache.get(practice) is restored


def test_practices_unused_for_the_idle_time_are_dropped() -> None:
    cache = ClientListCache(idle_seconds=60)
    stale, fresh = uuid.uuid4(), uuid.uuid4()
    cache.put(stale, index_of(random_names(5)))
    cache.put(fresh, index_of(random_names(5)))
    stale_index = cache.get(stale)
    assert stale_index is not None
    stale_index.used_at -= 61
    cache._indexes.move_to_end(stale, last=False)  # as if not used since
    assert cache.get(fresh) is not None
    assert cache.get(stale) is None and len(cache) == 1
    assert cache.nbytes == index_of(random_names(5)).nbytes


def test_a_cap_of_zero_turns_the_cache_off() -> None:
    assert not ClientListCache(max_bytes=0).enabled


def test_the_memory_estimate_is_close_to_what_an_index_really_holds() -> None:
    """The cap is only as good as the estimate: within 20% of tracemalloc's count."""
    chance = random.Random(3)
    count = 5_000
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        rows = [
            (
                uuid.uuid4(),
                chance.choice(FIRST) + str(n % 97),
                chance.choice(LAST) + str(n % 89),
                n % 10 == 0,
                hash((chance.randbytes(40), chance.randbytes(40))),
            )
            for n in range(count)
        ]
        entries = {
            client_id.int: new_entry(client_id, first, last, archived, mark)
            for client_id, first, last, archived, mark in rows
        }
        index = NameIndex(ListVersion(1, None), frozenset({1}), entries, {})
        del rows, entries
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert 0.8 * held <= index.nbytes <= 1.2 * held, (index.nbytes / count, held / count)


def test_usable_versions_leave_out_retired_ones() -> None:
    ring = KeyRing.generate().rotated()
    assert usable_key_versions(ring) == {1, 2}
    assert usable_key_versions(ring.with_retired(1)) == {2}
