"""The `carevault` command is a package of modules, one per command group: each imports on
its own, in any order."""

from __future__ import annotations

import subprocess
import sys

import pytest

# The modules a caller may import first: command modules (those that import one another
# among them), the shared plumbing they import, and the package (what the console script
# imports).
COMMAND_MODULES = (
    "carevault.cli.audit",
    "carevault.cli.keys",
    "carevault.cli.kms",
    "carevault.cli.workspaces",
    "carevault.cli.common",
    "carevault.cli",
)


@pytest.mark.parametrize("module", COMMAND_MODULES)
def test_a_command_module_imported_first_leaves_the_whole_command_usable(module: str) -> None:
    """Once, importing the key commands' module first failed: it imported the command,
    which imported it back while it was half initialised."""
    script = (
        f"import {module}\n"
        "from typer.testing import CliRunner\n"
        "from carevault.cli import app, main\n"
        "result = CliRunner().invoke(app, ['--help'])\n"
        "assert result.exit_code == 0, result.output\n"
        "print(callable(main), 'reencrypt' in result.output, 'workspaces' in result.output)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True"]
