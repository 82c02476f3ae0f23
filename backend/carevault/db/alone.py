"""Statements that are a whole transaction by themselves.

PostgreSQL runs a statement sent outside a transaction block as a transaction of its own:
atomic, and committed before the statement's answer ends (a commit that fails, for instance
at the audit trail's commit fence, fails the statement). The hot request paths are made of
such statements: the caller's credentials are one SELECT; a note read and its audit event
are one statement (the event's INSERT inside it, see carevault.audit.service.AuditedRows).
Sent alone, each costs one round trip, where BEGIN … COMMIT around it would cost three.

`alone(db)` gives the request's connection set to send statements that way while it has
no transaction open, and inside the transaction once one is (changes waiting to be flushed
are flushed first, which opens it), so code that uses it is correct either way; only the
round trips differ. The switch is the driver connection's `autocommit` flag, set for the
block: it only tells SQLAlchemy's asyncpg adapter not to send BEGIN first, and costs no
round trip. Whether a transaction is open comes from asyncpg, which knows it from the
server's last answer. Both read SQLAlchemy's internals through carevault.db.fastpath; with
the fast path off (CAREVAULT_DB_FAST_PATH=false, or an assumption of it broken) `alone` runs
every statement in the session's transaction and the rest answers from the public API.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from carevault.db import fastpath
from carevault.db.pooler import transactions_only


@asynccontextmanager
async def alone(
    db: AsyncSession, statement: Any = None
) -> AsyncIterator[tuple[AsyncConnection, bool]]:
    """The request's connection, and whether statements sent in the block run alone (True)
    or in the request's open transaction (False). Run statements through the connection
    (Core) or through `db` (ORM): both use this connection. `statement`: the one to be
    run, for a session that routes reads to a replica (carevault.db.replica)."""
    if has_pending_changes(db):
        await db.flush()
    connection = await (
        db.connection()
        if statement is None
        else db.connection(bind_arguments={"clause": statement})
    )
    if not fastpath.enabled(connection.sync_engine):
        yield connection, False  # in the session's transaction, as SQLAlchemy runs it
        return
    raw = await connection.get_raw_connection()
    driver = raw.driver_connection
    if fastpath.driver_in_transaction(driver) or transactions_only(driver):
        # Behind a transaction pooler (carevault.db.pooler) a statement sent alone would run
        # without its deadlines: it opens the session's transaction instead.
        yield connection, False
        return
    with fastpath.statements_alone(raw.dbapi_connection):
        yield connection, True


async def has_work_to_commit(db: AsyncSession) -> bool:
    """Whether committing `db` would change anything: changes wait to be flushed, or a
    transaction is open on the server. A request whose statements all ran alone has
    nothing to commit, and its session is simply closed (which hands the connection back)."""
    if has_pending_changes(db):
        return True
    held = fastpath.session_connections(db)
    if held is None:  # the fast path is off: every statement ran in the transaction
        return db.in_transaction()
    # Every connection the session holds (a request reading from a replica holds two), and
    # no new checkout just to ask.
    return any(fastpath.server_in_transaction(connection) for connection in held)


def holds_connection(db: AsyncSession) -> bool:
    """Whether `db` has a connection checked out. Its `in_transaction()` is not that: adding
    an instance begins the session's transaction without touching the database (as the
    credential lookups on the direct pool do, see carevault.db.direct)."""
    held = fastpath.session_connections(db)
    # The fast path off: a transaction begun counts as holding one (the safe side).
    return db.in_transaction() if held is None else bool(held)


def has_pending_changes(db: AsyncSession) -> bool:
    session = db.sync_session
    if not session.identity_map:  # nothing persistent, so nothing changed or deleted
        return bool(session.new)
    return bool(session.dirty or session.new or session.deleted)


def has_open_transaction(connection: Connection) -> bool:
    """Whether a transaction is open on the server (SQLAlchemy's own `in_transaction` also
    counts one it began without having sent BEGIN yet); for the commit listener."""
    return fastpath.server_in_transaction(connection)
