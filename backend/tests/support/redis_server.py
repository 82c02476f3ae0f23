"""The Redis the tests use: the one answering on 127.0.0.1:6379 when there is one, else a
`redis-server` the tests start themselves (no persistence, a free loopback port, stopped when
the test process exits), else none (its tests skip, and fail under CI)."""

from __future__ import annotations

import atexit
import shutil
import socket
import subprocess
import time
from functools import cache

import pytest

from tests.support.db import IN_CI

LOCAL_PORT = 6379
_SEARCH_PATH = "/usr/local/bin:/usr/bin:/usr/sbin:/sbin:/bin"


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as probe:
            probe.sendall(b"PING\r\n")
            return probe.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def free_port() -> int:
    """A loopback port nothing listens on (a Redis that is down, or one to start)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@cache
def redis_url() -> str | None:
    """A Redis URL for the tests, or None when neither a server nor `redis-server` is here."""
    if answers(LOCAL_PORT):
        return f"redis://127.0.0.1:{LOCAL_PORT}/0"
    binary = shutil.which("redis-server", path=_SEARCH_PATH)
    if binary is None:
        return None
    port = free_port()
    server = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def stop() -> None:
        server.terminate()
        server.wait(timeout=10)

    atexit.register(stop)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if answers(port):
            return f"redis://127.0.0.1:{port}/0"
        time.sleep(0.05)
    server.kill()
    return None


def redis_port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


def redis_url_or_skip(tests: str) -> str:
    """The tests' Redis URL; without one, `tests` skip here and fail in CI."""
    url = redis_url()
    if url is None:
        message = "no Redis answers on 127.0.0.1:6379 and there is no redis-server to start"
        if IN_CI:
            pytest.fail(f"{tests} must run in CI: {message}")
        pytest.skip(message)
    return url
