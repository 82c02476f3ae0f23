"""The `carevault` command tree, assembled from the modules that define each group."""

from __future__ import annotations

import typer

import carevault.db.models  # noqa: F401  (every mapped table, so foreign keys resolve at flush)
from carevault.cli import doctor, kms, server
from carevault.cli.audit import register as register_audit_commands
from carevault.cli.common import friendly_errors
from carevault.cli.db import db_app
from carevault.cli.export import export as export_command
from carevault.cli.imports import import_app
from carevault.cli.keys import keys_app
from carevault.cli.reencrypt import reencrypt, reindex_phones
from carevault.cli.users import users_app
from carevault.cli.workspaces import workspaces_app

app = typer.Typer(no_args_is_help=True, help="CareVault: practice management with encrypted PHI.")
audit_app = typer.Typer(no_args_is_help=True, help="The audit trail.")
register_audit_commands(audit_app)  # seal, checkpoint, verify, export
kms.register(keys_app, workspaces_app)  # `keys rewrap`, `workspaces set-key`

# The order here is the order of `carevault --help`: commands first, then groups.
app.command()(server.run)
app.command()(server.serve)
app.command()(doctor.doctor)
app.add_typer(db_app, name="db")
app.add_typer(users_app, name="users")
app.add_typer(audit_app, name="audit")
app.add_typer(import_app, name="import")
app.command("export")(export_command)
app.add_typer(keys_app, name="keys")
app.command("reencrypt")(friendly_errors(reencrypt))
app.command("reindex-phones")(friendly_errors(reindex_phones))
app.add_typer(workspaces_app, name="workspaces")


def main() -> None:
    app()
