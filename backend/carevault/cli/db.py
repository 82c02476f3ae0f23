"""`carevault db upgrade`: migrations as the schema owner, then the runtime role."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from carevault.cli.common import (
    database_url_for,
    fail,
    friendly_errors,
    load_settings,
    one_off_engine,
    run_async,
)

db_app = typer.Typer(no_args_is_help=True, help="Database schema.")


@db_app.command("upgrade")
@friendly_errors
def db_upgrade(
    revision: Annotated[str, typer.Argument(help="Target revision")] = "head",
) -> None:
    """Apply migrations as the schema owner, then set up the runtime role's privileges."""
    from carevault.db.migrate import upgrade
    from carevault.db.roles import RoleSetupError, runtime_role_for, sealer_role_for

    settings = load_settings()
    url = database_url_for(settings)
    owner_url = settings.migration_database_url or url
    try:
        role = runtime_role_for(owner_url, url)
        sealer = sealer_role_for(owner_url, url, settings.audit_sealer_database_url)
    except RoleSetupError as exc:
        raise fail(str(exc)) from None
    upgrade(owner_url, revision)
    typer.echo(f"Database upgraded to {revision}.")
    if role is None:
        typer.echo(
            "The app and migrations use the same database role (development): no separate "
            "runtime role to set up. In production set CAREVAULT_MIGRATION_DATABASE_URL."
        )
        return
    try:
        created = run_async(_setup_runtime_role(owner_url, role, separate_sealer=bool(sealer)))
        sealer_created = run_async(_setup_sealer_role(owner_url, sealer)) if sealer else None
    except RoleSetupError as exc:
        raise fail(str(exc)) from None
    typer.echo(
        f"{'Created' if created else 'Updated'} runtime role {role.name!r}: no DDL, no "
        "TRUNCATE, audit tables append-only (SELECT, INSERT"
        + (", seals only SELECT)." if sealer else ").")
    )
    if sealer is not None:
        typer.echo(
            f"{'Created' if sealer_created else 'Updated'} sealer role {sealer.name!r}: reads "
            "audit events, appends seals and checkpoint records, nothing else."
        )


async def _setup_runtime_role(owner_url: str, role: Any, *, separate_sealer: bool) -> bool:
    from carevault.db.roles import ensure_runtime_role

    async with one_off_engine(owner_url) as engine:
        return await ensure_runtime_role(engine, role, separate_sealer=separate_sealer)


async def _setup_sealer_role(owner_url: str, role: Any) -> bool:
    from carevault.db.roles import ensure_sealer_role

    async with one_off_engine(owner_url) as engine:
        return await ensure_sealer_role(engine, role)
