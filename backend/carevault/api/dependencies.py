from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.errors import ApiError
from carevault.api.failures import connection_in_doubt
from carevault.api.state import AppState
from carevault.db.alone import has_work_to_commit
from carevault.db.hooks import run_before_commit


def app_state(request: Request) -> AppState:
    state: AppState = request.app.state.carevault
    return state


async def get_state(request: Request) -> AppState:
    return app_state(request)


State = Annotated[AppState, Depends(get_state)]


async def get_db(request: Request) -> AsyncIterator[AsyncSession]:
    """One database session per request: committed on success, rolled back on error, closed
    if anything is left open. Reads the app's state itself: every request runs this, and a
    dependency costs each time."""
    db = app_state(request).db_sessions()
    try:
        try:
            yield db
            await run_before_commit(db)
            if await has_work_to_commit(db):
                await db.commit()
        except ApiError as refused:
            await (db.commit() if refused.keep_changes else db.rollback())
            raise
        except BaseException as failed:
            if connection_in_doubt(failed):
                # Timed out or lost: the connection's state is unknown (a COMMIT may still be
                # queued on it), so it is closed rather than rolled back and pooled again.
                await db.invalidate()
            else:
                await db.rollback()
            raise
    finally:
        # Closing costs a greenlet switch; a session with no transaction (never used, or its
        # transaction committed or rolled back above) holds no connection to hand back.
        if db.sync_session.get_transaction() is not None:
            await db.close()


# scope="function": commit before the response is sent, so a failed commit (the audit event
# included) fails the request instead of reporting success.
DbSession = Annotated[AsyncSession, Depends(get_db, scope="function")]
