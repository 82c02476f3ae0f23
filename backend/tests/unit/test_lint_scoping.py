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
