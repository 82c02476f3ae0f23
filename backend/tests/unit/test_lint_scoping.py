"""The workspace-scoping lint (tools/lint_scoping.py): what it flags and what it lets pass."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.lint_scoping import check, check_source  # noqa: E402

MODELS = {"Client", "SessionNote"}
HERE = Path("example.py")


def _lines(source: str) -> list[int]:
    return [finding.line for finding in check_source(HERE, source, MODELS)]


def test_an_unscoped_select_update_delete_or_get_is_flagged() -> None:
    source = (
        "a = select(Client).where(Client.id == x)\n"
        "b = update(SessionNote).values(plan=p)\n"
        "c = delete(Client.__table__)\n"
        "d = await db.get(Client, x)\n"
        "e = select(Client.id)\n"
    )
    assert sorted(_lines(source)) == [1, 2, 3, 4, 5]


def test_statements_through_the_scoping_helpers_pass() -> None:
    source = (
        "a = in_workspace(Client, ws).where(Client.id == x)\n"
        "b = update(SessionNote).where(workspace_filter(SessionNote, ws))\n"
        "c = select(Other)\n"
        "d = insert(Client).values(workspace_id=ws)\n"
    )
    assert _lines(source) == []


def test_a_waiver_needs_a_reason() -> None:
    assert _lines("# unscoped: the token's digest finds the practice\nq = select(Client)\n") == []
    assert _lines("q = select(Client)  # unscoped:\n") == [1]


def test_the_product_has_no_unscoped_query() -> None:
    assert [str(finding) for finding in check()] == []


def _chart_lines(source: str) -> list[int]:
    return sorted(
        finding.line for finding in check_source(HERE, source, MODELS, chart=True) if finding.chart
    )


def test_a_chart_statement_without_the_chart_access_helper_is_flagged() -> None:
    source = (
        "a = in_workspace(Client, ws).where(Client.id == x)\n"
        "b = update(SessionNote).where(workspace_filter(SessionNote, ws))\n"
        "c = select(Appointment.id).where(workspace_filter(Appointment, ws))\n"
        "_notes = WorkspaceRepository(SessionNote, noun='session note')\n"
        "d = in_workspace(User, ws)\n"
    )
    assert _chart_lines(source) == [1, 2, 3, 4]


def test_chart_statements_through_the_helper_or_waived_with_a_reason_pass() -> None:
    source = (
        "a = charted(in_workspace(Client, ws).where(Client.id == x), principal, Client)\n"
        "b = in_workspace(SessionNote, wid).where(chart_condition(SessionNote))\n"
        "r = WorkspaceRepository(Client, noun='c', condition=access.chart_condition(Client))\n"
        "# chart-wide: an overlap spans the calendar\n"
        "c = in_workspace(Appointment, ws)\n"
    )
    assert _chart_lines(source) == []
    assert _chart_lines("c = in_workspace(Appointment, ws)  # chart-wide:\n") == [1]


def test_chart_access_is_checked_in_modules_that_serve_a_caller() -> None:
    statement = "a = in_workspace(Client, ws)\n"
    assert [f.line for f in check_source(HERE, statement, MODELS) if f.chart] == []
    serving = "from carevault.auth.principal import Principal\n" + statement
    assert [f.line for f in check_source(HERE, serving, MODELS) if f.chart] == [2]
