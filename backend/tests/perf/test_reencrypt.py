"""Throughput of `carevault reencrypt` (carevault.lifecycle.reencrypt) against real PostgreSQL.

A practice with REENCRYPT_NOTES session notes (four 350-byte sections each, format 0x03) in a
database of its own. Every round rotates the key ring (the new version active at once, as
after `keys rotate` and activation) and runs the whole job: it provisions the new data key,
then reads, opens, seals and updates every row in committed batches of the default size
(`SELECT … FOR UPDATE SKIP LOCKED`, one executemany UPDATE per batch), then makes a second
pass that finds nothing left and counts what remains. The median of a round divided by the
rows is the job's cost per row; rows per second are recorded in the JSON (`extra_info`).
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from carevault.crypto import FieldCipher, KeyRing, PhiBackend, envelope, install
from carevault.db.encryption import bound_rows
from carevault.lifecycle.reencrypt import Summary, reencrypt
from carevault.notes.models import SessionNote
from tests.perf.plugin import bench_mode
from tests.perf.support import SESSION_NOTES, DatabaseHarness, note_rows
from tests.support.db import PgServer, admin_execute

Bench = Any  # pytest-benchmark's fixture

REENCRYPT_NOTES = 1000
# Each round rewrites every row, so rounds are counted rather than timed.
ROUNDS = {"quick": 3, "full": 12}


class MutableRing:
    """The ring source a rotation swaps, as the key-ring manager's refresh does."""

    def __init__(self, ring: KeyRing) -> None:
        self.ring = ring


@dataclass
class ReencryptDatabase:
    harness: DatabaseHarness
    source: MutableRing
    cipher: FieldCipher
    workspace_id: uuid.UUID
    summaries: list[Summary] = field(default_factory=list)

    def install(self) -> None:
        install(self.cipher, PhiBackend.AESGCM)

    def rotate(self) -> None:
        self.source.ring = self.source.ring.rotated()  # active at once

    def run_job(self) -> Summary:
        self.install()
        engine = self.harness.engine("reencrypt")
        summary = self.harness.run(lambda: reencrypt(engine))
        self.summaries.append(summary)
        return summary

    def note_headers(self) -> dict[bytes, int]:
        harness = self.harness
        return harness.run(lambda: harness.stored_headers("reencrypt", self.workspace_id))


@pytest.fixture(scope="module")
async def reencrypt_database_url(pg_server: PgServer, template_database: str) -> AsyncIterator[str]:
    """Its own database: the job rewrites every practice it finds, and the other
    benchmarks' rows must keep their formats."""
    name = f"cv_reenc_{uuid.uuid4().hex[:10]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    yield pg_server.url(name)
    await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def reencrypt_db(reencrypt_database_url: str) -> Iterator[ReencryptDatabase]:
    harness = DatabaseHarness(reencrypt_database_url)
    try:
        source = MutableRing(KeyRing.generate())
        cipher = FieldCipher(source)
        install(cipher, PhiBackend.AESGCM)
        space, owner = harness.run(lambda: harness.create_owner("reencrypt"))
        # note_rows makes 100 notes per call; ids stay distinct across calls.
        rows = []
        for batch in range(REENCRYPT_NOTES // 100):
            rows += note_rows(space, owner, first_id=1 + 100 * batch)
        sealed = bound_rows(SessionNote, rows)
        harness.run(lambda: harness.insert_notes("reencrypt", SESSION_NOTES, sealed))
        yield ReencryptDatabase(harness, source, cipher, space)
    finally:
        harness.close()


@pytest.mark.benchmark(group="reencrypt")
def test_reencrypt(benchmark: Bench, reencrypt_db: ReencryptDatabase) -> None:
    db = reencrypt_db
    first_version = db.source.ring.active_version
    assert db.note_headers() == {
        envelope.header(envelope.FORMAT_BOUND, first_version): REENCRYPT_NOTES
    }

    benchmark.name = "test_reencrypt[1000 notes]"
    benchmark.pedantic(
        db.run_job, setup=db.rotate, rounds=ROUNDS[bench_mode()], iterations=1, warmup_rounds=0
    )

    # Every round moved every note (and the owner's client row) to the new version, and
    # nothing was left behind or failed.
    final = db.source.ring.active_version
    assert final > first_version
    assert db.note_headers() == {envelope.header(envelope.FORMAT_BOUND, final): REENCRYPT_NOTES}
    for summary in db.summaries:
        assert summary.rows_rewritten["sessions"] == REENCRYPT_NOTES, summary
        assert summary.values_rewritten >= 4 * REENCRYPT_NOTES
        assert summary.rows_left == 0 and not summary.unopenable
    rates = sorted(summary.rows_per_second for summary in db.summaries)
    benchmark.extra_info["rows_per_round"] = db.summaries[-1].rows
    benchmark.extra_info["rows_per_second_median"] = round(rates[len(rates) // 2])
    benchmark.extra_info["rows_per_second_range"] = [round(rates[0]), round(rates[-1])]
