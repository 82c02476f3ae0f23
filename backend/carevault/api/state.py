from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from carevault.config import Settings
from carevault.crypto import KeyRingManager


@dataclass
class AppState:
    """What a running app holds: built once in the lifespan, read by dependencies."""

    settings: Settings
    key_manager: KeyRingManager
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    pgcrypto_available: bool
