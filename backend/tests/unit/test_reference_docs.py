"""The hand-written reference pages name everything they are the reference for: every setting
is in docs/reference/configuration.md and every `carevault` command in docs/reference/cli.md,
so a new one fails here until it is documented."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

from carevault.cli.commands import app
from carevault.config import Settings

REFERENCE = Path(__file__).resolve().parents[3] / "docs" / "reference"


def command_paths(command: Any, prefix: tuple[str, ...] = ()) -> Iterator[str]:
    """`db upgrade`, `keys rotate`, …: the leaves of the command tree."""
    subcommands = getattr(command, "commands", None)
    if not subcommands:
        yield " ".join(prefix)
        return
    for name, sub in subcommands.items():
        yield from command_paths(sub, (*prefix, name))


def test_every_setting_is_in_the_configuration_reference() -> None:
    page = (REFERENCE / "configuration.md").read_text(encoding="utf-8")
    prefix = str(Settings.model_config.get("env_prefix", ""))
    assert prefix == "CAREVAULT_"
    missing = [
        f"{prefix}{name.upper()}"
        for name in Settings.model_fields
        if f"`{prefix}{name.upper()}`" not in page
    ]
    assert not missing, f"not in docs/reference/configuration.md: {missing}"


def test_every_command_is_in_the_cli_reference() -> None:
    page = (REFERENCE / "cli.md").read_text(encoding="utf-8")
    paths = sorted(command_paths(typer.main.get_command(app)))
    assert "db upgrade" in paths and "keys rotate" in paths  # the walk reaches the groups
    missing = [
        path for path in paths if not re.search(rf"`(carevault )?{re.escape(path)}[` \[]", page)
    ]
    assert not missing, f"not in docs/reference/cli.md: {missing}"
