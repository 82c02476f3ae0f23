"""What the numbers were measured on."""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

import psutil


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def nproc() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def describe() -> dict[str, object]:
    return {
        "nproc": nproc(),
        "cpu_model": cpu_model(),
        "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
        "kernel": platform.release(),
        "python": sys.version.split()[0],
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }
