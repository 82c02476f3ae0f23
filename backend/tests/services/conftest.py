"""Service-level tests: the domain services called directly on the rolled-back `db` session
(tests/conftest.py), with rows from tests/support/factories.py; no app, no HTTP."""

from __future__ import annotations

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from tests.support import factories
from tests.support.services import Clinic


@pytest.fixture
async def clinic(db: AsyncSession) -> Clinic:
    space = await factories.workspace(db)
    return Clinic(space, await factories.principal(db, space))
