"""Tests that run CareVault or its dependencies as separate processes or threads: a free
loopback port, a CareVault process's environment, and polling for a condition."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable
from pathlib import Path

from carevault.crypto import LocalFileProvider


def free_port() -> int:
    """A TCP port on loopback that nothing listens on at the moment."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def carevault_env(database_url: str, data_dir: Path) -> dict[str, str]:
    """The environment of a CareVault process on this database, with a local key ring in
    `data_dir` as `carevault keys init` leaves it (only `init` and `run` create one)."""
    LocalFileProvider(data_dir / "keyring.json").initialize()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAREVAULT_")}
    env.update(CAREVAULT_DATABASE_URL=database_url, CAREVAULT_DATA_DIR=str(data_dir))
    # The fuzzer sends thousands of requests a minute with one credential: at the default
    # limit most would be 429s and the logic behind them would go untested.
    env.update(
        CAREVAULT_API_RATE_LIMIT_PER_MINUTE="1000000",
        CAREVAULT_API_RATE_LIMIT_PER_PRACTICE_PER_MINUTE="10000000",
    )
    return env


def wait_until(condition: Callable[[], bool], seconds: float = 15) -> bool:
    """Poll `condition` until it holds (True) or `seconds` pass (False)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
