"""Child processes the tool starts (the carevault CLI and server) and their memory.

The tool only ever signals processes it started itself, by their pid.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psutil

CAREVAULT = (sys.executable, "-m", "carevault")
# The same command with every model imported first. Needed when `carevault import clients`
# fails in a fresh process because the audit table's foreign keys name tables whose models
# that command never imports (NoReferencedTableError); see check_import_cli().
CAREVAULT_MODELS_PRELOADED = (
    sys.executable,
    "-c",
    "import carevault.db.models; from carevault.cli import main; main()",
)


@dataclass(frozen=True)
class Completed:
    seconds: float
    stdout: str
    stderr: str
    peak_rss_bytes: int
    cpu_seconds: float


def run_carevault(
    arguments: Sequence[str],
    env: Mapping[str, str],
    *,
    stdin: str | None = None,
    timeout: float = 900,
    sample_memory: bool = False,
    preload_models: bool = False,
) -> Completed:
    """Run `python -m carevault ARGS`; raise with its output if it fails."""
    command = [*(CAREVAULT_MODELS_PRELOADED if preload_models else CAREVAULT), *arguments]
    started = time.perf_counter()
    process = subprocess.Popen(  # noqa: S603 (our own interpreter and arguments)
        command,
        env=dict(env),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    sampler = MemorySampler(process.pid, interval=0.1) if sample_memory else None
    if sampler:
        sampler.start()
    try:
        stdout, stderr = process.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise RuntimeError(f"`carevault {' '.join(arguments)}` took over {timeout:g} s") from None
    finally:
        if sampler:
            sampler.stop()
    seconds = time.perf_counter() - started
    if process.returncode != 0:
        raise RuntimeError(
            f"`carevault {' '.join(arguments)}` failed ({process.returncode}):\n{stderr}{stdout}"
        )
    return Completed(
        seconds,
        stdout,
        stderr,
        sampler.peak_bytes if sampler else 0,
        sampler.cpu_seconds if sampler else 0.0,
    )


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def tree(pid: int) -> list[psutil.Process]:
    """The process and all its descendants that still exist."""
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def role_of(process: psutil.Process, root_pid: int) -> str:
    if process.pid == root_pid:
        return "supervisor"
    try:
        command = " ".join(process.cmdline())
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return "unknown"
    if "resource_tracker" in command:
        return "multiprocessing helper"
    if "multiprocessing" in command:
        return "worker"
    return "child"


def rss_of(processes: Sequence[psutil.Process]) -> tuple[int, list[tuple[str, int]]]:
    """Summed RSS, and (role, RSS) per process."""
    sizes: list[tuple[str, int]] = []
    root_pid = processes[0].pid if processes else -1
    for process in processes:
        try:
            sizes.append((role_of(process, root_pid), int(process.memory_info().rss)))
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return sum(size for _, size in sizes), sizes


def cpu_seconds_of(processes: Sequence[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
            total += times.user + times.system
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total


@dataclass
class MemorySampler:
    """Samples the summed RSS of a process tree in a background thread; keeps the peak."""

    pid: int
    interval: float = 0.2
    peak_bytes: int = 0
    peak_processes: list[tuple[str, int]] = field(default_factory=list)
    samples: int = 0
    cpu_seconds: float = 0.0  # of the tree, as last sampled
    phase: str = "start"  # what the tool is doing; set by the caller
    peak_phase: str = ""
    timeline: list[tuple[float, int]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _window_peak: int = 0

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="rss-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def take_window_peak(self) -> int:
        """The peak since the previous call (per-scenario peaks)."""
        peak, self._window_peak = self._window_peak, 0
        return peak

    def _loop(self) -> None:
        began = time.monotonic()
        last_timeline = -1.0
        bucket_peak = 0
        while not self._stop.is_set():
            processes = tree(self.pid)
            total, sizes = rss_of(processes)
            if processes:
                self.cpu_seconds = max(self.cpu_seconds, cpu_seconds_of(processes))
            if total:
                self.samples += 1
                self._window_peak = max(self._window_peak, total)
                if total > self.peak_bytes:
                    self.peak_bytes = total
                    self.peak_processes = sorted(sizes, key=lambda item: -item[1])
                    self.peak_phase = self.phase
                elapsed = time.monotonic() - began
                bucket_peak = max(bucket_peak, total)
                if elapsed - last_timeline >= 1.0:
                    # One point a second: the highest sample of that second.
                    self.timeline.append((round(elapsed, 1), bucket_peak))
                    last_timeline, bucket_peak = elapsed, 0
            self._stop.wait(self.interval)


class ServerProcess:
    """`python -m carevault serve --workers N --port P`, stopped with SIGTERM (then SIGKILL)."""

    def __init__(self, env: Mapping[str, str], workers: int, log_path: Path) -> None:
        self.env = dict(env)
        self.workers = workers
        self.port = free_port()
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self, timeout: float = 90) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("wb")
        command = [*CAREVAULT, "serve", "--workers", str(self.workers), "--port", str(self.port)]
        self.process = subprocess.Popen(  # noqa: S603 (our own interpreter and arguments)
            command, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the server exited with {self.process.returncode}; see {self.log_path}"
                )
            try:
                answer = httpx.get(f"{self.base_url}/health/ready", timeout=2)
                if answer.status_code == 200 and self._workers_up():
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"the server did not become ready in {timeout:g} s; see {self.log_path}")

    def _workers_up(self) -> bool:
        """Every worker process exists (uvicorn starts them one after another); with one
        worker, uvicorn serves from the process it started as."""
        if self.workers <= 1:
            return True
        children = [p for p in tree(self.pid)[1:] if _is_worker(p)]
        return len(children) >= self.workers

    def stop(self, timeout: float = 20) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)  # the session we started, nothing else
            self.process.wait(5)


def _is_worker(process: psutil.Process) -> bool:
    return role_of(process, -1) == "worker"
