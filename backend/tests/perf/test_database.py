"""Encryption as the application sees it: 100 session notes (400 encrypted sections) loaded and
written through real PostgreSQL, against the same rows in a plaintext control table.

Three contenders over the same rows and the same statements, timed in alternating rounds:
no encryption (the floor), the application backend (AES-GCM in Python) and the pgcrypto
backend (carevault_pgc_encrypt / carevault_pgc_decrypt inside the database). What each adds
over the floor, divided by the 400 fields, is its per-field cost including everything a real
request pays: parameters, network, the server's work and the ORM."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from carevault.db.encryption import bound_rows
from carevault.notes.models import SessionNote
from tests.perf.interleave import Contender, run_interleaved
from tests.perf.support import (
    NOTES_PER_LOAD,
    PLAINTEXT_NOTES,
    SESSION_NOTES,
    PerfDatabase,
    PlaintextNote,
    note_rows,
)
from tests.support.db import IN_CI

Bench = Any  # pytest-benchmark's fixture
# A round is tens of milliseconds here, so quick mode's time budget alone would give five.
MIN_ROUNDS = 15


def with_pgcrypto(
    perf_db: PerfDatabase, contenders: list[Contender], make: Callable[[], Contender]
) -> list[Contender]:
    """Add the pgcrypto contender where the server offers pgcrypto (required in CI)."""
    if perf_db.pgcrypto_available():
        return [*contenders, make()]
    message = "this PostgreSQL server does not offer pgcrypto (Debian: postgresql-contrib)"
    if IN_CI:
        pytest.fail(f"pgcrypto is required in CI: {message}")
    return contenders


@pytest.mark.benchmark(group="load 100 notes (ORM)")
def test_load_100_notes(
    benchmark: Bench, request: pytest.FixtureRequest, perf_db: PerfDatabase
) -> None:
    harness = perf_db.harness
    expected = {
        (row["session_date"], row["subjective"])
        for row in note_rows(perf_db.workspace_id, perf_db.client_id)
    }

    def loader(backend: str, mapped: Any, workspace: uuid.UUID) -> Contender:
        # Both backends open values with the practice's data keys (0x03 in the application,
        # 0x04 inside PostgreSQL), so both pay the per-request check that they are loaded, as
        # the API does; the plaintext control does not.
        data_keys = backend in ("aesgcm", "pgcrypto")

        def load() -> list[Any]:
            perf_db.use(backend)
            return harness.run(lambda: harness.load_notes(backend, mapped, workspace, data_keys))

        notes = load()
        assert len(notes) == NOTES_PER_LOAD
        assert {(note.session_date, note.subjective) for note in notes} == expected
        return backend, load

    contenders = [
        loader("plaintext", PlaintextNote, perf_db.workspace_id),
        loader("aesgcm", SessionNote, perf_db.workspace_id),
    ]
    contenders = with_pgcrypto(
        perf_db, contenders, lambda: loader("pgcrypto", SessionNote, perf_db.pgcrypto_workspace())
    )
    run_interleaved(benchmark, request, contenders, min_rounds=MIN_ROUNDS)


@pytest.mark.benchmark(group="write 100 notes")
def test_write_100_notes(
    benchmark: Bench, request: pytest.FixtureRequest, perf_db: PerfDatabase
) -> None:
    """One multi-row INSERT of 100 notes in a transaction that is rolled back. Encrypted
    contenders bind every value to its row first (`bound_rows`, as Core inserts must), inside
    the timing: the plaintext table needs no binding."""
    harness = perf_db.harness
    rows = note_rows(perf_db.workspace_id, perf_db.client_id, first_id=5001)

    def writer(backend: str) -> Contender:
        encrypted = backend != "plaintext"
        table = SESSION_NOTES if encrypted else PLAINTEXT_NOTES

        def write() -> None:
            perf_db.use(backend)
            values = bound_rows(SessionNote, rows) if encrypted else rows
            harness.run(lambda: harness.write_notes_rolled_back(backend, table, values))

        write()
        return backend, write

    contenders = with_pgcrypto(
        perf_db, [writer("plaintext"), writer("aesgcm")], lambda: writer("pgcrypto")
    )
    run_interleaved(benchmark, request, contenders, min_rounds=MIN_ROUNDS)
