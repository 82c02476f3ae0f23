from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.state import AppState


def get_state(request: Request) -> AppState:
    state: AppState = request.app.state.carevault
    return state


State = Annotated[AppState, Depends(get_state)]


async def get_db(state: State) -> AsyncIterator[AsyncSession]:
    """One database session per request: committed on success, rolled back on error."""
    async with state.sessions() as db:
        try:
            yield db
            await db.commit()
        except BaseException:
            await db.rollback()
            raise


DbSession = Annotated[AsyncSession, Depends(get_db)]
