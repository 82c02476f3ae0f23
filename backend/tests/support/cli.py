"""Running the `carevault` command in-process (typer's runner), from async tests."""

from __future__ import annotations

import asyncio

from typer.testing import CliRunner, Result

from carevault.cli import app as cli
from tests.support.http import ApiContext

runner = CliRunner()


async def invoke(arguments: list[str], stdin: str | None = None) -> Result:
    """The command runs its own event loop, so async tests run it in a thread."""
    return await asyncio.to_thread(lambda: runner.invoke(cli, arguments, input=stdin))


def cli_env(api: ApiContext) -> dict[str, str]:
    """The environment of a command working on the running app's database and data dir."""
    return {
        "CAREVAULT_DATABASE_URL": api.database_url,
        "CAREVAULT_DATA_DIR": str(api.settings.data_dir),
    }


async def carevault(api: ApiContext, *args: str) -> tuple[int, str]:
    """`carevault ARGS` against the running app's database: exit code and output."""
    env = cli_env(api)
    result = await asyncio.to_thread(lambda: CliRunner().invoke(cli, list(args), env=env))
    return result.exit_code, result.output
