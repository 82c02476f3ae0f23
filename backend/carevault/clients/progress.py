"""Progress of `carevault import clients`: rows written, rows per second and time left.

On a terminal, a bar (rich) on standard error; otherwise (a pipe, a log file, a CI job) one
plain line on standard error every `interval` seconds. The file is streamed, so the row
count is unknown until the end: the share done and the time left come from how far into
the file the reader is, in bytes. Nothing here ever sees a row's content.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, TextIO


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class ImportProgress:
    """`advance(rows)` after each written batch; `position()` says how many bytes of the
    `total_bytes` long file the reader has consumed."""

    def __init__(
        self,
        total_bytes: int,
        position: Callable[[], int],
        *,
        stream: TextIO | None = None,
        terminal: bool | None = None,
        interval: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total_bytes = total_bytes
        self.position = position
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = self.stream.isatty() if terminal is None else terminal
        self.interval = interval
        self.clock = clock
        self.rows = 0
        self.started = clock()
        self._last_line = self.started
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> ImportProgress:
        self.started = self._last_line = self.clock()
        if self.terminal:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                Progress,
                TaskProgressColumn,
                TextColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn("importing"),
                BarColumn(),
                TaskProgressColumn(),
                TextColumn("{task.fields[rows]} rows, {task.fields[rate]} rows/s"),
                TimeRemainingColumn(),
                console=Console(file=self.stream),
                transient=True,
            )
            self._bar.__enter__()
            self._task = self._bar.add_task(
                "import", total=self.total_bytes or None, rows="0", rate="-"
            )
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(kind, error, trace)
            self._bar = None

    @property
    def elapsed(self) -> float:
        return max(self.clock() - self.started, 1e-9)

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.elapsed

    def seconds_left(self) -> float | None:
        """From the bytes read so far and their rate; None before anything was read."""
        done = self.position()
        if done <= 0 or self.total_bytes <= 0:
            return None
        return max(0, self.total_bytes - done) * self.elapsed / done

    def advance(self, rows: int) -> None:
        self.rows += rows
        if self._bar is not None:
            self._bar.update(
                self._task,
                completed=self.position(),
                rows=f"{self.rows:,}",
                rate=f"{self.rows_per_second:,.0f}",
            )
            return
        now = self.clock()
        if now - self._last_line >= self.interval:
            self._last_line = now
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def line(self) -> str:
        parts = [f"importing: {self.rows:,} rows written, {self.rows_per_second:,.0f} rows/s"]
        if self.total_bytes > 0:
            parts.append(f"{min(100, 100 * self.position() // self.total_bytes)}% of the file")
        left = self.seconds_left()
        if left is not None:
            parts.append(f"about {_duration(left)} left")
        return ", ".join(parts)
