"""The client list's name index: each practice's clients by name, opened once per change.

Names are sealed with a fresh nonce per value, so PostgreSQL can neither sort nor match them;
ordering a list or matching part of a name needs every name of the practice in the clear.
Rather than decrypt them all on every request, each app process keeps, per practice, a
`NameIndex`: for every client its id, case- and accent-folded first and last name (and the
exact spelling, which breaks ties), archived or not, and a fingerprint of the two stored
ciphertexts. A list request then sorts nothing and decrypts no name: it slices the index
(or filters it by substring for a name search) and loads only the page's rows.

Kept correct by PostgreSQL, not by the processes: migration 0014 keeps a per-practice
change counter (`client_list_changes`) that triggers on `clients` advance, in the writing
transaction, whenever a statement adds, removes, moves, archives or restores a client or
rewrites a name, whatever wrote it (ORM, Core, raw SQL, COPY). Every list request reads the
counter first (one indexed statement) and uses its index only when the counter is the one
the index was built at. Otherwise it brings the index up to date: one statement reads id,
archived flag and the stored name ciphertexts of every client (no decryption), and only
clients whose ciphertexts changed, or that are new, are decrypted. A write that rolls back
never advances the counter; one not yet committed is not seen by other transactions, and a
transaction that sees its own uncommitted client changes builds a private index that is
never cached.

Bounded and dropped:
- An LRU over practices capped in bytes (`CAREVAULT_CLIENT_LIST_CACHE_SIZE`, 64 MiB by
  default; 0 turns the cache off: every request then decrypts every name, as before). A
  practice whose index alone exceeds the cap is served uncached. Entries unused for
  `IDLE_SECONDS` are dropped.
- A shred: the counter statement also reads the practice's `shredded_at`; a shredded
  practice's index (and this process's copy of its data keys) is dropped at once and the
  request refused, without waiting for the data-key cache to expire.
- Key retirement: an index remembers which master versions were usable when it was built;
  once the ring no longer has one of them (retired, or removed), the index is discarded and
  rebuilt from the database, so a name can never be served from memory after the key that
  protected it is gone.

Names are in the clear in the process's memory, as every name of a practice already was
for the duration of each list request; see docs/explanation/encryption.md, "The client list's name
cache", for what that does and does not change.
"""

from __future__ import annotations

import gc
import sys
import time
import unicodedata
import uuid
from bisect import insort
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from itertools import compress, repeat
from operator import contains
from typing import Any, Final

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    LargeBinary,
    Table,
    and_,
    any_,
    bindparam,
    cast,
    column,
    false,
    func,
    select,
    table,
    type_coerce,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.types import Uuid

from carevault.clients.models import Client
from carevault.crypto import DecryptionError, KeyRing, current_cipher
from carevault.db import direct
from carevault.db.readable import rows_skipping_unreadable
from carevault.workspaces.keys import WorkspaceShredded
from carevault.workspaces.models import Workspace

DEFAULT_MAX_BYTES = 64 * 2**20
IDLE_SECONDS = 30 * 60
# What one client costs in an index besides the five strings it holds (counted exactly):
# its entry tuple, its id and fingerprint ints, and its slots in the dict and the ordered
# lists. Measured with tracemalloc on 10,000 clients (about 570 bytes a client
# in all with names of 8 to 12 characters); tests/unit/test_client_listing.py checks it.
ENTRY_OVERHEAD_BYTES = 255


def _table_of(model: type[Client]) -> Table:
    table_ = model.__table__
    assert isinstance(table_, Table)
    return table_


def folded(text: str) -> str:
    """Case- and accent-insensitive form for ordering and matching: "Ängström" -> "angstrom"."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def sort_key(client_id: uuid.UUID, first_name: str, last_name: str) -> tuple[Any, ...]:
    """By last then first name, folded; exact spelling and then id break ties, so the order
    is stable. (UUIDs order as their canonical strings do.)"""
    return (folded(last_name), folded(first_name), last_name, first_name, client_id)


def search_text(first_name: str, last_name: str) -> str:
    """What a name search matches `folded(q)` against, as a substring."""
    return f"{folded(first_name)} {folded(last_name)}"


# One client: (folded last, folded first, last name, first name, id as UUID.int, search
# text, archived, fingerprint). Entries compare as tuples, so sorting them is sorting by
# `sort_key` (the id, unique, settles every tie before the fields after it are reached).
# A plain tuple of strings, ints and bools, rather than a NamedTuple or with a UUID object:
# CPython's collector stops tracking exactly such tuples, so a cached index adds nothing to
# the work of the process's full collections (100,000 NamedTuples added 12 ms to each).
Entry = tuple[str, str, str, str, int, str, bool, int]
CLIENT: Final = 4
SEARCH: Final = 5
ARCHIVED: Final = 6
FINGERPRINT: Final = 7


def new_entry(
    client_id: uuid.UUID, first_name: str, last_name: str, archived: bool, fingerprint: int
) -> Entry:
    first, last = folded(first_name), folded(last_name)
    return (
        last,
        first,
        last_name,
        first_name,
        client_id.int,
        f"{first} {last}",
        archived,
        fingerprint,
    )


def with_archived(entry: Entry, archived: bool) -> Entry:
    return (*entry[:ARCHIVED], archived, entry[FINGERPRINT])


def fingerprint_of(first_stored: bytes, last_stored: bytes) -> int:
    """Tells one stored pair of name ciphertexts from another: every sealing draws a fresh
    nonce, so a rewritten name (even to the same text) has a new one. Python's hash is keyed
    per process, like the cache, and 64 bits make an accidental match negligible."""
    return hash((first_stored, last_stored))


@dataclass(frozen=True, slots=True)
class ListVersion:
    """The practice's change counter: the sum of its changes and when the latest was made
    (so a database restored to an earlier state cannot reach a sum cached before)."""

    changes: int
    changed_at: datetime | None


def _entry_bytes(entry: Entry) -> int:
    strings = (entry[0], entry[1], entry[2], entry[3], entry[SEARCH])
    return ENTRY_OVERHEAD_BYTES + sum(map(sys.getsizeof, strings))


# Above this many changed clients a refresh sorts everything again rather than inserting.
_INSERT_AT_MOST = 64
UNREADABLE_ENTRY_BYTES = 120


class NameIndex:
    """One practice's clients in list order; immutable once built."""

    __slots__ = (
        "_active_ids",
        "_active_search",
        "_all_ids",
        "_all_search",
        "_last_match",
        "_order",
        "entries",
        "key_versions",
        "nbytes",
        "unreadable",
        "used_at",
        "version",
    )

    def __init__(
        self,
        version: ListVersion,
        key_versions: frozenset[int],
        entries: dict[int, Entry],
        unreadable: dict[uuid.UUID, tuple[bool, int]],
        *,
        order: list[Entry] | None = None,
        nbytes: int | None = None,
    ) -> None:
        """`order` and `nbytes`, when given, are `entries` sorted and their size."""
        self.version = version
        self.key_versions = key_versions
        self.entries = entries
        # Clients whose names could not be opened: (archived, fingerprint). Left out of every
        # list, audited by each request that would have shown them, and tried again.
        self.unreadable = unreadable
        self._order = sorted(entries.values()) if order is None else order
        self._all_ids = [entry[CLIENT] for entry in self._order]
        self._all_search = [entry[SEARCH] for entry in self._order]
        self._active_ids = [entry[CLIENT] for entry in self._order if not entry[ARCHIVED]]
        self._active_search = [entry[SEARCH] for entry in self._order if not entry[ARCHIVED]]
        # The latest name search's matches: a request that tries this index and then finds
        # it current (an empty page, see clients.service) filters once, not twice. Not in
        # `nbytes`: a list of references to the ids above, 8 bytes a match at most.
        self._last_match: tuple[str, bool, list[int]] | None = None
        if nbytes is None:
            nbytes = sum(map(_entry_bytes, self._order))
        self.nbytes = nbytes + UNREADABLE_ENTRY_BYTES * len(unreadable)
        self.used_at = time.monotonic()

    def updated(
        self,
        version: ListVersion,
        key_versions: frozenset[int],
        entries: dict[int, Entry],
        opened: list[Entry],
        unreadable: dict[uuid.UUID, tuple[bool, int]],
    ) -> NameIndex:
        """The index of `entries`: this one's entries that are still there with the same
        fingerprint (archived or not as now) keep their place, `opened` ones are inserted."""
        order: list[Entry] = []
        nbytes = self.nbytes - UNREADABLE_ENTRY_BYTES * len(self.unreadable)
        for entry in self._order:
            now = entries.get(entry[CLIENT])
            if now is None or now[FINGERPRINT] != entry[FINGERPRINT]:
                nbytes -= _entry_bytes(entry)  # gone, or opened again below
            else:
                order.append(now)
        if len(opened) > _INSERT_AT_MOST:
            order += opened
            order.sort()
        else:
            for entry in opened:
                insort(order, entry)
        nbytes += sum(map(_entry_bytes, opened))
        return NameIndex(version, key_versions, entries, unreadable, order=order, nbytes=nbytes)

    def page(
        self, needle: str | None, *, include_archived: bool, offset: int, size: int
    ) -> tuple[list[uuid.UUID], int]:
        """The ids of one page of `matching`, and how many match in all."""
        found = self.matching(needle, include_archived=include_archived)
        return [uuid.UUID(int=client) for client in found[offset : offset + size]], len(found)

    def page_names(
        self,
        needle: str | None,
        *,
        include_archived: bool,
        offset: int,
        size: int,
        only: set[uuid.UUID] | None = None,
    ) -> tuple[list[tuple[uuid.UUID, str, str]], int]:
        """Like `page`, each id with the client's first and last name (as spelled); with
        `only`, of those clients alone (a care team's: carevault.clients.access), in the same
        order."""
        found = self.matching(needle, include_archived=include_archived)
        if only is not None:
            ints = {client_id.int for client_id in only}
            found = [client for client in found if client in ints]
        entries = self.entries
        names = []
        for client in found[offset : offset + size]:
            entry = entries[client]
            names.append((uuid.UUID(int=client), entry[3], entry[2]))
        return names, len(found)

    def matching(self, needle: str | None, *, include_archived: bool) -> Sequence[int]:
        """Ids (as UUID.int) in list order: everyone (archived too if asked), or those whose
        folded "first last" contains `needle` (already folded)."""
        ids = self._all_ids if include_archived else self._active_ids
        if needle is None:
            return ids
        last = self._last_match
        if last is not None and last[0] == needle and last[1] == include_archived:
            return last[2]
        search = self._all_search if include_archived else self._active_search
        # A substring test per client, in C (no Python bytecode per client).
        found = list(compress(ids, map(contains, search, repeat(needle))))
        self._last_match = (needle, include_archived, found)
        return found

    def unreadable_ids(
        self, *, include_archived: bool, only: set[uuid.UUID] | None = None
    ) -> list[uuid.UUID]:
        return [
            client_id
            for client_id, (archived, _) in self.unreadable.items()
            if (include_archived or not archived) and (only is None or client_id in only)
        ]


@dataclass
class CacheStats:
    hits: int = 0
    # Brought up to date from a previous index (only changed names opened).
    refreshes: int = 0
    # Built from nothing (every name opened).
    builds: int = 0
    # Built for one request and not kept: the cache is off, the index is over the cap, or
    # the request's transaction had uncommitted client changes of its own.
    bypasses: int = 0
    evictions: int = 0
    names_opened: int = 0


class ClientListCache:
    """Per-process LRU of practices' name indexes, capped in (estimated) bytes."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES, idle_seconds: float = IDLE_SECONDS):
        self.max_bytes = max_bytes
        self.idle_seconds = idle_seconds
        self._indexes: OrderedDict[uuid.UUID, NameIndex] = OrderedDict()
        self.nbytes = 0
        self.stats = CacheStats()

    @property
    def enabled(self) -> bool:
        return self.max_bytes > 0

    def __len__(self) -> int:
        return len(self._indexes)

    def get(self, workspace_id: uuid.UUID) -> NameIndex | None:
        self._expire_idle()
        index = self._indexes.get(workspace_id)
        if index is not None:
            index.used_at = time.monotonic()
            self._indexes.move_to_end(workspace_id)
        return index

    def put(
        self, workspace_id: uuid.UUID, index: NameIndex, *, replacing: NameIndex | None = None
    ) -> bool:
        """Keep `index` unless it alone exceeds the cap, or another request kept a newer one
        meanwhile (two requests can refresh a practice at once). An index made from the kept
        one (`replacing`) always replaces it, even at a lower counter: the database was
        restored to an earlier state. Evicts least recently used practices."""
        current = self._indexes.get(workspace_id)
        if (
            current is not None
            and current is not replacing
            and _newer(current.version, index.version)
        ):
            return False
        self.drop(workspace_id)
        if index.nbytes > self.max_bytes:
            return False
        self._indexes[workspace_id] = index
        self.nbytes += index.nbytes
        while self.nbytes > self.max_bytes:
            _, evicted = self._indexes.popitem(last=False)
            self.nbytes -= evicted.nbytes
            self.stats.evictions += 1
        return True

    def drop(self, workspace_id: uuid.UUID) -> None:
        index = self._indexes.pop(workspace_id, None)
        if index is not None:
            self.nbytes -= index.nbytes

    def clear(self) -> None:
        self._indexes.clear()
        self.nbytes = 0

    def _expire_idle(self) -> None:
        limit = time.monotonic() - self.idle_seconds
        while self._indexes:
            workspace_id, oldest = next(iter(self._indexes.items()))
            if oldest.used_at >= limit:
                break
            self.drop(workspace_id)
            self.stats.evictions += 1


def _newer(kept: ListVersion, offered: ListVersion) -> bool:
    """The counter only grows (its sum; its time too, short of a restore): keep the newer."""
    return kept.changes > offered.changes


_changes = table(
    "client_list_changes",
    column("workspace_id", Uuid()),
    column("changes", BigInteger()),
    column("changed_at", DateTime(timezone=True)),
    column("txid"),
)

# Shredded?, the counter, and whether this transaction has uncommitted client changes of
# its own (a view that includes them must not be cached for others).
_VERSION = (
    select(
        Workspace.shredded_at.is_not(None),
        cast(func.coalesce(func.sum(_changes.c.changes), 0), BigInteger),
        func.max(_changes.c.changed_at),
        func.coalesce(
            func.bool_or(_changes.c.txid == func.pg_current_xact_id_if_assigned()),
            false(),
            type_=Boolean,
        ),
    )
    .select_from(Workspace)
    .outerjoin(_changes, _changes.c.workspace_id == Workspace.id)
    .where(Workspace.id == bindparam("workspace_id"))
    .group_by(Workspace.id)
)

# True while the practice is unshredded and its counter is still `expected_changes` at
# `expected_changed_at`: added to a statement that reads a page sliced from a cached index,
# so that the index's validity is checked in the same round trip (`unchanged_since`).
_OF_PRACTICE = _changes.c.workspace_id == bindparam("workspace_id")
UNCHANGED = and_(
    select(cast(func.coalesce(func.sum(_changes.c.changes), 0), BigInteger))
    .where(_OF_PRACTICE)
    .scalar_subquery()
    == bindparam("expected_changes", type_=BigInteger()),
    select(func.max(_changes.c.changed_at))
    .where(_OF_PRACTICE)
    .scalar_subquery()
    .is_not_distinct_from(bindparam("expected_changed_at", type_=DateTime(timezone=True))),
    ~select(Workspace.id)
    .where(Workspace.id == bindparam("workspace_id"), Workspace.shredded_at.is_not(None))
    .exists(),
)


def current_index(cache: ClientListCache | None, workspace_id: uuid.UUID) -> NameIndex | None:
    """The practice's cached index if it can serve a page without being refreshed first,
    its validity then checked by `UNCHANGED` in the page's own statement (with the values
    of `unchanged_since`): None if there is none, if a master version it was built under is
    gone, or if it has names to retry. Reads nothing from the database."""
    if cache is None or not cache.enabled:
        return None
    index = cache.get(workspace_id)
    if index is None or index.unreadable:
        return None
    if not index.key_versions <= usable_key_versions(current_cipher().ring):
        return None
    return index


def unchanged_since(index: NameIndex) -> dict[str, Any]:
    """The bound values of `UNCHANGED` for `index`."""
    return {
        "expected_changes": index.version.changes,
        "expected_changed_at": index.version.changed_at,
    }


# Core statements on the table (not the ORM entity): thousands of rows come back as plain
# rows, without the ORM's per-row loading machinery.
_clients = _table_of(Client)
_in_practice = _clients.c.workspace_id == bindparam("workspace_id")
_stored_names = (
    type_coerce(_clients.c.first_name, LargeBinary),  # the stored bytes, not decrypted
    type_coerce(_clients.c.last_name, LargeBinary),
)
_archived = _clients.c.archived_at.is_not(None)
# Every client of the practice without decrypting anything: id, archived, stored names.
_FINGERPRINTS = select(_clients.c.id, _archived, *_stored_names).where(_in_practice)
# The same, with both names opened: a practice's first index in one statement.
_EVERYONE = select(
    _clients.c.id, _archived, *_stored_names, _clients.c.first_name, _clients.c.last_name
).where(_in_practice)
_NAMES = select(_clients.c.id, _clients.c.first_name, _clients.c.last_name).where(_in_practice)
_NAMES_OF = _NAMES.where(_clients.c.id == any_(bindparam("ids", type_=ARRAY(Uuid()))))


_usable_memo: tuple[KeyRing, frozenset[int]] | None = None


def usable_key_versions(ring: KeyRing) -> frozenset[int]:
    """Master versions this ring can decrypt with (computed once per ring object)."""
    global _usable_memo
    memo = _usable_memo
    if memo is not None and memo[0] is ring:
        return memo[1]
    usable = frozenset(version for version, key in ring.keys.items() if key.usable)
    _usable_memo = (ring, usable)
    return usable


async def name_index(
    db: AsyncSession, cache: ClientListCache | None, workspace_id: uuid.UUID
) -> NameIndex:
    """The practice's index as of the counter read now: cached, refreshed or built.

    Raises WorkspaceShredded (after dropping what this process holds of the practice)."""
    # Alone (on the direct pool) unless the request holds a transaction: the read needs none.
    ((shredded, changes, changed_at, own_changes),) = await direct.rows_alone(
        db, _VERSION, {"workspace_id": workspace_id}
    )
    if shredded:
        if cache is not None:
            cache.drop(workspace_id)
        current_cipher().data_keys.forget(workspace_id.bytes)
        raise WorkspaceShredded("this practice's data was shredded")
    version = ListVersion(changes, changed_at)
    usable = usable_key_versions(current_cipher().ring)
    if cache is None or not cache.enabled or own_changes:
        index = await _build(db, workspace_id, version, usable, None, cache)
        if cache is not None:
            cache.stats.bypasses += 1
        return index
    previous = cache.get(workspace_id)
    if previous is not None and not previous.key_versions <= usable:
        # A master version the names were readable under is gone: nothing of it stays.
        cache.drop(workspace_id)
        previous = None
    if previous is not None and previous.version == version:
        cache.stats.hits += 1
        if previous.unreadable:
            return await _retry_unreadable(db, workspace_id, previous, cache)
        return previous
    index = await _build(db, workspace_id, version, usable, previous, cache)
    if previous is None:
        cache.stats.builds += 1
    else:
        cache.stats.refreshes += 1
    if not cache.put(workspace_id, index, replacing=previous):
        cache.stats.bypasses += 1
    return index


async def _build(
    db: AsyncSession,
    workspace_id: uuid.UUID,
    version: ListVersion,
    usable: frozenset[int],
    previous: NameIndex | None,
    cache: ClientListCache | None,
) -> NameIndex:
    """Without `previous`, open every name; with it, read every client's stored names (no
    decryption) and open only those whose ciphertexts differ from `previous`."""
    entries: dict[int, Entry]
    if previous is None:
        result = await db.execute(_EVERYONE, {"workspace_id": workspace_id})
        try:
            with _collection_deferred():  # rows are decrypted here, as they are read
                entries = {
                    client_id.int: new_entry(
                        client_id, first, last, archived, fingerprint_of(first_stored, last_stored)
                    )
                    for client_id, archived, first_stored, last_stored, first, last in result
                }
                index = NameIndex(version, usable, entries, {})
        except DecryptionError:
            pass  # a name that cannot be opened: the path below finds which and goes on
        else:
            if cache is not None:
                cache.stats.names_opened += 2 * len(entries)
            return index
    result = await db.execute(_FINGERPRINTS, {"workspace_id": workspace_id})
    with _collection_deferred():
        stored = result.all()
    known = previous.entries if previous is not None else {}
    entries = {}
    to_open: dict[uuid.UUID, tuple[bool, int]] = {}
    for client_id, archived, first_stored, last_stored in stored:
        fingerprint = fingerprint_of(first_stored, last_stored)
        entry = known.get(client_id.int)
        if entry is None or entry[FINGERPRINT] != fingerprint:
            to_open[client_id] = (archived, fingerprint)
        elif entry[ARCHIVED] != archived:
            entries[entry[CLIENT]] = with_archived(entry, archived)
        else:
            entries[entry[CLIENT]] = entry
    if previous is None:
        # Everyone is new: read the names of the whole practice, not a list of ids.
        rows, failed = await rows_skipping_unreadable(
            db, _NAMES.params(workspace_id=workspace_id), _clients.c.id
        )
    else:
        rows, failed = await _open(db, workspace_id, list(to_open))
    opened = _opened(rows, to_open)
    entries.update((entry[CLIENT], entry) for entry in opened)
    if cache is not None:
        cache.stats.names_opened += 2 * len(opened)
    # A client added after the first statement has no fingerprint here: the counter moved,
    # so the next request brings it in.
    unreadable = {client_id: to_open[client_id] for client_id in failed if client_id in to_open}
    with _collection_deferred():
        if previous is None:
            return NameIndex(version, usable, entries, unreadable)
        return previous.updated(version, usable, entries, opened, unreadable)


@contextmanager
def _collection_deferred() -> Iterator[None]:
    """Hold CPython's cyclic garbage collector while an index's objects are made: tens of
    thousands of long-lived tuples at once would set off several collections, full ones
    included (about 0.1 s each in a running app), none of which could free anything. The
    block never awaits, so nothing else runs on the event loop meanwhile; the collector runs
    again as usual afterwards."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def _open(
    db: AsyncSession, workspace_id: uuid.UUID, ids: list[uuid.UUID]
) -> tuple[list[Any], list[uuid.UUID]]:
    if not ids:
        return [], []
    return await rows_skipping_unreadable(
        db, _NAMES_OF.params(workspace_id=workspace_id, ids=ids), _clients.c.id
    )


def _opened(rows: Iterable[Any], seen: dict[uuid.UUID, tuple[bool, int]]) -> list[Entry]:
    """Entries of the opened rows (id, first, last) that `seen` has a fingerprint for."""
    opened = []
    for client_id, first_name, last_name in rows:
        found = seen.get(client_id)
        if found is not None:
            opened.append(new_entry(client_id, first_name, last_name, *found))
    return opened


async def _retry_unreadable(
    db: AsyncSession, workspace_id: uuid.UUID, index: NameIndex, cache: ClientListCache
) -> NameIndex:
    """Names that failed to open are tried again on every request, as before the cache (a
    key this process lacked may have arrived since); those that open now join the index."""
    rows, failed = await _open(db, workspace_id, list(index.unreadable))
    opened = _opened(rows, index.unreadable)
    if not opened:
        return index
    entries = dict(index.entries)
    entries.update((entry[CLIENT], entry) for entry in opened)
    cache.stats.names_opened += 2 * len(opened)
    unreadable = {client_id: index.unreadable[client_id] for client_id in failed}
    refreshed = index.updated(index.version, index.key_versions, entries, opened, unreadable)
    cache.put(workspace_id, refreshed, replacing=index)
    return refreshed
