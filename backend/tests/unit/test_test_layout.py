"""Test modules share helpers through tests/support and fixtures through conftest.py files,
never by importing one another: importing a test module runs (and, under pytest, can collect
twice) its tests, and ties unrelated suites together. ruff's banned-api cannot say
"any tests.*.test_* module", hence this check."""

from __future__ import annotations

import ast
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[3]
# (directory the dotted names start from, directory scanned)
SCANNED = (
    (REPOSITORY / "backend", REPOSITORY / "backend" / "tests"),
    (REPOSITORY, REPOSITORY / "tools"),
)


def imported_modules(path: Path, source_root: Path) -> list[tuple[int, str]]:
    """(line, absolute dotted name) of every module `path` imports, relative imports
    resolved against the package `path` is in (dotted from `source_root`)."""
    package = path.relative_to(source_root).parent.parts
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.append((node.lineno, base))
            # `from tests.api import test_auth` names the module in the imported names.
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return found


def is_test_module(dotted: str) -> bool:
    parts = dotted.split(".")
    return parts[0] == "tests" and any(
        part == "conftest" or part.startswith("test_") for part in parts[1:]
    )


def cross_imports(scanned: tuple[tuple[Path, Path], ...] = SCANNED) -> list[str]:
    offenders = []
    for source_root, directory in scanned:
        for path in sorted(directory.rglob("*.py")):
            for line, dotted in imported_modules(path, source_root):
                if is_test_module(dotted):
                    offenders.append(f"{path.relative_to(source_root)}:{line} imports {dotted}")
    return offenders


def test_no_module_imports_a_test_module_or_a_conftest() -> None:
    assert cross_imports() == [], "move what is shared into backend/tests/support/"


def test_the_check_sees_each_way_of_importing_a_test_module(tmp_path: Path) -> None:
    probe = tmp_path / "tests" / "api" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "from tests.api.test_auth import something\n"
        "import tests.integration.test_cli\n"
        "from tests.api import test_clients\n"
        "from .test_session_notes import practice\n"
        "from tests.conftest import PgServer\n"
        "from tests.support.db import sql\n"
        "import tests.support.http\n"
    )
    found = cross_imports(((tmp_path, tmp_path / "tests"),))
    assert found == [
        "tests/api/probe.py:1 imports tests.api.test_auth",
        "tests/api/probe.py:1 imports tests.api.test_auth.something",
        "tests/api/probe.py:2 imports tests.integration.test_cli",
        "tests/api/probe.py:3 imports tests.api.test_clients",
        "tests/api/probe.py:4 imports tests.api.test_session_notes",
        "tests/api/probe.py:4 imports tests.api.test_session_notes.practice",
        "tests/api/probe.py:5 imports tests.conftest",
        "tests/api/probe.py:5 imports tests.conftest.PgServer",
    ]
