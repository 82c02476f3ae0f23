"""The tool's progress lines."""

from __future__ import annotations

from datetime import datetime


def log(message: str) -> None:
    print(f"[loadtest {datetime.now().strftime('%H:%M:%S')}] {message}", flush=True)
