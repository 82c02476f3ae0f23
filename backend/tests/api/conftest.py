"""Fixtures of the HTTP tests (the `api` fixture itself is in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.db import NewDatabase
from tests.support.http import ApiContext, running_api


@pytest.fixture
async def audit_api(new_database: NewDatabase, data_dir: Path) -> AsyncIterator[ApiContext]:
    """The app without its background sealer: these tests seal on demand, like an operator."""
    async with running_api(await new_database(), data_dir, audit_sealer=False) as context:
        yield context
