"""The fence: the only module that reads SQLAlchemy's or asyncpg's internals.

The hot request paths save round trips and CPU by relying on how SQLAlchemy 2.1 and asyncpg
0.32 work inside (carevault.db.alone, carevault.db.direct; docs/explanation/architecture.md,
"The fast path and its fence"). Everything they rely on beyond the libraries' public APIs is here,
behind plain functions, and listed below by name. tests/integration/test_fastpath_contract.py
checks each against the installed versions and PostgreSQL, and a failure there names the
assumption that broke; pyproject.toml pins the ranges checked.

The fast path (its assumptions F1-F6):

- F1 session-connections: `SessionTransaction._connections` (no public accessor) maps each
  bind a session's transaction has checked out, and its engine, to a tuple whose first item
  is the `Connection`; it is empty until the transaction checks one out.
- F2 adapter-autocommit: the DBAPI connection SQLAlchemy's asyncpg dialect adapts
  (`AsyncConnection.get_raw_connection().dbapi_connection`, an AsyncAdapt_asyncpg_connection)
  has a settable `autocommit` property; while it is True the adapter sends no BEGIN before a
  statement, so PostgreSQL runs each statement as a transaction of its own, and setting it
  back to False restores the engine's isolation level.
- F3 driver-transaction-state: `driver_connection` is the asyncpg `Connection`, whose
  `is_in_transaction()` tells whether the server holds a transaction open (from its last
  answer, no round trip).
- F4 compiled-positional: a Core statement compiled with the engine's dialect is an
  `SQLCompiler` whose SQL has asyncpg's `$1 … $n` placeholders in the order of `positiontup`
  (bound parameter names), with `bind_names`, `post_compile_params`, `escaped_bind_names` and
  `construct_params(_check=False)` as SQLAlchemy's own execution uses them.
- F5 compiled-result-columns: `SQLCompiler._result_columns` lists the columns a statement
  returns, in order, each with its `keyname` and the `type` whose result processor applies.
- F6 json-codecs: the asyncpg dialect's `setup_asyncpg_json_codec` and
  `setup_asyncpg_jsonb_codec` install its json and jsonb codecs on the asyncpg connection
  they find at `._connection` of the object they are given; and `asyncpg.create_pool`
  takes `reset` (asyncpg 0.30 and later).

Elsewhere (no setting switches these; each has a safe answer of its own when it fails):

- G1 argument-error: for a value it cannot encode ("invalid input for query argument"),
  asyncpg raises before sending anything, and leaves the connection as it was, either
  `asyncpg.exceptions.DataError` (a PostgresError of SQLSTATE 22000: what asyncpg 0.32
  raises) or the client-side `asyncpg.exceptions._base.DataError` (an InterfaceError, found
  by its private module, which asyncpg 0.32 no longer raises for it). The private one gone:
  only the public one is recognised.
- G2 select-locking: `Select._for_update_arg` is None unless the SELECT locks rows (FOR
  UPDATE/SHARE). Missing: every SELECT counts as locking, so none goes to a read replica.
- G3 begin-through-execute: asyncpg's `Transaction.start()` sends its BEGIN through
  `Connection.execute()` without arguments, where carevault.db.pooler adds the deadlines'
  SET LOCAL behind a transaction pooler (checked by tests/integration/test_pooler.py too).

CAREVAULT_DB_FAST_PATH=false (carevault.config) switches F1-F6 off for every engine
CareVault opens: statements then run in the session's transaction through SQLAlchemy's
public API, the direct pool is never opened, and nothing above F1-F6 is read. The same
happens by itself when the check at the first engine (`register`) finds an assumption
broken, or one breaks at run time: logged once (the assumption's name and the libraries'
versions, nothing else), and requests go on, slower, never wrong.
"""

from __future__ import annotations

import inspect
import logging
import os
from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

import asyncpg
import sqlalchemy
from sqlalchemy import Connection, Engine, Integer, bindparam, column, literal, select, table
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session, SessionTransaction
from sqlalchemy.sql import Select
from sqlalchemy.sql.compiler import SQLCompiler

log = logging.getLogger(__name__)

FAST_PATH_VARIABLE = "CAREVAULT_DB_FAST_PATH"

# Names the assumptions go by in the log, the tests and the docs.
ASSUMPTIONS = {
    "F1": "session-connections",
    "F2": "adapter-autocommit",
    "F3": "driver-transaction-state",
    "F4": "compiled-positional",
    "F5": "compiled-result-columns",
    "F6": "json-codecs",
    "G1": "argument-error",
    "G2": "select-locking",
    "G3": "begin-through-execute",
}

_TRUE = frozenset({"", "1", "true", "t", "yes", "y", "on"})
_FALSE = frozenset({"0", "false", "f", "no", "n", "off"})


def configured_fast_path() -> bool:
    """CAREVAULT_DB_FAST_PATH, default on (Settings validates the same variable at start;
    engines opened by commands read it here, so every engine agrees)."""
    value = os.environ.get(FAST_PATH_VARIABLE, "").strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{FAST_PATH_VARIABLE} must be true or false")


# --- on or off, per engine ----------------------------------------------------------------

_ENGINES: WeakKeyDictionary[Engine, bool] = WeakKeyDictionary()
# Assumptions found broken in this process: id -> what was found (never a value).
_broken: dict[str, str] = {}
_checked = False


def register(engine: Engine, wanted: bool) -> bool:
    """Record whether `engine` may take the fast path; the first call checks the assumptions
    (without a database). Answers whether it will."""
    global _checked
    if wanted and not _checked:
        _checked = True
        for assumption, problem in check(engine.dialect).items():
            _break(assumption, problem)
    _ENGINES[engine] = wanted
    return enabled(engine)


def enabled(bind: Engine | Connection | None) -> bool:
    """Whether statements on `bind` may take the fast path: its engine was opened with it on
    (an engine CareVault did not open: CAREVAULT_DB_FAST_PATH) and no F assumption broke."""
    if _fast_path_broken():
        return False
    engine = bind.engine if isinstance(bind, Connection) else bind
    wanted = _ENGINES.get(engine) if engine is not None else None
    return configured_fast_path() if wanted is None else wanted


def requested(engine: Engine) -> bool | None:
    """Whether `engine` was opened with the fast path asked for (None: not by CareVault)."""
    return _ENGINES.get(engine)


def broken() -> dict[str, str]:
    """The assumptions found broken in this process (id: what was found)."""
    return dict(_broken)


def _fast_path_broken() -> bool:
    return any(assumption.startswith("F") for assumption in _broken)


def _break(assumption: str, problem: str) -> None:
    if assumption in _broken:
        return
    _broken[assumption] = problem
    log.warning(
        "database fast path: assumption %s %s does not hold (%s) with SQLAlchemy %s and "
        "asyncpg %s; %s (docs/explanation/architecture.md, the fast path and its fence)",
        assumption,
        ASSUMPTIONS[assumption],
        problem,
        sqlalchemy.__version__,
        asyncpg.__version__,
        "statements go through SQLAlchemy's public API instead"
        if assumption.startswith("F")
        else "its safe answer applies",
    )


# --- F1, F3: what the session holds -------------------------------------------------------


def session_connections(db: AsyncSession) -> list[Connection] | None:
    """The connections `db`'s transaction has checked out (none: no transaction, or none
    checked out yet); None when the fast path is off for `db`, and the caller answers from
    the public API instead."""
    if not enabled(db.sync_session.bind):
        return None
    transaction = db.sync_session.get_transaction()
    if transaction is None:
        return []
    try:
        return _transaction_connections(transaction)
    except (AttributeError, TypeError, IndexError) as exc:
        _break("F1", type(exc).__name__)
        return None


def _transaction_connections(transaction: SessionTransaction) -> list[Connection]:
    held = transaction._connections
    # Each connection appears twice (under itself and under its engine).
    return list({id(entry[0]): entry[0] for entry in held.values()}.values())


def server_in_transaction(connection: Connection) -> bool:
    """Whether the server holds a transaction open on `connection` (F3); asked of asyncpg,
    without a round trip. A driver without the check counts as in one: the safe side."""
    check = getattr(connection.connection.driver_connection, "is_in_transaction", None)
    return True if check is None else bool(check())


def driver_in_transaction(driver_connection: Any) -> bool:
    """The same for an asyncpg connection itself."""
    check = getattr(driver_connection, "is_in_transaction", None)
    return True if check is None else bool(check())


# --- F2: a statement sent alone -----------------------------------------------------------


@contextmanager
def statements_alone(dbapi_connection: Any) -> Iterator[None]:
    """Statements sent on `dbapi_connection` (SQLAlchemy's adapted asyncpg connection)
    during the block run alone, with no BEGIN (F2)."""
    dbapi_connection.autocommit = True
    try:
        yield
    finally:
        dbapi_connection.autocommit = False


# --- F4, F5: a Core statement as asyncpg takes it ------------------------------------------

_REQUIRED = object()


@dataclass(frozen=True)
class AsyncpgStatement:
    """A statement as asyncpg takes it: SQL text, for each positional parameter the key its
    value comes by (or the statement's own value) and its bind processor, and how to turn a
    record into a row."""

    statement: Any  # kept alive: compiled statements are cached by identity
    sql: str
    parameters: tuple[tuple[str, Any, Callable[[Any], Any] | None], ...]
    results: tuple[Callable[[Any], Any] | None, ...]
    row: type[tuple[Any, ...]]

    def arguments(self, values: Mapping[str, Any]) -> list[Any]:
        arguments = []
        for key, own, process in self.parameters:
            if key in values:
                value = values[key]
            elif own is _REQUIRED:
                raise KeyError(f"no value for the bound parameter {key!r}")
            else:
                value = own
            arguments.append(value if process is None else process(value))
        return arguments

    def rows(self, records: Sequence[asyncpg.Record]) -> list[Any]:
        processors = self.results
        return [
            self.row(
                *(
                    value if process is None or value is None else process(value)
                    for process, value in zip(processors, record.values(), strict=True)
                )
            )
            for record in records
        ]


def compile_for_asyncpg(statement: Any, dialect: Dialect) -> AsyncpgStatement:
    """`statement` compiled once with `dialect` for asyncpg (F4, F5). Plain bound parameters
    only: no IN-list expansion, no escaped names, no values computed at execution, so each
    positional parameter is one key of the caller's values or a value of the statement's
    own, found once here rather than by construct_params on every execution."""
    compiled = statement.compile(dialect=dialect)
    assert isinstance(compiled, SQLCompiler) and compiled.positiontup is not None
    assert not compiled.post_compile_params and not compiled.escaped_bind_names
    own_values = compiled.construct_params(_check=False)
    by_name = {name: parameter for parameter, name in compiled.bind_names.items()}
    parameters = []
    for name in compiled.positiontup:
        parameter = by_name[name]
        assert not parameter.callable, f"{name} is computed at execution"
        own = _REQUIRED if parameter.required else own_values[name]
        parameters.append((parameter.key, own, parameter.type.bind_processor(dialect)))
    # The compiled statement's result types, not the selected columns' own: a backend that
    # decrypts in SQL (pgcrypto) wraps a column in an expression with a type of its own.
    # SQLAlchemy's result objects read the same private list.
    columns = compiled._result_columns
    return AsyncpgStatement(
        statement=statement,
        sql=str(compiled),
        parameters=tuple(parameters),
        results=tuple(column.type.result_processor(dialect, None) for column in columns),
        row=namedtuple("Row", [column.keyname for column in columns]),
    )


# --- F6: the codecs of a plain asyncpg connection -------------------------------------------


async def install_json_codecs(connection: asyncpg.Connection, dialect: Dialect) -> None:
    """The codecs SQLAlchemy's asyncpg dialect installs on its own connections (json,
    jsonb), on a plain asyncpg `connection`, so a value binds and reads the same on either."""
    adapted = _Adapted(connection)
    await dialect.setup_asyncpg_json_codec(adapted)  # type: ignore[attr-defined]
    await dialect.setup_asyncpg_jsonb_codec(adapted)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class _Adapted:
    _connection: asyncpg.Connection


# --- G1, G2 -------------------------------------------------------------------------------


def _argument_errors() -> tuple[type[Exception], ...]:
    client_side = getattr(getattr(asyncpg.exceptions, "_base", None), "DataError", None)
    if isinstance(client_side, type) and issubclass(client_side, Exception):
        return (asyncpg.exceptions.DataError, client_side)
    return (asyncpg.exceptions.DataError,)


# A value asyncpg cannot encode for its column's type ("invalid input for query argument"):
# never sent, the connection unchanged (G1).
ARGUMENT_ERRORS: tuple[type[Exception], ...] = _argument_errors()


def locks_rows(statement: Select[Any]) -> bool:
    """Whether a SELECT locks the rows it reads (FOR UPDATE, FOR SHARE, …) (G2)."""
    return getattr(statement, "_for_update_arg", True) is not None


# --- the check ----------------------------------------------------------------------------


def check(dialect: Dialect) -> dict[str, str]:
    """Each assumption that does not hold with the installed libraries, with what was
    found; checked without a database (the boundary tests check their behaviour against
    PostgreSQL too). `dialect`: an asyncpg dialect, the engine's."""
    problems: dict[str, str] = {}
    for assumption, probe in (
        ("F1", _probe_session_connections),
        ("F2", _probe_adapter_autocommit),
        ("F4", lambda: _probe_compiled_positional(dialect)),
        ("F5", lambda: _probe_result_columns(dialect)),
        ("F6", lambda: _probe_json_codecs(dialect)),
        ("G1", _probe_argument_error),
        ("G2", _probe_select_locking),
    ):
        try:
            problem = probe()
        except Exception as exc:  # a probe that fails is the answer: the class names it
            problem = f"{type(exc).__name__} while checking"
        if problem is not None:
            problems[assumption] = problem
    return problems


def _probe_session_connections() -> str | None:
    # On SQLite (in memory, no server): the mapping is SQLAlchemy's, whatever the database.
    engine = sqlalchemy.create_engine("sqlite://")
    try:
        with Session(engine) as session:
            transaction = session.begin()
            held = getattr(transaction, "_connections", None)
            if not isinstance(held, Mapping) or held:
                return "SessionTransaction._connections is not an empty mapping at begin"
            connection = session.connection()
            entries = list(held.values())
            if not entries or any(entry[0] is not connection for entry in entries):
                return "SessionTransaction._connections does not hold the checked-out Connection"
    finally:
        engine.dispose()
    return None


def _probe_adapter_autocommit() -> str | None:
    from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_connection

    autocommit = inspect.getattr_static(AsyncAdapt_asyncpg_connection, "autocommit", None)
    if not isinstance(autocommit, property) or autocommit.fset is None:
        return "AsyncAdapt_asyncpg_connection.autocommit is no settable property"
    return None


def _probe_statement() -> Select[Any]:
    rows = table("probe", column("id", Integer), column("n", Integer))
    return select(rows.c.id.label("probe_id"), (rows.c.n + literal(2)).label("more")).where(
        rows.c.id == bindparam("wanted", type_=Integer)
    )


def _probe_compiled_positional(dialect: Dialect) -> str | None:
    compiled = compile_for_asyncpg(_probe_statement(), dialect)
    if "$1" not in compiled.sql or "$2" not in compiled.sql:
        return f"placeholders are not asyncpg's $n ({dialect.paramstyle})"
    named = [(key, own) for key, own, _process in compiled.parameters]
    if len(named) != 2 or named[1] != ("wanted", _REQUIRED):
        return "positiontup and bind_names do not name the statement's parameters"
    if compiled.arguments({"wanted": 7}) != [2, 7]:
        return "construct_params(_check=False) does not give the statement's own values"
    return None


def _probe_result_columns(dialect: Dialect) -> str | None:
    compiled = compile_for_asyncpg(_probe_statement(), dialect)
    if compiled.row._fields != ("probe_id", "more"):  # type: ignore[attr-defined]
        return "SQLCompiler._result_columns does not list the selected columns by keyname"
    return None


def _probe_json_codecs(dialect: Dialect) -> str | None:
    for name in ("setup_asyncpg_json_codec", "setup_asyncpg_jsonb_codec"):
        if not inspect.iscoroutinefunction(getattr(dialect, name, None)):
            return f"the dialect has no coroutine {name}"
    if "reset" not in inspect.signature(asyncpg.create_pool).parameters:
        return "asyncpg.create_pool takes no reset"
    return None


def _probe_argument_error() -> str | None:
    public = asyncpg.exceptions.DataError
    if not issubclass(public, asyncpg.PostgresError) or public.sqlstate != "22000":
        return "asyncpg.exceptions.DataError is no PostgresError of SQLSTATE 22000"
    if len(ARGUMENT_ERRORS) > 1 and not issubclass(ARGUMENT_ERRORS[1], asyncpg.InterfaceError):
        return "asyncpg.exceptions._base.DataError is no InterfaceError"
    return None


def _probe_select_locking() -> str | None:
    plain = select(literal(1))
    locking = plain.with_for_update()
    if getattr(plain, "_for_update_arg", True) is not None or (
        getattr(locking, "_for_update_arg", None) is None
    ):
        return "Select._for_update_arg does not tell a locking SELECT"
    return None
