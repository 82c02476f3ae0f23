"""tools/persistent_moto.py as a process on loopback, the way the Compose `secrets` service
runs it: started, killed and started again on the same journal."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tests.support.processes import free_port

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "tools" / "persistent_moto.py"


class SecretsStore:
    """One persistent_moto process at a time on a fixed port and journal."""

    def __init__(self, journal: Path, log: Path, arguments: Sequence[str] | None = None) -> None:
        self.journal = journal
        self.log = log
        self.port = free_port()
        self.arguments = list(arguments or [])
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [
            sys.executable,
            str(SCRIPT),
            *self.arguments,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--journal",
            str(self.journal),
        ]

    def start(self, timeout: float = 60) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                self.command(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"persistent_moto exited: {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("persistent_moto did not listen in time")

    def run_to_exit(self, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """Start it expecting it to refuse: its exit code and output."""
        return subprocess.run(
            self.command(), capture_output=True, text=True, timeout=timeout, check=False
        )

    def kill(self) -> None:
        """SIGKILL, as a crashed container: no chance to flush anything."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)  # the session this object started
            self.process.wait(10)
        self.process = None
