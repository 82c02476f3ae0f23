from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import Depends, Request, Response
from fastapi.routing import APIRoute
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.failures import connection_in_doubt
from carevault.api.state import AppState
from carevault.db.alone import has_work_to_commit
from carevault.db.hooks import run_before_commit
from carevault.db.replica import (
    READ_AFTER_COOKIE,
    READ_AFTER_HEADER,
    ReplicaRouter,
    credential_key,
    parse_read_after,
    read_after_token,
    read_bind,
)

# Methods that write: the credential then reads from the primary for a while (read your
# writes, carevault.db.replica) unless the route read from the replica (a search's POST).
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Set in the scope by carevault.api.replica for a route that may read from the replica.
REPLICA_ROUTE = "carevault.replica_route"
# carevault.auth.dependencies.SESSION_COOKIE (which imports this module).
SESSION_COOKIE = "carevault_session"


def app_state(request: Request) -> AppState:
    state: AppState = request.app.state.carevault
    return state


async def get_state(request: Request) -> AppState:
    return app_state(request)


State = Annotated[AppState, Depends(get_state)]


# The request's session, in its ASGI scope: opened by the first dependency that needs it,
# ended by the route (DatabaseRoute) once the endpoint has answered.
_SESSION = "carevault.db_session"
_ROUTE_ENDS_SESSIONS = "carevault.route_ends_sessions"


async def get_db(request: Request) -> AsyncSession:
    """The request's database session, opened on first use; DatabaseRoute commits it before
    the response is sent, or rolls it back. A plain coroutine rather than a dependency with
    `yield`: FastAPI wraps those in exit stacks, cancel scopes and a shielded task, which on
    a note read cost more than the session itself."""
    db: AsyncSession | None = request.scope.get(_SESSION)
    if db is None:
        if not request.scope.get(_ROUTE_ENDS_SESSIONS):
            raise RuntimeError(f"{request.scope.get('route')!r} is not a DatabaseRoute")
        db = request.scope[_SESSION] = app_state(request).db_sessions()
    return db


class DatabaseRoute(APIRoute):
    """Every route of the app: the session its dependencies opened (get_db) is committed
    when the endpoint has answered and before the response is sent, so a failed commit
    (the audit event included) fails the request instead of reporting success; on an error
    it is rolled back, or kept as the error asks (`keep_changes`: an `ApiError`'s, or an
    audited idempotent replay's)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        answer = super().get_route_handler()

        async def answer_and_end_session(request: Request) -> Response:
            scope = request.scope
            scope[_ROUTE_ENDS_SESSIONS] = True
            try:
                response = await answer(request)
                db = scope.get(_SESSION)
                if db is not None:
                    await run_before_commit(db)
                    if await has_work_to_commit(db):
                        await db.commit()
                replica = app_state(request).replica
                if replica is not None and request.method in _WRITES:
                    await _answer_write_position(request, response, replica)
            except BaseException as failed:
                db = scope.pop(_SESSION, None)
                if db is not None and read_bind(db) is not None and connection_in_doubt(failed):
                    # Perhaps the replica was lost: the next reads go to the primary at once.
                    replica = app_state(request).replica
                    if replica is not None:
                        replica.suspect(type(failed).__name__)
                if db is not None:
                    # Shielded: a request cancelled at its deadline still ends its session.
                    await asyncio.shield(_end_failed(db, failed))
                raise
            finally:
                # Succeeded or not (a failed write may have committed part of itself, or
                # kept its changes), before the answer is sent: the credential's next
                # request reads its own writes (carevault.db.replica).
                replica = app_state(request).replica
                if replica is not None and request.method in _WRITES:
                    _remember_write(request, replica)
            db = scope.pop(_SESSION, None)
            if db is not None:
                await _close_if_open(db)
            return response

        return answer_and_end_session


def request_credential(request: Request) -> bytes | None:
    """The digest identifying the request's credential (bearer token or session cookie)."""
    return credential_key(request.headers.get("authorization"), request.cookies.get(SESSION_COOKIE))


def request_read_after(request: Request) -> int | None:
    """The write position the request presents (header or the UI's cookie), if any."""
    return parse_read_after(
        request.headers.get(READ_AFTER_HEADER), request.cookies.get(READ_AFTER_COOKIE)
    )


async def _answer_write_position(
    request: Request, response: Response, replica: ReplicaRouter
) -> None:
    """After a write has committed: the primary's WAL position in `CareVault-Read-After`
    (and a cookie for a browser's session), so the credential's next replica reads, on any
    instance, wait for the replica to replay it (carevault.db.replica)."""
    if request.scope.get(REPLICA_ROUTE):
        return  # a search's POST: its only write is its audit event
    position = await replica.primary_position()
    if position is None:
        return  # the write stands; the per-process window still covers this instance
    token = read_after_token(position)
    response.headers[READ_AFTER_HEADER] = token
    if request.cookies.get(SESSION_COOKIE):
        response.set_cookie(
            READ_AFTER_COOKIE,
            token,
            max_age=max(1, math.ceil(replica.read_your_writes_seconds)),
            httponly=True,
            secure=app_state(request).settings.is_production,
            samesite="strict",
            path="/",
        )


def _remember_write(request: Request, replica: ReplicaRouter) -> None:
    if request.scope.get(REPLICA_ROUTE):
        return  # a search's POST: it writes nothing but its audit event
    credential = request_credential(request)
    if credential is not None:
        replica.wrote(credential)


async def _end_failed(db: AsyncSession, failed: BaseException) -> None:
    try:
        if getattr(failed, "keep_changes", False) is True:  # an ApiError, or a replay
            await db.commit()
        elif db.sync_session.get_transaction() is None:
            return  # nothing began: nothing to roll back (a refusal after statements sent alone)
        elif connection_in_doubt(failed):
            # Timed out or lost: the connection's state is unknown (a COMMIT may still be
            # queued on it), so it is closed rather than rolled back and pooled again.
            await db.invalidate()
        else:
            try:
                await db.rollback()
            except Exception:
                # The rollback failed too: the connection is broken. Closed, not pooled, and
                # the request still answers for the error it met first.
                await db.invalidate()
    finally:
        await _close_if_open(db)


async def _close_if_open(db: AsyncSession) -> None:
    # Closing costs a greenlet switch; a session with no transaction (never used, or its
    # transaction committed or rolled back) holds no connection to hand back.
    if db.sync_session.get_transaction() is not None:
        await db.close()


DbSession = Annotated[AsyncSession, Depends(get_db)]
