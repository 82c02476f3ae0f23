"""Running behind a connection pooler in transaction mode (PgBouncer's `pool_mode =
transaction`), selected by CAREVAULT_DATABASE_POOLER=transaction.

Such a pooler hands a server connection to a client for one transaction and then to another
client, so nothing may outlive a transaction, and PgBouncer 1.18 (Debian 12's) with default
settings refuses startup parameters beyond a few (client_encoding, DateStyle, TimeZone,
standard_conforming_strings, application_name). In that mode every engine CareVault opens:

- sends no server settings at startup: the deadlines (statement_timeout and
  idle_in_transaction_session_timeout, carevault.db.deadlines) are set with SET LOCAL in the
  same message as each BEGIN, so they hold for every transaction at no extra round trip;
- never prepares a named statement: asyncpg's statement cache is off (unnamed statements
  only: asyncpg sends Parse, Describe and Flush, then Bind, Execute and Sync, one exchange
  the pooler does not split) and so is SQLAlchemy's prepared-statement cache;
- sends no statement outside a transaction (carevault.db.alone runs them inside one, and the
  direct asyncpg pool of carevault.db.direct is not opened), so no statement can run without
  its deadlines.

CareVault holds no other session state: settings are SET LOCAL or set_config(..., true),
advisory locks are the transaction-level ones, and nothing LISTENs through the pooler.
"""

from __future__ import annotations

import os
from enum import StrEnum
from functools import cache
from typing import Any

import asyncpg

POOLER_VARIABLE = "CAREVAULT_DATABASE_POOLER"


class Pooler(StrEnum):
    NONE = "none"  # a direct connection, or a pooler in session mode
    TRANSACTION = "transaction"


def configured_pooler() -> Pooler:
    """The pooler CAREVAULT_DATABASE_POOLER names (Settings validates the same variable at
    start; engines opened by commands and helpers read it here, so every one agrees)."""
    value = os.environ.get(POOLER_VARIABLE, "").strip().lower()
    return Pooler(value) if value else Pooler.NONE


class TransactionPooledConnection(asyncpg.Connection):
    """An asyncpg connection whose BEGIN carries the transaction's settings (SET LOCAL), sent
    in the same simple-query message: one round trip, as BEGIN alone would be."""

    begin_settings = ""
    # Read by carevault.db.alone: statements are never sent outside a transaction.
    transactions_only = True

    async def execute(
        self,
        query: str,
        *args: Any,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> str:
        # asyncpg's Transaction.start sends "BEGIN [ISOLATION …];" through execute(); a
        # savepoint ("SAVEPOINT …") keeps the settings of the transaction around it.
        if self.begin_settings and not args and query.startswith("BEGIN"):
            query = f"{query.rstrip().rstrip(';')}; {self.begin_settings}"
        return await super().execute(query, *args, timeout=timeout)


@cache
def connection_class(settings: tuple[tuple[str, str], ...]) -> type[TransactionPooledConnection]:
    """A connection class that SETs LOCAL `settings` (name, value) at every BEGIN. The names
    and values are the deadlines' own (carevault.db.deadlines), never user input."""
    begin = " ".join(f"SET LOCAL {name} = '{value}';" for name, value in settings)
    return type(
        "TransactionPooledConnection", (TransactionPooledConnection,), {"begin_settings": begin}
    )


def connect_args(pooler: Pooler, server_settings: dict[str, str] | None = None) -> dict[str, Any]:
    """asyncpg.connect() arguments (through SQLAlchemy's asyncpg dialect) for `pooler`:
    `server_settings` go in the startup packet without a pooler, and into every BEGIN with
    one."""
    if pooler is Pooler.NONE:
        return {"server_settings": server_settings} if server_settings else {}
    return {
        "statement_cache_size": 0,
        # SQLAlchemy's own cache of prepared statements (a DBAPI argument it takes out).
        "prepared_statement_cache_size": 0,
        "connection_class": connection_class(tuple(sorted((server_settings or {}).items()))),
    }


def direct_connect_args(
    pooler: Pooler, server_settings: dict[str, str] | None = None
) -> dict[str, Any]:
    """The same for a plain asyncpg connection or pool (no SQLAlchemy in between)."""
    arguments = connect_args(pooler, server_settings)
    arguments.pop("prepared_statement_cache_size", None)
    return arguments


# PgBouncer answers as a server does, so it cannot be told apart before connecting; what it
# refuses at startup names it.
POOLER_HINT = (
    "the database (a connection pooler such as PgBouncer in transaction mode) refused a "
    "startup parameter: set CAREVAULT_DATABASE_POOLER=transaction (docs/how-to/scaling.md)"
)


def refused_startup_parameter(error: BaseException) -> bool:
    """Whether `error` is a pooler refusing a startup parameter (SQLAlchemy's error quotes
    the driver's; the message names a parameter, never a value)."""
    return "unsupported startup parameter" in str(error)


def transactions_only(driver_connection: Any) -> bool:
    """Whether statements on this asyncpg connection must always run inside a transaction."""
    return bool(getattr(driver_connection, "transactions_only", False))
