"""Debian's PgBouncer in transaction mode, with its default settings, in front of the
suite's own PostgreSQL (`python -m tools.chaos --pgbouncer`, and the e2e test's quick subset
through it): loopback only, trust authentication, stopped with the suite."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

from tools.chaos.postgres import SYSTEM_USER


class OwnPgBouncer:
    def __init__(self, root: Path, port: int, server_port: int) -> None:
        self.root = root
        self.port = port
        self.server_port = server_port
        self.process: subprocess.Popen[bytes] | None = None
        self.log = root / "pgbouncer.log"

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        binary = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
        self.root.mkdir(parents=True, exist_ok=True)
        users = self.root / "users.txt"
        users.write_text('"postgres" ""\n')
        config = self.root / "pgbouncer.ini"
        config.write_text(
            "[databases]\n"
            f"* = host=127.0.0.1 port={self.server_port}\n"
            "[pgbouncer]\n"
            "listen_addr = 127.0.0.1\n"
            f"listen_port = {self.port}\n"
            "unix_socket_dir =\n"
            "auth_type = trust\n"
            f"auth_file = {users}\n"
            f"logfile = {self.log}\n"
            "pool_mode = transaction\n"
        )
        command = [binary]
        if os.geteuid() == 0:  # PgBouncer refuses to run as root
            name = SYSTEM_USER
            try:
                account = pwd.getpwnam(name)
            except KeyError:
                name, account = "postgres", pwd.getpwnam("postgres")
            for path in (self.root, users, config):
                os.chown(path, account.pw_uid, account.pw_gid)
            command += ["-u", name]
        self.root.chmod(0o755)
        self.process = subprocess.Popen(  # noqa: S603 (Debian's binary, fixed arguments)
            [*command, str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 15
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"pgbouncer exited: {self._tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"pgbouncer did not listen: {self._tail()}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def _tail(self) -> str:
        return self.log.read_text()[-2000:] if self.log.exists() else ""
