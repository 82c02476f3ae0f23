"""Deadlines enforced down to the database, all derived from one request deadline.

A request gets `request` seconds (CAREVAULT_REQUEST_TIMEOUT_SECONDS). Every database wait it
can run into is bounded by a share of that budget:

- the server cancels any one statement after `statement` seconds (statement_timeout);
- the client gives up on any one command after `command` seconds (asyncpg command_timeout),
  which covers a database that is frozen or partitioned and so never answers at all;
- a connection attempt gives up after `connect`, waiting for a pooled one after `pool`;
- the server ends a session left idle inside a transaction after `idle_in_transaction`, so a
  stalled worker cannot hold locks (or an uncommitted write) for longer than a request lives;
- no new statement starts once the request's own deadline has passed.

A commit that times out on the client is the one ambiguous case: the COMMIT may already sit
in the server's socket buffer and run when the server wakes up. So just before every commit
the app tells the server an absolute deadline (`commit_fence` from now, but never later than
`clock_margin` before the request's own deadline), and a deferred trigger on audit_events
(every API transaction writes one) refuses to commit after it. The client waits `command`
seconds for the commit, and the whole request at most `request` seconds (see
carevault.api.deadline), both longer than the fence, so "failed" always means "not
stored"; the difference (`clock_margin`) absorbs clock skew between the app and database
hosts. A commit that would have less than nothing left of its fence is not attempted.

The audit append sets the fence inside its own INSERT (`commit_fence`), so a request's
commit needs no extra round trip; a transaction without an audit event gets its fence from
a `set_config` statement at commit, as before. A fence set at the audit append, before
COMMIT, is earlier than one set at COMMIT would be, never later: still inside the window
the client waits (`command` from the COMMIT, which is sent after the append).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

import asyncpg
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine, ExceptionContext
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import ConnectionPoolEntry

from carevault.db.alone import has_open_transaction
from carevault.db.fastpath import ARGUMENT_ERRORS
from carevault.db.pooler import Pooler, connect_args, direct_connect_args

COMMIT_DEADLINE_SETTING = "carevault.commit_deadline"

# Monotonic time after which the current request starts no new statement (None: no request).
_request_deadline: ContextVar[float | None] = ContextVar("carevault_request_deadline", default=None)


class DeadlineExceeded(Exception):
    """The request's deadline passed before its next database statement."""


@dataclass(frozen=True)
class Deadlines:
    request: float

    @property
    def statement(self) -> float:
        return self.request * 0.5

    @property
    def command(self) -> float:
        return self.request * 0.6

    @property
    def commit_fence(self) -> float:
        return self.request * 0.5

    @property
    def clock_margin(self) -> float:
        """How long before the client gives up the server must stop accepting the commit."""
        return self.command - self.commit_fence

    def fence_seconds(self, left: float | None) -> float:
        """The commit fence from now, for a request with `left` seconds of its budget."""
        if left is None:
            return self.commit_fence
        return min(self.commit_fence, left - self.clock_margin)

    @property
    def connect(self) -> float:
        return self.request * 0.25

    @property
    def pool(self) -> float:
        return self.request * 0.25

    @property
    def idle_in_transaction(self) -> float:
        return self.request

    def server_settings(self) -> dict[str, str]:
        return {
            "statement_timeout": str(_ms(self.statement)),
            "idle_in_transaction_session_timeout": str(_ms(self.idle_in_transaction)),
        }

    def connect_args(self, pooler: Pooler = Pooler.NONE, *, direct: bool = False) -> dict[str, Any]:
        """asyncpg.connect() arguments: client-side timeouts and the server's own. Behind a
        transaction pooler the server's are SET LOCAL at every BEGIN instead of sent at
        startup (carevault.db.pooler); `direct`: for asyncpg itself, not SQLAlchemy."""
        settings = self.server_settings()
        pooled = (direct_connect_args if direct else connect_args)(pooler, settings)
        return {"timeout": self.connect, "command_timeout": self.command, **pooled}


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


@contextmanager
def request_deadline(seconds: float) -> Iterator[None]:
    token = _request_deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _request_deadline.reset(token)


def remaining() -> float | None:
    """Seconds left of the current request's budget; None outside a request."""
    deadline = _request_deadline.get()
    return None if deadline is None else deadline - time.monotonic()


# connection.info keys: the engine's Deadlines, and "this transaction's fence is already set".
_DEADLINES = "carevault_deadlines"
_FENCED = "carevault_commit_fenced"


def check_deadline() -> None:
    """Refuse to start a statement once the request's deadline has passed."""
    left = remaining()
    if left is not None and left <= 0:
        raise DeadlineExceeded("the request deadline passed")


def commit_fence(connection: Connection) -> str | None:
    """The commit fence for a statement that sets it itself (the audit append does, with
    set_config inside its INSERT), sparing the commit a round trip of its own; None on an
    engine without deadlines. Set earlier than at COMMIT, the fence is only ever earlier,
    which is the safe side: see the module docstring."""
    deadlines: Deadlines | None = connection.info.get(_DEADLINES)
    if deadlines is None:
        return None
    fence = _fence(deadlines)
    # The transaction itself, not a flag: a marker left by a rolled-back transaction never
    # spares a later one its fence.
    connection.info[_FENCED] = connection.get_transaction()
    return fence


def alone_fence(engine: Engine) -> str | None:
    """The commit fence for a statement sent alone (carevault.db.alone), which commits as
    it ends: with the fence inside it, a statement the client gave up on cannot commit
    later either. None on an engine without deadlines."""
    deadlines = _ENGINE_DEADLINES.get(engine)
    return None if deadlines is None else _fence(deadlines)


def _fence(deadlines: Deadlines) -> str:
    # An absolute wall-clock time: the server compares it with its own clock at COMMIT.
    # It never reaches past the request's deadline, when the client is told "failed".
    span = deadlines.fence_seconds(remaining())
    if span <= 0:
        raise DeadlineExceeded("too little of the request deadline is left to commit")
    return f"{time.time() + span:.3f}"


_ENGINE_DEADLINES: WeakKeyDictionary[Engine, Deadlines] = WeakKeyDictionary()


def connection_broken(error: BaseException) -> bool:
    """Whether a connection that raised `error` must be closed rather than used again: a
    timeout or socket error, any error of asyncpg's own (its connection closed or in a state
    it cannot leave, such as "cannot switch to state 12; another operation (2) is in
    progress" after the server ended the session), or the server's own word that the
    session is over (SQLSTATE class 08, 57P01-57P05). A value asyncpg refused to encode
    (its argument DataError) leaves the connection as it was."""
    if isinstance(error, ARGUMENT_ERRORS):
        return False
    if isinstance(error, TimeoutError | OSError | asyncpg.InterfaceError):
        return True
    if isinstance(error, asyncpg.InternalClientError):
        return True
    state = getattr(error, "sqlstate", None)
    return isinstance(state, str) and (state.startswith("08") or state.startswith("57P0"))


def deadlines_of(engine: AsyncEngine) -> Deadlines | None:
    """The deadlines `install` gave `engine`, if any."""
    return _ENGINE_DEADLINES.get(engine.sync_engine)


def install(engine: AsyncEngine, deadlines: Deadlines) -> None:
    """Check the request deadline before each statement; fence every commit."""
    _ENGINE_DEADLINES[engine.sync_engine] = deadlines

    def remember_deadlines(_: Any, record: ConnectionPoolEntry) -> None:
        record.info[_DEADLINES] = deadlines

    def before_execute(connection: Connection, *_: Any) -> None:
        check_deadline()

    def fence_commit(connection: Connection) -> None:
        fenced = connection.info.pop(_FENCED, None)
        if fenced is not None and fenced is connection.get_transaction():
            return  # set by the transaction's audit append (commit_fence above)
        if not has_open_transaction(connection):
            return  # nothing to commit: every statement ran alone (carevault.db.alone)
        connection.exec_driver_sql(
            "SELECT set_config($1, $2, true)", (COMMIT_DEADLINE_SETTING, _fence(deadlines))
        )

    def on_error(context: ExceptionContext) -> None:
        # A command that timed out leaves the connection mid-conversation: close it now,
        # instead of SQLAlchemy first waiting a second full timeout for a ROLLBACK. The same
        # for a connection the server ended or the driver no longer trusts.
        if connection_broken(context.original_exception):
            context.is_disconnect = True

    event.listen(engine.sync_engine, "connect", remember_deadlines)
    event.listen(engine.sync_engine, "before_cursor_execute", before_execute)
    event.listen(engine.sync_engine, "commit", fence_commit)
    event.listen(engine.sync_engine, "handle_error", on_error)
