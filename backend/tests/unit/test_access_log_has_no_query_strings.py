"""`carevault serve` logs requests by route template only: uvicorn's own access log, which
prints the raw query string (a client search carries an email or phone there), stays off
even after the app configures logging in each worker."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from carevault.observability.logging import configure_logging

NAMES = ("", "uvicorn", "uvicorn.error", "uvicorn.access")


@pytest.fixture
def restored_logging() -> Iterator[None]:
    saved = {
        name: (list(logger.handlers), logger.propagate, logger.level)
        for name in NAMES
        for logger in [logging.getLogger(name)]
    }
    yield
    for name, (handlers, propagate, level) in saved.items():
        logger = logging.getLogger(name)
        logger.handlers[:] = handlers
        logger.propagate = propagate
        logger.setLevel(level)


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def test_uvicorn_access_log_is_off_after_configure_logging(restored_logging: None) -> None:
    # What uvicorn's Config.configure_logging leaves before the app factory runs.
    logging.getLogger("uvicorn.access").addHandler(logging.StreamHandler())
    configure_logging("info", json_format=False)
    collected = Collect()
    logging.getLogger().addHandler(collected)
    access = logging.getLogger("uvicorn.access")
    # uvicorn's HTTP protocols log access lines only when this is true.
    assert not access.hasHandlers()
    access.info(
        '%s - "%s %s HTTP/%s" %d',
        "127.0.0.1:5",
        "GET",
        "/api/v1/clients?q=a%40b.example",
        "1.1",
        200,
    )
    assert collected.messages == []
    logging.getLogger("uvicorn.error").info("Started server process [1]")
    assert collected.messages == ["Started server process [1]"]
