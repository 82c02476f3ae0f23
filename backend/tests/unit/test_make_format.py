"""`make format` fixes what `make lint` checks: the same directories for ruff's linter and
formatter, and the UI's formatter on what the UI's lint checks. Read from the Makefile and
frontend/package.json, so adding a directory to one target and not the other fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def recipe(target: str) -> list[str]:
    """The command lines of a Makefile target."""
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"{target}:", line))
    commands = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        commands.append(line.strip())
    return commands


def ruff_paths(commands: list[str], subcommand: str) -> set[str]:
    """The paths given to `ruff <subcommand>` (options left out)."""
    paths: set[str] = set()
    for command in commands:
        words = command.split()
        if len(words) > 1 and words[0].endswith("/ruff") and words[1] == subcommand:
            paths.update(word for word in words[2:] if not word.startswith("-"))
    return paths


def test_format_runs_ruffs_fixes_and_formatter_on_every_directory_lint_checks() -> None:
    lint, fix = recipe("lint"), recipe("format")
    assert ruff_paths(lint, "check"), "make lint no longer runs ruff check"
    assert ruff_paths(fix, "check") == ruff_paths(lint, "check")
    assert ruff_paths(fix, "format") == ruff_paths(lint, "format")
    assert any("ruff check --fix" in command for command in fix)
    assert any("ruff format --check" in command for command in lint)


def test_format_writes_what_the_ui_lint_checks_with_prettier() -> None:
    scripts = json.loads((ROOT / "frontend" / "package.json").read_text())["scripts"]
    assert "npm run lint" in " ".join(recipe("ui-lint"))
    checked = re.findall(r"prettier --check (\S+)", scripts["lint"])
    assert any("npm run --silent format" in command for command in recipe("format"))
    assert checked and re.findall(r"prettier --write (\S+)", scripts["format"]) == checked
