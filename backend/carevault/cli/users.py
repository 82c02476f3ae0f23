"""`carevault users create | reset-password`: accounts made or rescued from the shell."""

from __future__ import annotations

import getpass
import sys
from typing import Annotated

import typer

from carevault.cli.common import (
    database_url_for,
    fail,
    friendly_errors,
    load_settings,
    one_off_session,
    run_async,
)

users_app = typer.Typer(no_args_is_help=True, help="User accounts.")


def read_password() -> str:
    if sys.stdin.isatty():
        first = getpass.getpass("Password: ")
        if getpass.getpass("Repeat password: ") != first:
            raise fail("the passwords do not match")
        return first
    return sys.stdin.readline().rstrip("\r\n")


@users_app.command("create")
@friendly_errors
def users_create(
    workspace: Annotated[str, typer.Option(help="Workspace name (created when new)")],
    email: Annotated[str, typer.Option(help="Login email")],
    role: Annotated[str, typer.Option(help="owner or clinician")] = "clinician",
    name: Annotated[str, typer.Option(help="Display name")] = "",
) -> None:
    """Create a user; the password is read from standard input."""
    from carevault.auth.models import Role
    from carevault.auth.service import UserError, create_user
    from carevault.runtime import start_key_ring
    from carevault.workspaces.service import get_or_create

    try:
        role_value = Role(role)
    except ValueError:
        raise fail("--role must be owner or clinician") from None
    settings = load_settings()
    url = database_url_for(settings)
    password = read_password()

    manager = start_key_ring(settings)  # a new practice gets its data keys at once

    async def create() -> tuple[bool, str]:
        async with one_off_session(url) as db:
            space, created = await get_or_create(
                db, workspace, settings.default_time_zone, settings.default_phone_region
            )
            user = await create_user(
                db, space, email=email, password=password, role=role_value, display_name=name
            )
            return created, str(user.id)

    try:
        workspace_created, user_id = run_async(create())
    except UserError as exc:
        raise fail(str(exc)) from None
    finally:
        manager.stop()
    if workspace_created:
        typer.echo(f"Created workspace {workspace!r}.")
    typer.echo(f"Created {role_value.value} {email} ({user_id}).")


@users_app.command("reset-password")
@friendly_errors
def users_reset_password(
    email: Annotated[str, typer.Option(help="Login email")],
    workspace: Annotated[
        str | None, typer.Option(help="The user's practice, when the address has several")
    ] = None,
) -> None:
    """Give a user a temporary password (read from standard input) that must be changed at
    the next sign-in; ends their sessions. For an owner who cannot sign in."""
    from carevault.audit.service import Actor
    from carevault.auth.service import UserError, accounts_by_email, set_temporary_password
    from carevault.workspaces.models import Workspace

    url = database_url_for(load_settings())
    password = read_password()

    async def reset() -> bool:
        async with one_off_session(url) as db:
            accounts = await accounts_by_email(db, email)
            if workspace is not None:
                names = {a.id: (await db.get_one(Workspace, a.workspace_id)).name for a in accounts}
                accounts = [a for a in accounts if names[a.id] == workspace]
            if not accounts:
                return False
            if len(accounts) > 1:
                raise fail(f"{email} has accounts in {len(accounts)} practices: add --workspace")
            user = accounts[0]
            await set_temporary_password(db, user, password, Actor(user.workspace_id))
            return True

    try:
        found = run_async(reset())
    except UserError as exc:
        raise fail(str(exc)) from None
    if not found:
        raise fail(f"no user with email {email}")
    typer.echo(f"{email} has a temporary password and must choose a new one at the next sign-in.")
