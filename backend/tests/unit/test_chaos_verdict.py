"""The chaos suite's verdict (tools/chaos/cli.py `passed`): which failures fail a scenario."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.chaos.cli import KEYS_DOWN, MALFORMED, Outcome, passed  # noqa: E402


def _clean(name: str, **changes: object) -> Outcome:
    outcome = Outcome(name=name, fault="-", audit_verify=True, recovery_seconds=0.2)
    for key, value in changes.items():
        setattr(outcome, key, value)
    return outcome


@pytest.mark.parametrize("name", [KEYS_DOWN, MALFORMED])
def test_a_5xx_inside_the_window_fails_scenarios_that_must_not_show_one(name: str) -> None:
    assert passed(_clean(name))
    assert not passed(_clean(name, errors_in_window=1))


def test_database_faults_may_answer_503_inside_the_window_but_not_outside() -> None:
    assert passed(_clean("database stopped", errors_in_window=40))
    assert not passed(_clean("database stopped", errors_outside=1))
