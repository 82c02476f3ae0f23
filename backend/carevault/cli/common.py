"""What every `carevault` command shares: settings, one-line failures, an event loop, and a
database engine or session that lives for one command."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from functools import wraps
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import typer
from pydantic import ValidationError

from carevault.config import Settings, get_settings
from carevault.crypto import KeyRingError
from carevault.runtime import StartupError, resolve_database_url

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int = 2) -> typer.Exit:
    typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
    return typer.Exit(code)


def friendly_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Expected failures print one clear line instead of a traceback."""

    @wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except ValidationError as exc:
            raise fail(f"invalid configuration: {configuration_problems(exc)}") from None
        except (StartupError, KeyRingError) as exc:
            raise fail(str(exc)) from None

    return wrapper


def configuration_problems(error: ValidationError) -> str:
    """The settings' validation messages on one line, without pydantic's prefix."""
    return "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in error.errors())


def load_settings() -> Settings:
    get_settings.cache_clear()
    return get_settings()


def configure_logging(settings: Settings) -> None:
    from carevault.observability.logging import configure_logging as configure

    configure(settings.log_level, json_format=settings.json_logs)


def run_async(coroutine: Coroutine[Any, Any, R]) -> R:
    return asyncio.run(coroutine)


def database_url_for(settings: Settings) -> str:
    """The database to use, starting the embedded development one (and saying so) when no
    URL is configured. Commands call it once, early, and hand the URL on."""
    if settings.database_url is None:
        typer.echo(f"Starting the embedded PostgreSQL under {settings.data_dir / 'postgres'} …")
    return resolve_database_url(settings)


@asynccontextmanager
async def one_off_engine(url: str, *, pool_size: int = 1) -> AsyncIterator[AsyncEngine]:
    """An engine for one command, disposed when the block ends however it ends."""
    from carevault.db.engine import create_engine

    engine = create_engine(url, pool_size=pool_size)
    try:
        yield engine
    finally:
        await engine.dispose()


@asynccontextmanager
async def one_off_session(url: str) -> AsyncIterator[AsyncSession]:
    """A database session in one transaction, on an engine of its own: committed when the
    block ends, rolled back when it raises, the engine disposed either way."""
    from carevault.db.engine import session_factory

    async with one_off_engine(url) as engine, session_factory(engine)() as db, db.begin():
        yield db


def with_database(
    settings: Settings, work: Callable[[AsyncEngine], Awaitable[R]], *, keys: bool = True
) -> R:
    """Run `work` against the database, with the key ring installed when `keys`."""
    from carevault.runtime import start_key_ring

    manager = start_key_ring(settings) if keys else None

    async def run() -> R:
        async with one_off_engine(database_url_for(settings), pool_size=2) as engine:
            return await work(engine)

    try:
        return run_async(run())
    finally:
        if manager is not None:
            manager.stop()
