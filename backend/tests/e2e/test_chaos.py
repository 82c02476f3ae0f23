"""The quick subset of `make chaos`, so CI keeps the guarantee: against real processes (its
own PostgreSQL, `carevault serve --workers 2`), one kill -9 of a worker and a 3-second
database stop lose no acknowledged save, store no refused save, answer every failure as a
JSON 503, and leave the audit chain intact. About a minute; `-m "not chaos"` skips it."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.chaos.cli import QUICK_SCENARIOS, passed, run_suite  # noqa: E402

pytestmark = pytest.mark.chaos


def test_quick_chaos_loses_no_acknowledged_write() -> None:
    # Its own directory, not pytest's tmp_path: pytest prunes old base directories (another
    # run's included), which must not delete a running server's data directory.
    with tempfile.TemporaryDirectory(prefix="carevault-chaos-") as directory:
        workdir = Path(directory)
        workdir.chmod(0o755)  # PostgreSQL runs as its own user when this runs as root
        outcomes = run_suite(workdir, quick=True, only=set(QUICK_SCENARIOS), use_moto=False)
    assert [o.name for o in outcomes] == list(QUICK_SCENARIOS)
    for outcome in outcomes:
        assert passed(outcome), outcome.summary()
        assert outcome.acknowledged > 0, outcome.summary()
        assert outcome.tracebacks == 0, outcome.summary()
        # Server errors are only ever the failure vocabulary's 503s, never a 500.
        assert not {s for s in outcome.statuses if s >= 500} - {503}, outcome.summary()
    stopped = outcomes[1]
    assert stopped.statuses.get(503, 0) > 0, "the stop was not noticed: the test tests nothing"


def test_quick_chaos_through_pgbouncer_loses_no_acknowledged_write() -> None:
    """The same subset with the app behind Debian's PgBouncer in transaction mode
    (CAREVAULT_DATABASE_POOLER=transaction): a worker killed, the database stopped behind
    the pooler. Skipped without pgbouncer, except in CI (tests.support.pgbouncer)."""
    from tests.support.pgbouncer import require_pgbouncer

    require_pgbouncer()
    with tempfile.TemporaryDirectory(prefix="carevault-chaos-") as directory:
        workdir = Path(directory)
        workdir.chmod(0o755)
        outcomes = run_suite(
            workdir, quick=True, only=set(QUICK_SCENARIOS), use_moto=False, pgbouncer=True
        )
    assert [o.name for o in outcomes] == list(QUICK_SCENARIOS)
    for outcome in outcomes:
        assert passed(outcome), outcome.summary()
        assert outcome.acknowledged > 0, outcome.summary()
        assert outcome.tracebacks == 0, outcome.summary()
        assert not {s for s in outcome.statuses if s >= 500} - {503}, outcome.summary()
