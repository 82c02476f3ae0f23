"""Lint: every query on a workspace-scoped model goes through the scoping helpers.

Tenant isolation rests on one habit: a statement on a table with a `workspace_id` starts from
`in_workspace(...)` (or `WorkspaceRepository`) or filters with `workspace_filter(...)`
(carevault/db/scoping.py). This check reads the product's source and flags any statement
that names a workspace-scoped model in `select(...)`, `update(...)`, `delete(...)`
or `session.get(...)` without one of those helpers in the same statement.

A query that is deliberately not scoped (resolving an API token from its digest, finding a
user by email at sign-in: the workspace is what the query finds out) says so on its line or
the line above: `# unscoped: <why>`. The reason is required.

Chart access (carevault/clients/access.py) is the second habit: in every module that serves
a caller (it imports carevault.auth.principal), a statement on clients, appointments or
notes (CHART_MODELS, named in `select`/`update`/`delete`/`get`, `in_workspace`,
`workspace_filter` or a `WorkspaceRepository`) also goes through `charted(...)` or
`chart_condition(...)`, so a clinician outside a client's care team cannot reach the chart
through it. A statement that deliberately spans every chart (an overlap check that must see
the whole calendar, telling 403 from 404) says so: `# chart-wide: <why>`.

    python -m tools.lint_scoping          # exit 1 and one line per finding
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "backend" / "carevault"
# INSERTs are left out: the new row carries the workspace it is given, and the model requires it.
STATEMENTS = {"select", "update", "delete"}
SCOPING_HELPERS = {"in_workspace", "workspace_filter", "WorkspaceRepository"}
WAIVER = "# unscoped:"
# Where the helpers themselves live, and the migrations' own SQL.
EXEMPT = {PACKAGE / "db" / "scoping.py"}

# Whose rows belong to one client's chart, and the helpers that limit them to the caller's.
CHART_MODELS = {"Client", "Appointment", "SessionNote", "SessionNoteVersion"}
CHART_STATEMENTS = STATEMENTS | {"get", "in_workspace", "workspace_filter", "WorkspaceRepository"}
CHART_HELPERS = {"charted", "chart_condition"}
CHART_WAIVER = "# chart-wide:"
CHART_EXEMPT = {PACKAGE / "clients" / "access.py"}
# A module that imports this serves a caller (it takes a Principal): its chart statements
# are checked.
SERVES_A_CALLER = "carevault.auth.principal"


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    model: str
    chart: bool = False

    def __str__(self) -> str:
        where = self.path.relative_to(ROOT)
        if self.chart:
            return (
                f"{where}:{self.line}: query on {self.model} in a module that serves a caller "
                f"without charted/chart_condition (carevault.clients.access; or "
                f"`{CHART_WAIVER} <why>`)"
            )
        return (
            f"{where}:{self.line}: query on workspace-scoped {self.model} without "
            f"in_workspace/workspace_filter/WorkspaceRepository (or `{WAIVER} <why>`)"
        )


def scoped_models() -> set[str]:
    """Class names of every mapped model with a workspace_id (WorkspaceScoped)."""
    import carevault.db.models  # noqa: F401  (registers every model)
    from carevault.db.base import Base, WorkspaceScoped

    return {
        m.class_.__name__ for m in Base.registry.mappers if issubclass(m.class_, WorkspaceScoped)
    }


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _model_named(node: ast.expr, models: set[str]) -> str | None:
    """`Client` or `Client.id`: the model a statement argument names, if scoped."""
    if isinstance(node, ast.Attribute):
        node = node.value
    if isinstance(node, ast.Name) and node.id in models:
        return node.id
    return None


def _statements(tree: ast.Module) -> Iterator[ast.stmt]:
    """Simple statements (and the headers of compound ones): the unit a query is checked in."""
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not isinstance(
            node,
            ast.FunctionDef
            | ast.AsyncFunctionDef
            | ast.ClassDef
            | ast.If
            | ast.For
            | ast.AsyncFor
            | ast.While
            | ast.With
            | ast.AsyncWith
            | ast.Try,
        ):
            yield node


def _waived(lines: list[str], line: int, waiver: str) -> bool:
    """`waiver <why>` on the line or the line above (the reason is required)."""
    window = lines[max(0, line - 2) : line]
    return any(waiver in text and text.split(waiver, 1)[1].strip() for text in window)


def _serves_a_caller(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == SERVES_A_CALLER:
            return True
        if isinstance(node, ast.Import) and any(a.name == SERVES_A_CALLER for a in node.names):
            return True
    return False


def check_source(
    path: Path, source: str, models: set[str], *, chart: bool | None = None
) -> list[Finding]:
    """`chart`: check chart access too (default: when the module serves a caller)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    if chart is None:
        chart = path not in CHART_EXEMPT and _serves_a_caller(tree)
    findings: list[Finding] = []
    for statement in _statements(tree):
        calls = [node for node in ast.walk(statement) if isinstance(node, ast.Call)]
        names = {_called_name(call) for call in calls}
        if chart and not names & CHART_HELPERS:
            findings.extend(_chart_findings(path, lines, calls))
        if names & SCOPING_HELPERS:
            continue
        for call in calls:
            name = _called_name(call)
            if name not in STATEMENTS and name != "get":
                continue
            arguments = call.args[:1] if name == "get" else call.args
            model = next((m for m in map(lambda a: _model_named(a, models), arguments) if m), None)
            if model is None:
                continue
            if _waived(lines, call.lineno, WAIVER):
                continue
            findings.append(Finding(path, call.lineno, model))
    return findings


def _chart_findings(path: Path, lines: list[str], calls: list[ast.Call]) -> Iterator[Finding]:
    """The first call in one statement (which uses no chart helper) naming a chart model."""
    for call in calls:
        name = _called_name(call)
        if name not in CHART_STATEMENTS:
            continue
        arguments = call.args[:1] if name in ("get", "WorkspaceRepository") else call.args
        model = next(
            (m for m in map(lambda a: _model_named(a, CHART_MODELS), arguments) if m), None
        )
        if model is None or _waived(lines, call.lineno, CHART_WAIVER):
            continue
        yield Finding(path, call.lineno, model, chart=True)
        return  # one finding per statement


def check(package: Path = PACKAGE) -> list[Finding]:
    models = scoped_models()
    findings: list[Finding] = []
    for path in sorted(package.rglob("*.py")):
        if path in EXEMPT:
            continue
        findings.extend(check_source(path, path.read_text(encoding="utf-8"), models))
    return findings


def main() -> int:
    findings = check()
    for finding in findings:
        print(finding)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
