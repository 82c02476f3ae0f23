"""The failure vocabulary: what a request answers when the database (or the disk under it)
fails, and one log line per incident instead of a traceback per request.

Every such failure is a 503 in the standard error shape with a Retry-After header, sent as
an ordinary response, so the client's keep-alive connection stays usable.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import threading
import time
from dataclasses import dataclass

import asyncpg
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc

from carevault.db.deadlines import DeadlineExceeded
from carevault.workspaces.keys import SHREDDED_SQLSTATE

log = logging.getLogger("carevault.failures")

# How often one kind of incident is logged; the line in between counts what was suppressed.
LOG_INTERVAL_SECONDS = 30.0


@dataclass(frozen=True)
class Failure:
    status: int
    code: str
    message: str
    retry_after: int


UNAVAILABLE = Failure(503, "database_unavailable", "the database is unavailable; retry shortly", 5)
TIMEOUT = Failure(
    503,
    "database_timeout",
    "the database did not answer in time; nothing was changed, retry shortly",
    2,
)
STORAGE_FULL = Failure(
    503, "storage_full", "the database is out of storage space; nothing was changed", 30
)
UNSTORABLE = Failure(
    422, "validation_error", "the request contains a value the database cannot store", 0
)
# A write admitted just before `carevault workspaces shred`, refused by PostgreSQL (0017).
SHREDDED = Failure(410, "workspace_shredded", "this practice's data was shredded", 0)

# SQLSTATEs by meaning (PostgreSQL, Appendix A).
_TIMEOUT_STATES = {"57014", "25P03", "55P03"}  # statement/fence timeout, idle txn, lock timeout
_UNAVAILABLE_STATES = {"57P01", "57P02", "57P03", "53300", "25006", "40P01", "58030"}


def sqlstate_of(error: BaseException) -> str | None:
    """The SQLSTATE anywhere in the chain (SQLAlchemy wraps asyncpg's errors)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        state = getattr(current, "sqlstate", None) or getattr(current, "pgcode", None)
        if isinstance(state, str) and state:
            return state
        current = getattr(current, "orig", None) or current.__cause__ or current.__context__
    return None


def _in_chain(error: BaseException, kinds: tuple[type[BaseException], ...]) -> bool:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, kinds):
            return True
        current = getattr(current, "orig", None) or current.__cause__ or current.__context__
    return False


def classify(error: BaseException) -> Failure | None:
    """The answer for an infrastructure failure; None for anything else (a bug stays a bug)."""
    state = sqlstate_of(error)
    if state == SHREDDED_SQLSTATE:
        return SHREDDED
    if state == "53100" or _no_space(error):
        return STORAGE_FULL
    if state in _TIMEOUT_STATES:
        return TIMEOUT
    if isinstance(error, DeadlineExceeded | sa_exc.TimeoutError) or _in_chain(
        error, (TimeoutError, DeadlineExceeded)
    ):
        return TIMEOUT
    if state is not None:
        if state.startswith("08") or state in _UNAVAILABLE_STATES or state.startswith("53"):
            return UNAVAILABLE
        if state.startswith("22"):  # data exception: a value PostgreSQL refuses to hold
            return UNSTORABLE
        return None
    if isinstance(error, sa_exc.OperationalError | sa_exc.InterfaceError | asyncpg.InterfaceError):
        return UNAVAILABLE
    if _in_chain(error, (ConnectionError, socket.gaierror, asyncpg.InterfaceError)) or _errno_in(
        error, _NETWORK_ERRNOS
    ):
        return UNAVAILABLE
    if isinstance(error, sa_exc.DBAPIError) and error.connection_invalidated:
        return UNAVAILABLE
    return None


_NETWORK_ERRNOS = {
    errno.EHOSTUNREACH,
    errno.ENETUNREACH,
    errno.ENETDOWN,
    errno.EHOSTDOWN,
    errno.ETIMEDOUT,
}


def _errno_in(error: BaseException, numbers: set[int]) -> bool:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in numbers:
            return True
        current = getattr(current, "orig", None) or current.__cause__ or current.__context__
    return False


def _no_space(error: BaseException) -> bool:
    return _errno_in(error, {errno.ENOSPC, errno.EDQUOT})


def connection_in_doubt(error: BaseException) -> bool:
    """After a timeout, a lost connection or a cancelled request (the request deadline
    passed), the connection must not go back to the pool."""
    if isinstance(error, asyncio.CancelledError):
        return True
    failure = classify(error)
    return failure is TIMEOUT or failure is UNAVAILABLE


class IncidentLog:
    """At most one log line per kind of failure per interval; counts the rest."""

    def __init__(self, interval: float = LOG_INTERVAL_SECONDS) -> None:
        self.interval = interval
        self._lock = threading.Lock()
        self._last_logged: dict[str, float] = {}
        self._suppressed: dict[str, int] = {}
        self.last_seen: dict[str, float] = {}  # monotonic, by code; read by readiness

    def record(self, code: str, error: BaseException, route: str) -> None:
        now = time.monotonic()
        with self._lock:
            self.last_seen[code] = now
            last = self._last_logged.get(code)
            if last is not None and now - last < self.interval:
                self._suppressed[code] = self._suppressed.get(code, 0) + 1
                return
            suppressed = self._suppressed.pop(code, 0)
            self._last_logged[code] = now
        # The class name and SQLSTATE only: a driver's message can quote the values involved.
        log.warning(
            "request failed: %s (%s, sqlstate %s) on %s; %d similar failures not logged",
            code,
            type(error).__name__,
            sqlstate_of(error) or "-",
            route,
            suppressed,
            extra={
                "code": code,
                "error_type": type(error).__name__,
                "sqlstate": sqlstate_of(error),
                "route": route,
                "suppressed": suppressed,
            },
        )

    def seen_within(self, code: str, seconds: float) -> bool:
        seen = self.last_seen.get(code)
        return seen is not None and time.monotonic() - seen <= seconds


incidents = IncidentLog()  # for failures before the app state exists


def failure_response(failure: Failure) -> JSONResponse:
    headers = {"Cache-Control": "no-store"}
    if failure.retry_after:
        headers["Retry-After"] = str(failure.retry_after)
    return JSONResponse(
        {"error": {"code": failure.code, "message": failure.message}},
        status_code=failure.status,
        headers=headers,
    )


def install_failure_handlers(app: FastAPI) -> None:
    from carevault.observability.metrics import route_template

    async def handle(request: Request, error: Exception) -> JSONResponse:
        failure = classify(error)
        if failure is None:
            # Not an infrastructure failure: a real bug, logged with its traceback once here,
            # and still answered in the error shape.
            log.error(
                "unexpected %s on %s",
                type(error).__name__,
                route_template(request.scope),
                exc_info=(type(error), error, error.__traceback__),
            )
            return JSONResponse(
                {"error": {"code": "internal_error", "message": "an unexpected error occurred"}},
                status_code=500,
            )
        if failure.status >= 500:
            state = getattr(request.app.state, "carevault", None)
            log_ = state.incidents if state is not None else incidents
            log_.record(failure.code, error, route_template(request.scope))
        return failure_response(failure)

    for kind in (
        sa_exc.StatementError,  # DBAPIError, and SQLAlchemy's wrapper of other statement errors
        sa_exc.TimeoutError,
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
        DeadlineExceeded,
        OSError,  # ConnectionError, TimeoutError (asyncpg's command timeout), ENOSPC
    ):
        app.add_exception_handler(kind, handle)
