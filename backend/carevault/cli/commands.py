"""The `carevault` command tree, assembled from the modules that define each group."""

from __future__ import annotations

import typer

import carevault.db.models  # noqa: F401  (every mapped table, so foreign keys resolve at flush)
from carevault.audit.cli import register as register_audit_commands
from carevault.cli import doctor, server
from carevault.cli.db import db_app
from carevault.cli.imports import import_app
from carevault.cli.users import users_app
from carevault.exports.cli import export as export_command
from carevault.lifecycle.cli import register as register_lifecycle_commands

app = typer.Typer(no_args_is_help=True, help="CareVault: practice management with encrypted PHI.")
audit_app = typer.Typer(no_args_is_help=True, help="The audit trail.")
register_audit_commands(audit_app)  # seal, checkpoint, verify, export

# The order here is the order of `carevault --help`: commands first, then groups.
app.command()(server.run)
app.command()(server.serve)
app.command()(doctor.doctor)
app.add_typer(db_app, name="db")
app.add_typer(users_app, name="users")
app.add_typer(audit_app, name="audit")
app.add_typer(import_app, name="import")
app.command("export")(export_command)
register_lifecycle_commands(app)  # `reencrypt`, and the `keys` and `workspaces` groups


def main() -> None:
    app()
