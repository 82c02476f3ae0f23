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
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from carevault.crypto.errors import KeyAccessRevoked, KeyServiceUnavailable
from carevault.db.deadlines import DeadlineExceeded
from carevault.db.fastpath import ARGUMENT_ERRORS
from carevault.observability.request_id import current_request_id
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
# A write admitted just before `carevault workspaces shred`, refused by PostgreSQL (0018).
SHREDDED = Failure(410, "workspace_shredded", "this practice's data was shredded", 0)

# The practice's keys need AWS KMS (CAREVAULT_KEY_PROVIDER=kms) and it cannot answer now,
# or refuses the practice's key: only practices whose keys this process does not hold are
# answered so, every other keeps working.
KMS_UNAVAILABLE = Failure(
    503,
    "kms_unavailable",
    "the key service (AWS KMS) cannot be reached to open this practice's keys; retry shortly",
    5,
)
KMS_KEY_DISABLED = Failure(
    503,
    "kms_key_disabled",
    "this practice's encryption key is disabled in AWS KMS: its data stays unreadable until "
    "the key's owner enables it again",
    60,
)
KMS_KEY_PENDING_DELETION = Failure(
    503,
    "kms_key_pending_deletion",
    "this practice's encryption key is scheduled for deletion in AWS KMS: its data stays "
    "unreadable unless the deletion is cancelled and the key enabled",
    300,
)
KMS_KEY_NOT_FOUND = Failure(
    503,
    "kms_key_not_found",
    "this practice's encryption key no longer exists in AWS KMS",
    300,
)
KMS_ACCESS_DENIED = Failure(
    503,
    "kms_access_denied",
    "AWS KMS refuses CareVault the use of this practice's encryption key (its key policy or "
    "a grant was changed)",
    60,
)
_KMS_REVOKED = {
    failure.code: failure
    for failure in (
        KMS_KEY_DISABLED,
        KMS_KEY_PENDING_DELETION,
        KMS_KEY_NOT_FOUND,
        KMS_ACCESS_DENIED,
    )
}

# SQLSTATEs by meaning (PostgreSQL, Appendix A).
_TIMEOUT_STATES = {"57014", "25P03", "55P03"}  # statement/fence timeout, idle txn, lock timeout
# Whole classes: 08 connection exception, 28 invalid authorization and 3D no such database
# (both only ever refuse a connection: credentials rotated, a database being restored), 40
# transaction rollback (serialization failure, deadlock: retryable), 53 insufficient
# resources, 57 operator intervention (admin or crash shutdown, cannot connect now,
# database dropped), 58 system error (I/O).
_UNAVAILABLE_CLASSES = {"08", "28", "3D", "40", "53", "57", "58"}
_UNAVAILABLE_STATES = {"25006"}  # read-only transaction: a standby, or the database set so

# The driver's own errors, which carry no SQLSTATE: every asyncpg client-side error (its
# connection closed or in the wrong state, such as "cannot switch to state 12; another
# operation (2) is in progress" on a connection the server ended mid-request, a protocol or
# schema-cache error) and SQLAlchemy's wrappers of them.
_DRIVER_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.PostgresError,
    sa_exc.DBAPIError,
    sa_exc.DisconnectionError,
)


def sqlstate_of(error: BaseException) -> str | None:
    """The SQLSTATE anywhere in the chain (SQLAlchemy wraps asyncpg's errors)."""
    for current in _chain(error):
        state = getattr(current, "sqlstate", None) or getattr(current, "pgcode", None)
        if isinstance(state, str) and state:
            return state
    return None


def _chain(error: BaseException) -> list[BaseException]:
    """`error` and what it wraps: SQLAlchemy's `orig`, then causes and contexts."""
    seen: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and all(current is not s for s in seen):
        seen.append(current)
        current = getattr(current, "orig", None) or current.__cause__ or current.__context__
    return seen


def _in_chain(error: BaseException, kinds: tuple[type[BaseException], ...]) -> bool:
    return any(isinstance(current, kinds) for current in _chain(error))


def classify(error: BaseException) -> Failure | None:
    """The answer for an infrastructure failure; None for anything else (a bug stays a bug).

    By family, not by message: every error of the database driver or of the connection
    under it is a 503 (`database_unavailable` unless it says more), whatever its text. Only
    errors PostgreSQL raises about the statement itself (a constraint, a syntax error: a
    SQLSTATE outside the classes above) stay defects."""
    for current in _chain(error):
        if isinstance(current, KeyAccessRevoked):
            return _KMS_REVOKED.get(current.code, KMS_ACCESS_DENIED)
        if isinstance(current, KeyServiceUnavailable):
            return KMS_UNAVAILABLE
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
        if state[:2] in _UNAVAILABLE_CLASSES or state in _UNAVAILABLE_STATES:
            return UNAVAILABLE
        if state.startswith("22"):  # data exception: a value PostgreSQL refuses to hold
            return UNSTORABLE
        return None
    # A value asyncpg cannot encode for its column's type: never sent (its SQLSTATE class 22
    # is seen above when it carries one).
    if _in_chain(error, ARGUMENT_ERRORS):
        return UNSTORABLE
    if _in_chain(error, _DRIVER_ERRORS):
        return UNAVAILABLE
    if _in_chain(error, (ConnectionError, socket.gaierror)) or _errno_in(error, _NETWORK_ERRNOS):
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
    return any(
        isinstance(current, OSError) and current.errno in numbers for current in _chain(error)
    )


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
    """Every exception a request raises is answered in the error shape: an infrastructure
    failure by its Failure (503 with Retry-After, or 422 for an unstorable value), anything
    else by a JSON 500 `internal_error` that names the request id, logged once with its
    traceback. Never Starlette's plain-text 500."""
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
            request_id = current_request_id.get()
            return JSONResponse(
                {
                    "error": {
                        "code": "internal_error",
                        "message": "an unexpected error occurred; the incident was logged "
                        f"under request id {request_id}",
                        "details": {"request_id": request_id},
                    }
                },
                status_code=500,
                headers={"Cache-Control": "no-store"},
            )
        if failure.status >= 500:
            state = getattr(request.app.state, "carevault", None)
            log_ = state.incidents if state is not None else incidents
            log_.record(failure.code, error, route_template(request.scope))
        return failure_response(failure)

    for kind in (
        # Answered where the route's other errors are, so the middlewares see a response:
        sa_exc.SQLAlchemyError,  # DBAPIError and every wrapper, pool timeouts, disconnects
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
        asyncpg.InternalClientError,  # "cannot switch to state …", protocol errors
        DeadlineExceeded,
        OSError,  # ConnectionError, TimeoutError (asyncpg's command timeout), ENOSPC
    ):
        app.add_exception_handler(kind, handle)
    # Anything else, and whatever a middleware raises: Starlette's ServerErrorMiddleware
    # answers with this instead of its plain-text 500 (then re-raises: see AnsweredErrors).
    app.add_exception_handler(Exception, handle)


class AnsweredErrors:
    """Outermost: keeps an exception that was already answered from reaching the server.

    Starlette's ServerErrorMiddleware sends the handler's answer and then re-raises, so
    that the server logs it; uvicorn then logs a second traceback and closes the client's
    keep-alive connection, although the answer went out whole. Such an exception stops
    here (it was logged by the handler). One raised before the answer was complete (a
    response cut mid-body) still reaches the server, which must close the connection."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        complete = False

        async def noting_the_end(message: Message) -> None:
            nonlocal complete
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                complete = True

        try:
            await self.app(scope, receive, noting_the_end)
        except Exception:
            if not complete:
                raise
