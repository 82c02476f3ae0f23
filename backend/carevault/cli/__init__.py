"""The `carevault` command.

One module per command group: `server` (run, serve), `db`, `users`, `imports` (import
clients) and `doctor`; the audit, keys, reencrypt and workspaces commands live beside their
domains (carevault/audit/cli.py, carevault/lifecycle/cli.py). `common` holds what they all
share; `commands` assembles the tree into `app`.

`app` and `main` are loaded on first use rather than here, so that a domain's command
module can import `carevault.cli.common` first without this package importing it back
through the assembly, half initialised.
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
