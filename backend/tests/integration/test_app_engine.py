"""An app can run on an engine its caller keeps (`create_app(engine=...)`): it uses that
engine and leaves it, and its direct pool, open when it stops."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import literal_column, select, text

from carevault.api.app import create_app
from carevault.config import Settings
from carevault.db import direct
from carevault.db.deadlines import Deadlines
from carevault.db.engine import close_api_engine, open_api_engine
from tests.support.db import NewDatabase


async def test_an_app_on_its_callers_engine_leaves_it_open(
    new_database: NewDatabase, data_dir: Path
) -> None:
    url = await new_database()
    settings = Settings(data_dir=data_dir)
    engine = await open_api_engine(url, Deadlines(settings.request_timeout_seconds))
    try:
        app = create_app(settings, database_url=url, engine=engine)
        async with app.router.lifespan_context(app):
            assert app.state.carevault.engine is engine
        pool = direct.pool_of(engine)
        assert pool is not None
        assert await pool.fetch(select(literal_column("1").label("one")), {}) == [(1,)]
        async with engine.connect() as connection:
            assert await connection.scalar(text("SELECT 1")) == 1
    finally:
        await close_api_engine(engine)
    assert direct.pool_of(engine) is None


async def test_an_engine_with_other_deadlines_than_the_settings_is_refused(
    new_database: NewDatabase, data_dir: Path
) -> None:
    url = await new_database()
    settings = Settings(data_dir=data_dir)
    engine = await open_api_engine(url, Deadlines(settings.request_timeout_seconds * 2))
    try:
        app = create_app(settings, database_url=url, engine=engine)
        with pytest.raises(ValueError, match="other deadlines"):
            async with app.router.lifespan_context(app):
                pass
    finally:
        await close_api_engine(engine)
