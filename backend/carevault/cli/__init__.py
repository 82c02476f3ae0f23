"""The `carevault` command.

Every command lives here, one module per command group: `server` (run, serve), `db`,
`users`, `imports` (import clients), `export`, `doctor`, `audit`, `keys` (with the KMS
commands in `kms`), `reencrypt` (and reindex-phones) and `workspaces`. `common` holds what
they all share; `commands` assembles the tree into `app`. Nothing outside this package
imports it (an import contract in pyproject.toml): the domains never know their commands.

`app` and `main` are loaded on first use rather than here, so that importing one command
module (or `common`) does not load the whole tree, and no module here is imported back
through the assembly half initialised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from carevault.cli.commands import app, main

__all__ = ["app", "main"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from carevault.cli import commands

        return getattr(commands, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
