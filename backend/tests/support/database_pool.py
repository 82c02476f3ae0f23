"""The pool of migrated databases for tests that commit: reset and handed out again, with the
API engines the tests' apps ran on kept open on them."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from graphlib import CycleError, TopologicalSorter
from typing import Any

import asyncpg
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import QueuePool

from carevault.crypto import PhiBackend
from carevault.db import direct
from carevault.db.deadlines import Deadlines
from carevault.db.engine import close_api_engine, open_api_engine
from tests.support.db import PgServer, admin_execute

# What a reset database must share with the template for the next test to get it: the
# database's own settings, every user object's definition, owner and privileges (objects made
# after initdb have OIDs from 16384), and the state of every sequence. Excluded: what writes
# and vacuum change (relfilenode, page counts, statistics) and the empty pg_temp_N schemas
# that sessions leave behind.
SCHEMA_FINGERPRINT = """
SELECT md5(concat_ws(' | ',
  (SELECT concat_ws(',', datdba, encoding, datcollate, datctype, datistemplate, datallowconn,
                    datconnlimit, dattablespace, datacl)
     FROM pg_database WHERE datname = current_database()),
  (SELECT string_agg(concat_ws(',', setrole, setconfig), ';' ORDER BY setrole)
     FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
    WHERE d.datname = current_database()),
  (SELECT string_agg(concat_ws(',', classid, objid, objsubid, refclassid, refobjid, deptype),
                     ';' ORDER BY classid, objid, objsubid, refclassid, refobjid, deptype)
     FROM pg_shdepend s JOIN pg_database d ON d.oid = s.dbid
    WHERE d.datname = current_database()),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_namespace x
    WHERE nspname !~ '^pg_(toast_)?temp_'),
  (SELECT string_agg(concat_ws(',', oid, relname, relnamespace, reltype, reloftype, relowner,
                               relam, reltablespace, reltoastrelid, relpersistence, relkind,
                               relnatts, relchecks, relhasrules, relhastriggers, relrowsecurity,
                               relforcerowsecurity, relispopulated, relreplident,
                               relispartition, relacl, reloptions, relpartbound),
                     ';' ORDER BY oid)
     FROM pg_class),
  (SELECT string_agg(x::text, ';' ORDER BY attrelid, attnum) FROM pg_attribute x
    WHERE attrelid >= 16384),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_attrdef x WHERE oid >= 16384),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_constraint x WHERE oid >= 16384),
  (SELECT string_agg(x::text, ';' ORDER BY indexrelid) FROM pg_index x
    WHERE indexrelid >= 16384),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_trigger x),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_proc x
    WHERE oid >= 16384 OR proacl IS NOT NULL),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_type x WHERE oid >= 16384),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_extension x),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_policy x),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_rewrite x WHERE oid >= 16384),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_default_acl x),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_event_trigger x),
  (SELECT string_agg(x::text, ';' ORDER BY seqrelid) FROM pg_sequence x),
  (SELECT string_agg(x::text, ';' ORDER BY inhrelid, inhseqno) FROM pg_inherits x),
  (SELECT string_agg(x::text, ';' ORDER BY oid) FROM pg_largeobject_metadata x),
  (SELECT string_agg(concat_ws(',', classid, objid, objsubid, refclassid, refobjid,
                               refobjsubid, deptype),
                     ';' ORDER BY classid, objid, objsubid, refclassid, refobjid, refobjsubid)
     FROM pg_depend WHERE objid >= 16384 OR refobjid >= 16384),
  (SELECT string_agg(gid, ';' ORDER BY gid) FROM pg_prepared_xacts
    WHERE database = current_database()),
  (SELECT string_agg(concat_ws(',', schemaname, sequencename, last_value), ';'
                     ORDER BY schemaname, sequencename)
     FROM pg_sequences)
))
"""

# The template's tables, the foreign keys between them (a reset deletes referencing rows
# first), the user triggers that act on DELETE (the audit tables' append-only guards, the
# client list's change counter) and the sequences with the values they start from.
USER_TABLES = """
SELECT c.oid, format('%I.%I', n.nspname, c.relname) AS name
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname !~ '^pg_(toast_)?temp_'
ORDER BY 2
"""
FOREIGN_KEYS = "SELECT conrelid, confrelid FROM pg_constraint WHERE contype = 'f'"
DELETE_TRIGGERS = """
SELECT tgrelid, quote_ident(tgname) AS name
FROM pg_trigger WHERE NOT tgisinternal AND (tgtype & 8) <> 0
ORDER BY 1, 2
"""
SEQUENCES = """
SELECT format('%I.%I', schemaname, sequencename) AS name, last_value, start_value
FROM pg_sequences ORDER BY 1
"""


@dataclass(frozen=True)
class TemplateState:
    """What a database must look like to be handed to a test (the template's fingerprint), and
    how a used one gets back there: the tables to empty, referencing ones first; the DELETE
    triggers to hold off meanwhile; the sequences' values. Tables the migrations seed rows
    into are left alone (their rows are part of the fingerprint)."""

    emptied: tuple[str, ...]
    seeded: tuple[str, ...]
    delete_triggers: tuple[tuple[str, str], ...]
    sequences: tuple[tuple[str, int, bool], ...]
    fingerprint: str
    superuser: bool = False  # the pool's role: then triggers are held off without DDL

    @staticmethod
    async def read_from(dsn: str) -> TemplateState:
        connection = await asyncpg.connect(dsn)
        try:
            return await TemplateState.read(connection)
        finally:
            await connection.close()

    @staticmethod
    async def read(connection: asyncpg.Connection) -> TemplateState:
        names: dict[int, str] = {}
        seeded: list[str] = []
        for row in await connection.fetch(USER_TABLES):
            if await connection.fetchval(f"SELECT EXISTS (SELECT FROM {row['name']})"):
                seeded.append(row["name"])
            else:
                names[row["oid"]] = row["name"]
        referencing: dict[str, set[str]] = {name: set() for name in names.values()}
        for row in await connection.fetch(FOREIGN_KEYS):
            child, parent = names.get(row["conrelid"]), names.get(row["confrelid"])
            if child and parent and child != parent:
                referencing[parent].add(child)
        try:
            emptied = tuple(TopologicalSorter(referencing).static_order())
        except CycleError:  # then a DELETE may refuse, and a fresh clone replaces the database
            emptied = tuple(referencing)
        triggers = tuple(
            (names[row["tgrelid"]], row["name"])
            for row in await connection.fetch(DELETE_TRIGGERS)
            if row["tgrelid"] in names
        )
        sequences = tuple(
            (row["name"], row["last_value"] or row["start_value"], row["last_value"] is not None)
            for row in await connection.fetch(SEQUENCES)
        )
        superuser = await connection.fetchval(
            "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"
        )
        state = TemplateState(
            emptied, tuple(seeded), triggers, sequences, fingerprint="", superuser=superuser
        )
        return replace(state, fingerprint=await state.fingerprint_of(connection))

    async def fingerprint_of(self, connection: asyncpg.Connection) -> str:
        """The schema's fingerprint and the seeded tables' rows."""
        seeded = [
            f"(SELECT md5(string_agg(t::text, ';' ORDER BY t::text)) FROM {table} t)"
            for table in self.seeded
        ]
        schema = await connection.fetchval(SCHEMA_FINGERPRINT)
        rows = await connection.fetchval(f"SELECT concat_ws(' | ', {', '.join(seeded) or 'NULL'})")
        return f"{schema} {rows}"

    async def reset(self, connection: asyncpg.Connection) -> None:
        """Delete every row the template does not hold and set the sequences back, in one
        transaction sent in one round trip, as the owner (DELETE rather than TRUNCATE: a
        TRUNCATE makes and removes a file per table and index, about 150 ms here against
        1 ms). A superuser holds the DELETE triggers off with the replica role; anyone else
        disables and enables them, which changes catalog rows, and every session kept on
        the database then reloads what it cached of those tables."""
        if self.superuser:
            hold: list[str] = ["SET LOCAL session_replication_role = replica"]
            release: list[str] = []
        else:
            hold = [f"ALTER TABLE {t} DISABLE TRIGGER {g}" for t, g in self.delete_triggers]
            release = [f"ALTER TABLE {t} ENABLE TRIGGER {g}" for t, g in self.delete_triggers]
        script = [
            "BEGIN",
            "SET LOCAL lock_timeout = '10s'",
            *hold,
            *(f"DELETE FROM {table}" for table in self.emptied),
            *release,
            *(
                f"SELECT setval({_literal(sequence)}::regclass, {value:d}, {is_called})"
                for sequence, value, is_called in self.sequences
            ),
            "COMMIT",
        ]
        try:
            await connection.execute(";\n".join(script))
        except BaseException:
            if connection.is_in_transaction():
                await connection.execute("ROLLBACK")
            raise


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


# The API engines a pool keeps open: at most this many, each keeping at most this many
# connections of either kind, so a worker holds a handful of server processes between tests.
WARM_ENGINES = 2
WARM_CONNECTIONS = 2


@dataclass(frozen=True)
class EngineKind:
    """What an API engine is built for: the deadlines it enforces and the PHI backend its
    statements are compiled for (an engine caches compiled SQL)."""

    deadlines: Deadlines
    backend: PhiBackend
    fast_path: bool = True  # CAREVAULT_DB_FAST_PATH: without it, no direct pool


@dataclass(eq=False)
class WarmEngine:
    """An API engine (`open_api_engine`) kept from one test's app to the next on the same
    database, and the server processes it has connected to."""

    engine: AsyncEngine
    kind: EngineKind
    server_pids: set[int] = field(default_factory=set)
    in_use: bool = False
    listeners: tuple[int, ...] = ()

    @staticmethod
    async def open(url: str, kind: EngineKind) -> WarmEngine:
        engine = await open_api_engine(url, kind.deadlines, fast_path=kind.fast_path)
        warm = WarmEngine(engine, kind)

        def on_connect(dbapi_connection: Any, _record: Any) -> None:
            warm.server_pids.add(dbapi_connection.driver_connection.get_server_pid())

        def on_direct_statement(connection: Any, _sql: str) -> None:
            warm.server_pids.add(connection.get_server_pid())

        event.listen(engine.sync_engine, "connect", on_connect)
        pool = direct.pool_of(engine)
        assert (pool is not None) is kind.fast_path
        if pool is not None:
            pool.observers.append(on_direct_statement)
        warm.listeners = warm._listener_counts()
        return warm

    def _listener_counts(self) -> tuple[int, ...]:
        sync = self.engine.sync_engine
        dispatches: tuple[Any, ...] = (sync.dispatch, sync.pool.dispatch)
        return tuple(
            len(getattr(dispatch, name))
            for dispatch in dispatches
            for name in dispatch._event_names
        )

    def reusable(self) -> bool:
        """Whether the next test can have it as a new app would: no connection left checked
        out, no listener or observer a test added, no more connections kept than a few."""
        pool = direct.pool_of(self.engine)
        queue_pool = self.engine.sync_engine.pool
        assert isinstance(queue_pool, QueuePool)
        direct_pool_kept = (
            pool is None
            if not self.kind.fast_path
            else pool is not None
            and len(pool.observers) == 1
            and pool._pool.get_size() <= WARM_CONNECTIONS
        )
        return (
            not self.in_use
            and direct_pool_kept
            and queue_pool.checkedout() == 0
            and queue_pool.checkedin() <= WARM_CONNECTIONS
            and self._listener_counts() == self.listeners
        )


@dataclass(eq=False)
class PooledDatabase:
    """A database of the pool: its name, the connection its resets run on (kept open, so
    each reset finds the catalogs it reads in that server process's caches) and the API
    engines kept on it."""

    name: str
    admin: asyncpg.Connection | None = None
    engines: list[WarmEngine] = field(default_factory=list)

    async def close_engines(self, keep: int = 0) -> None:
        """Close every engine but the `keep` most recently used ones."""
        closing, self.engines = (
            self.engines[: len(self.engines) - keep],
            self.engines[len(self.engines) - keep :],
        )
        for warm in closing:
            await close_api_engine(warm.engine)

    async def close(self) -> None:
        await self.close_engines()
        if self.admin is not None:
            await self.admin.close(timeout=5)
            self.admin = None


class DatabasePool:
    """Migrated databases for tests that commit, reused from test to test.

    A database a test is done with is reset at once: its other sessions are ended, its rows
    deleted and its sequences set back, and it is handed out again (the most recently reset
    first) only when its fingerprint (schema, triggers, privileges, database settings,
    sequences, seeded rows) is the template's; otherwise (a test changed the schema,
    disabled a trigger, granted to a role, ...) it is dropped and the next test gets a fresh
    clone of the template.

    A new server process costs PostgreSQL far more than most tests' statements do (starting
    it, then filling its catalog caches for every table, function and type it touches). So
    a database keeps its reset connection, and the API engines the tests' apps ran on
    (`api_engine`): the next app on that database and for the same deadlines and PHI backend
    gets the same engine, with its connections, instead of opening its own. Those
    connections are idle between tests (the app is stopped and nothing is checked out), and
    are the only sessions a reset leaves. An engine a test changed (a listener added, a
    connection left out) is closed instead."""

    def __init__(self, server: PgServer, template: str) -> None:
        self.server = server
        self.template = template
        self.state: TemplateState | None = None
        self.ready: list[PooledDatabase] = []
        self.taken: dict[str, PooledDatabase] = {}
        _POOLS.add(self)

    async def take(self) -> str:
        """A migrated database holding no rows but the migrations' (the template's state)."""
        if self.ready:
            database = self.ready.pop()
        else:
            database = PooledDatabase(f"cv_test_{uuid.uuid4().hex[:10]}")
            statement = f'CREATE DATABASE "{database.name}" TEMPLATE "{self.template}"'
            await admin_execute(self.server, statement)
        self.taken[database.name] = database
        return database.name

    async def give_back(self, name: str) -> None:
        """Reset `name` for another test, or drop it when it cannot be."""
        database = self.taken.pop(name)
        for warm in [warm for warm in database.engines if not warm.reusable()]:
            database.engines.remove(warm)
            await close_api_engine(warm.engine)
        try:
            reusable = await self._reset(database)
        except Exception:  # a read-only or dropped database, a lock held, a refused DELETE, ...
            reusable = False
        if not reusable:
            await self._drop(database)
            return
        self.ready.append(database)
        # Engines on other databases than this most recent one are closed past the limit.
        for other in self.ready[:-1]:
            await other.close_engines()
        await database.close_engines(keep=WARM_ENGINES)

    async def _reset(self, database: PooledDatabase) -> bool:
        """Reset `database`; whether it is the template's state again."""
        if self.state is None:
            self.state = await TemplateState.read_from(self.server.dsn(self.template))
        if database.admin is None or database.admin.is_closed():
            database.admin = await asyncpg.connect(self.server.dsn(database.name), timeout=10)
        keep = {pid for warm in database.engines for pid in warm.server_pids}
        await end_other_sessions(database.admin, keep=keep)
        await self.state.reset(database.admin)
        return await self.state.fingerprint_of(database.admin) == self.state.fingerprint

    def url_of(self, name: str) -> str:
        return self.server.url(name)

    async def _drop(self, database: PooledDatabase) -> None:
        try:
            await database.close()
        finally:
            statement = f'DROP DATABASE IF EXISTS "{database.name}" WITH (FORCE)'
            await admin_execute(self.server, statement)

    async def close(self) -> None:
        """Drop every database of the pool, those still taken too; then raise the first
        error, if any (one failed drop leaves the others to be dropped)."""
        _POOLS.discard(self)
        databases = [*self.ready, *self.taken.values()]
        self.ready.clear()
        self.taken.clear()
        errors: list[Exception] = []
        for database in databases:
            try:
                await self._drop(database)
            except Exception as error:
                errors.append(error)
        if errors:
            raise errors[0]

    def _database_at(self, url: str) -> PooledDatabase | None:
        for name, database in self.taken.items():
            if self.server.url(name) == url:
                return database
        return None


_POOLS: set[DatabasePool] = set()


@asynccontextmanager
async def api_engine(url: str, kind: EngineKind) -> AsyncIterator[AsyncEngine | None]:
    """The pool's API engine for `url` (a database a test took from a pool) and `kind`, kept
    for the next app when the block ends; None for any other database, or when an app
    already runs on that engine, and the app then opens its own."""
    database = next(
        (found for pool in _POOLS if (found := pool._database_at(url)) is not None), None
    )
    if database is None:
        yield None
        return
    warm = next((warm for warm in database.engines if warm.kind == kind and not warm.in_use), None)
    if warm is None:
        warm = await WarmEngine.open(url, kind)
    else:
        database.engines.remove(warm)
    database.engines.append(warm)  # most recently used last
    warm.in_use = True
    try:
        yield warm.engine
    finally:
        warm.in_use = False


async def end_other_sessions(
    connection: asyncpg.Connection, keep: Collection[int] = frozenset()
) -> None:
    """End every other session on the connection's database but the idle ones among `keep`
    (holding no lock or transaction), and wait until they are gone (a backend removes its
    temporary objects as it exits)."""
    others = (
        "SELECT pid FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND backend_type = 'client backend' "
        "AND NOT (pid = ANY($1::int[]) AND state = 'idle' "
        "         AND NOT EXISTS (SELECT FROM pg_locks l WHERE l.pid = pg_stat_activity.pid))"
    )
    async with asyncio.timeout(10):
        while pids := [row["pid"] for row in await connection.fetch(others, list(keep))]:
            for pid in pids:
                await connection.execute("SELECT pg_terminate_backend($1)", pid)
            await asyncio.sleep(0.01)
