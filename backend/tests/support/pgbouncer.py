"""Debian's PgBouncer in transaction mode, in a temporary directory, in front of the test
server: loopback only, stopped when the block ends. Every setting is PgBouncer's default
except where it listens, how it authenticates clients (trust, on loopback, with the test
server's own credentials in its user list so it can log in to the server) and the pool mode."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.db import IN_CI, PgServer
from tests.support.processes import free_port

PGBOUNCER = shutil.which("pgbouncer") or (
    "/usr/sbin/pgbouncer" if Path("/usr/sbin/pgbouncer").exists() else None
)


def require_pgbouncer() -> str:
    """The pgbouncer binary; skips without it, except in CI, where it is a failure
    (scripts/setup-machine.sh installs it)."""
    if PGBOUNCER is None:
        message = "Debian's pgbouncer is not installed (scripts/setup-machine.sh installs it)"
        if IN_CI:
            pytest.fail(f"the PgBouncer tests must run in CI: {message}")
        pytest.skip(message)
    return PGBOUNCER


def _quoted(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


@contextmanager
def pgbouncer(pg_server: PgServer) -> Iterator[tuple[int, Path]]:
    """PgBouncer in transaction mode in front of `pg_server`; yields (port, its log file)."""
    binary = require_pgbouncer()
    with tempfile.TemporaryDirectory(prefix="carevault-pgbouncer-") as directory:
        home = Path(directory)
        port = free_port()
        server = (
            f"host={pg_server.socket_dir}"
            if pg_server.socket_dir
            else (f"host={pg_server.host} port={pg_server.port}")
        )
        if pg_server.socket_dir and pg_server.port:
            server += f" port={pg_server.port}"
        users = home / "users.txt"
        users.write_text(f"{_quoted(pg_server.user)} {_quoted(pg_server.password or '')}\n")
        log = home / "pgbouncer.log"
        config = home / "pgbouncer.ini"
        config.write_text(
            "[databases]\n"
            f"* = {server}\n"
            "[pgbouncer]\n"
            "listen_addr = 127.0.0.1\n"
            f"listen_port = {port}\n"
            "unix_socket_dir =\n"
            "auth_type = trust\n"
            f"auth_file = {users}\n"
            f"logfile = {log}\n"
            "pool_mode = transaction\n"
        )
        command = [binary]
        if os.geteuid() == 0:  # PgBouncer refuses to run as root
            account = pwd.getpwnam("postgres")
            os.chown(home, account.pw_uid, account.pw_gid)
            for path in (users, config):
                os.chown(path, account.pw_uid, account.pw_gid)
            command += ["-u", "postgres"]
        home.chmod(0o755)
        process = subprocess.Popen(
            [*command, str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + 15
            while True:
                assert process.poll() is None, _tail(log, "pgbouncer exited")
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    assert time.monotonic() < deadline, _tail(log, "pgbouncer did not listen")
                    time.sleep(0.05)
            yield port, log
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def _tail(log: Path, message: str) -> str:
    text = log.read_text() if log.exists() else ""
    return f"{message}: {text[-2000:]}"


def through(pg_server: PgServer, port: int, database: str) -> str:
    """The SQLAlchemy URL of `database` through PgBouncer on `port`."""
    return f"postgresql+asyncpg://{pg_server.user}@127.0.0.1:{port}/{database}"
