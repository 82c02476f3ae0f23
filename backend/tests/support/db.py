"""The test PostgreSQL server and its databases: how to reach it, admin statements, a pool of
migrated databases for tests that commit (reset and reused), and raw SQL on an app's database."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import uuid
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from graphlib import CycleError, TopologicalSorter
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, urlsplit

import asyncpg

from carevault.crypto import KeyRing

LOCAL_SERVER_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


@dataclass(frozen=True)
class PgServer:
    """How to reach the test server: libpq DSNs for admin work, SQLAlchemy URLs for the app."""

    host: str
    port: int | None
    socket_dir: str | None
    user: str
    password: str | None
    kind: str

    def dsn(self, database: str) -> str:
        credentials = f"{self.user}:{self.password}" if self.password else self.user
        if self.socket_dir:
            return f"postgresql://{credentials}@/{database}?host={self.socket_dir}"
        return f"postgresql://{credentials}@{self.host}:{self.port}/{database}"

    def url(self, database: str) -> str:
        return self.dsn(database).replace("postgresql://", "postgresql+asyncpg://", 1)


def server_from_dsn(dsn: str, kind: str) -> PgServer:
    parts = urlsplit(dsn)
    socket_dir = parse_qs(parts.query).get("host", [None])[0]
    return PgServer(
        host=parts.hostname or "",
        port=parts.port or (None if socket_dir else 5432),
        socket_dir=socket_dir,
        user=parts.username or "postgres",
        password=parts.password,
        kind=kind,
    )


async def answers(dsn: str) -> bool:
    try:
        connection = await asyncpg.connect(dsn, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    await connection.close()
    return True


@contextmanager
def embedded_server(database: str) -> Iterator[str]:
    """An embedded PostgreSQL (its asyncpg URL) in a directory of its own, stopped and removed
    afterwards. Not under tmp_path: the library opens the directories above its data to its
    system user, and every pytest run of the same user (parallel runs, other checkouts) closes
    /tmp/pytest-of-<user> again, which would lock the server out of its own data."""
    from carevault.db.embedded import start_embedded, stop_embedded

    data_dir = Path(tempfile.mkdtemp(prefix="carevault-test-pg-"))
    try:
        yield start_embedded(data_dir, database=database)
    finally:
        stop_embedded(data_dir)
        shutil.rmtree(data_dir, ignore_errors=True)


async def admin_execute(server: PgServer, *statements: str) -> None:
    connection = await asyncpg.connect(server.dsn("postgres"))
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


NewDatabase = Callable[[], Awaitable[str]]

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
        state = TemplateState(emptied, tuple(seeded), triggers, sequences, fingerprint="")
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
        transaction, as the owner (DELETE rather than TRUNCATE: a TRUNCATE makes and removes
        a file per table and index, about 150 ms here against 1 ms)."""
        async with connection.transaction():
            await connection.execute("SET LOCAL lock_timeout = '10s'")
            for table, trigger in self.delete_triggers:
                await connection.execute(f"ALTER TABLE {table} DISABLE TRIGGER {trigger}")
            for table in self.emptied:
                await connection.execute(f"DELETE FROM {table}")
            for table, trigger in self.delete_triggers:
                await connection.execute(f"ALTER TABLE {table} ENABLE TRIGGER {trigger}")
            for sequence, value, is_called in self.sequences:
                await connection.execute(
                    "SELECT setval($1::regclass, $2, $3)", sequence, value, is_called
                )


class DatabasePool:
    """Migrated databases for tests that commit, reused from test to test. A database a test
    is done with is reset in the background: its other sessions are ended, its rows deleted and
    its sequences set back, and it is handed out again only when its fingerprint
    (schema, triggers, privileges, database settings, sequences, seeded rows) is the template's;
    otherwise (a test changed the schema, disabled a trigger, granted to a role, ...) it is
    dropped and the next test gets a fresh clone of the template. In threads with their own
    event loops, since the tests' loop stands still between async tests."""

    # Databases kept per pool (per xdist worker): one in use, one being reset meanwhile.
    KEEP = 2

    def __init__(self, server: PgServer, template: str) -> None:
        self.server = server
        self.template = template
        self.threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="test-databases")
        self.state: Future[TemplateState] = self.threads.submit(asyncio.run, self._read_template())
        self.ready: list[str] = []
        self.resets: list[Future[str | None]] = []
        self.owned = 0
        # Every database this pool created and has not dropped: all are dropped on close,
        # those a test still holds too.
        self.created: set[str] = set()
        self.errors: list[BaseException] = []

    async def _read_template(self) -> TemplateState:
        connection = await asyncpg.connect(self.server.dsn(self.template))
        try:
            return await TemplateState.read(connection)
        finally:
            await connection.close()

    def _create(self) -> str:
        name = f"cv_test_{uuid.uuid4().hex[:10]}"
        statement = f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"'
        asyncio.run(admin_execute(self.server, statement))
        self.created.add(name)
        return name

    async def take(self) -> str:
        """A migrated database holding no rows but the migrations' (the template's state)."""
        self.resets = [reset for reset in self.resets if not self._collect(reset)]
        while not self.ready and self.resets and self.owned >= self.KEEP:
            oldest = self.resets.pop(0)
            await asyncio.wrap_future(oldest)
            self._collect(oldest)
        if self.ready:
            return self.ready.pop(
                0
            )  # first given back, first out, whether resets run in the background or at once
        name = await asyncio.wrap_future(self.threads.submit(self._create))
        self.owned += 1
        return name

    def give_back(self, name: str) -> None:
        """Reset `name` for another test, or drop it when it cannot be: in the background
        under xdist (the fast loop), at once in a serial run (`make test`, CI), where no
        transaction of a reset then runs beside a test that reads the server's transaction
        ids (the audit sealer's rounds are bounded by the oldest running transaction)."""
        reset = self.threads.submit(self._recycle, name)
        if "PYTEST_XDIST_WORKER" not in os.environ:
            reset.result()
        self.resets.append(reset)

    def _collect(self, reset: Future[str | None]) -> bool:
        """Move a finished reset's database to `ready`; forget a dropped one."""
        if not reset.done():
            return False
        name = reset.result()
        if name is None:
            self.owned -= 1
        else:
            self.ready.append(name)
        return True

    def _recycle(self, name: str) -> str | None:
        try:
            reusable = asyncio.run(self._reset(name))
        except Exception:  # a read-only or dropped database, a lock held, a refused DELETE, ...
            reusable = False
        if reusable:
            return name
        try:
            self._drop(name)
        except Exception as error:
            self.errors.append(error)
        return None

    async def _reset(self, name: str) -> bool:
        """Reset `name`; whether it is the template's state again."""
        state = self.state.result()
        connection = await asyncpg.connect(self.server.dsn(name), timeout=10)
        try:
            await end_other_sessions(connection)
            await state.reset(connection)
            return await state.fingerprint_of(connection) == state.fingerprint
        finally:
            await connection.close()

    def _drop(self, name: str) -> None:
        asyncio.run(admin_execute(self.server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        self.created.discard(name)

    def close(self) -> None:
        """Drop every database of the pool, those still taken too; raise the first error,
        if any."""
        for reset in self.resets:
            reset.result()
        drops = [self.threads.submit(self._drop, name) for name in sorted(self.created)]
        self.threads.shutdown(wait=True)
        for drop in drops:
            drop.result()
        if self.errors:
            raise self.errors[0]


async def end_other_sessions(connection: asyncpg.Connection) -> None:
    """End every other session on the connection's database and wait until they are gone (a
    backend removes its temporary objects as it exits)."""
    others = (
        "SELECT pid FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND backend_type = 'client backend'"
    )
    async with asyncio.timeout(10):
        while pids := [row["pid"] for row in await connection.fetch(others)]:
            for pid in pids:
                await connection.execute("SELECT pg_terminate_backend($1)", pid)
            await asyncio.sleep(0.01)


class RingHolder:
    """A ring source a test can swap, the way a refresh swaps the manager's ring."""

    def __init__(self, ring: KeyRing) -> None:
        self.ring = ring


class HasDatabase(Protocol):
    """Anything that names an app database by its SQLAlchemy URL (an ApiContext, say)."""

    @property
    def database_url(self) -> str: ...


def libpq_dsn(database_url: str) -> str:
    """asyncpg's DSN for an app's SQLAlchemy URL."""
    return database_url.replace("+asyncpg", "", 1)


async def sql(app: HasDatabase, query: str, *args: object) -> list[asyncpg.Record]:
    """Rows of `query` on the app's database, on a connection of its own (outside the app)."""
    connection = await asyncpg.connect(libpq_dsn(app.database_url))
    try:
        rows: list[asyncpg.Record] = await connection.fetch(query, *args)
        return rows
    finally:
        await connection.close()
