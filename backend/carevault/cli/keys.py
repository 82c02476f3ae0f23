"""`carevault keys …`: the encryption key ring (its KMS commands are in carevault.cli.kms).

The runbook (docs/how-to/key-rotation.md) is: `keys rotate` (pending) → wait for activation (or
`keys activate N` once every process has had time to load it) → `reencrypt` → `keys retire
OLD`; and, to end a practice, `workspaces shred`.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

import typer
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.cli.common import (
    database_url_for,
    fail,
    friendly_errors,
    load_settings,
    with_database,
)
from carevault.config import Settings
from carevault.crypto import KeyRing, LocalFileProvider
from carevault.notifications import Kind, Notice, publish_once
from carevault.runtime import build_key_provider

keys_app = typer.Typer(no_args_is_help=True, help="The encryption key ring.")


def distribution_seconds(settings: Settings) -> float:
    """How long after a rotation every running process is sure to hold the new version."""
    return settings.key_cache_ttl_seconds + settings.key_activation_margin_seconds


async def _provision(engine: AsyncEngine) -> int:
    from carevault.crypto import current_cipher
    from carevault.workspaces.keys import provision

    async with AsyncSession(engine) as db, db.begin():
        return await provision(db, current_cipher().ring)


def _provision_if_configured(settings: Settings) -> None:
    """Create the new version's practice data keys now when a database is configured; every
    start and `carevault keys provision` create them too, so a failure here is a warning."""
    if not settings.database_url:
        typer.echo("Practice data keys for it are created when CareVault next starts.")
        return
    try:
        created = with_database(settings, _provision)
    except Exception as exc:
        typer.secho(
            f"warning: practice data keys not created now ({type(exc).__name__}); every "
            "start and `carevault keys provision` create them",
            fg=typer.colors.YELLOW,
        )
        return
    typer.echo(f"Created {created} practice data key(s).")


def announce(settings: Settings, notice: Notice, *, postgres: bool = True) -> None:
    """Tell every running process (carevault.notifications); a failure is a warning: they
    see the change at their next refresh, and every request checks revocations itself."""
    if not settings.database_url or not (postgres or settings.redis_url):
        return
    redis_url = settings.redis_url

    async def send(engine: AsyncEngine) -> None:
        await publish_once(engine, redis_url, notice)

    try:
        with_database(settings, send, keys=False)
    except Exception as exc:
        typer.secho(f"warning: running processes not told ({type(exc).__name__})", fg="yellow")


def key_age(created_at: datetime) -> str:
    """A key's age in whole days, as `keys status` and `doctor` print it."""
    days = (datetime.now(UTC) - created_at).days
    return "today" if days == 0 else f"{days} day{'s' if days != 1 else ''}"


def load_existing(settings: Settings) -> tuple[Any, KeyRing]:
    provider = build_key_provider(settings)
    return provider, provider.load()


# keys ----------------------------------------------------------------------------------------


@keys_app.command("status")
@friendly_errors
def keys_status() -> None:
    """Versions with their state and age, a pending version's activation time, warnings."""
    settings = load_settings()
    provider, ring = load_existing(settings)
    typer.echo(f"source: {provider.description}")
    if ring.remote is not None:
        from carevault.cli.kms import print_status

        typer.echo("provider: kms (master keys never leave AWS KMS; one key version, 1)")
        print_status(settings, ring)
        typer.echo(f"practice key cache of running apps: {settings.key_cache_ttl_seconds:g} s")
        return
    typer.echo(f"active version: {ring.encryption_version()}")
    typer.echo(f"{'version':>8}  {'state':<13} {'created':<26} age")
    for version in sorted(ring.keys):
        key = ring.keys[version]
        typer.echo(
            f"{version:>8}  {ring.state_of(version):<13} {key.created_at.isoformat():<26} "
            f"{key_age(key.created_at)}"
        )
    pending = ring.pending
    if pending is not None and ring.encryption_version() != pending.version:
        typer.echo(
            f"pending version {pending.version} activates at "
            f"{pending.activate_after.isoformat() if pending.activate_after else '?'}"
        )
    for warning in key_warnings(settings, ring):
        typer.secho(f"warning: {warning}", fg=typer.colors.YELLOW)
    typer.echo(f"refresh interval of running apps: {settings.key_cache_ttl_seconds:g} s")


def key_warnings(settings: Settings, ring: KeyRing) -> list[str]:
    """Age of the key in use against the rotation policy (CAREVAULT_KEY_MAX_AGE_DAYS)."""
    if ring.remote is not None:
        return []  # KMS rotates its own key material (automatic rotation)
    active = ring.keys[ring.encryption_version()]
    age = datetime.now(UTC) - active.created_at
    if age > timedelta(days=settings.key_max_age_days):
        return [
            f"the active key version {active.version} is {age.days} days old, older than "
            f"CAREVAULT_KEY_MAX_AGE_DAYS={settings.key_max_age_days}: run `carevault keys rotate`"
        ]
    return []


@keys_app.command("rotate")
@friendly_errors
def keys_rotate(
    activate_in: Annotated[
        float | None,
        typer.Option(
            help="Seconds until the new version becomes active (default: the refresh "
            "interval + 2 x CAREVAULT_KEY_ACTIVATION_MARGIN_SECONDS; minimum: the refresh "
            "interval + the margin, so every running process has loaded it first)"
        ),
    ] = None,
) -> None:
    """Add a new key version as pending: decryptable everywhere at once, used for new values
    only from its activation time."""
    settings = load_settings()
    minimum = distribution_seconds(settings)
    delay = minimum + settings.key_activation_margin_seconds if activate_in is None else activate_in
    if delay < minimum:
        raise fail(
            f"--activate-in must be at least {minimum:g} s (the refresh interval "
            f"{settings.key_cache_ttl_seconds:g} s + {settings.key_activation_margin_seconds:g} "
            "s), so no "
            "process meets a version it has not loaded"
        )
    provider, ring = load_existing(settings)
    ring = ring.settled()
    at = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=delay)
    rotated = ring.rotated(activate_after=at)
    provider.store(rotated)
    version = rotated.pending_version
    typer.echo(
        f"Key version {version} is pending in {provider.description}: every process can "
        f"decrypt with it within {settings.key_cache_ttl_seconds:g} s, and it becomes active "
        f"at {at.isoformat()}."
    )
    _provision_if_configured(settings)
    typer.echo(
        f"Next: after activation run `carevault reencrypt`, then `carevault keys retire "
        f"{ring.active_version}`."
    )


@keys_app.command("activate")
@friendly_errors
def keys_activate(
    version: Annotated[int, typer.Argument(help="The pending version")],
) -> None:
    """Make a pending version active now, once every process has had time to load it."""
    settings = load_settings()
    provider, ring = load_existing(settings)
    if ring.pending_version != version:
        raise fail(f"key version {version} is not pending")
    key = ring.keys[version]
    ready_at = key.created_at + timedelta(seconds=distribution_seconds(settings))
    if datetime.now(UTC) < ready_at:
        raise fail(
            f"key version {version} may be activated from {ready_at.isoformat()} (one "
            "refresh interval after the rotation, so every process has loaded it)"
        )
    provider.store(ring.activated(version))
    _provision_if_configured(settings)
    announce(settings, Notice(Kind.KEY_ACTIVATED))
    typer.echo(f"Key version {version} is active. Next: `carevault reencrypt`.")


@keys_app.command("provision")
@friendly_errors
def keys_provision() -> None:
    """Create missing practice data keys for the active and pending versions (idempotent;
    also done at every start)."""
    settings = load_settings()
    created = with_database(settings, _provision)
    typer.echo(f"Created {created} practice data key(s).")


@keys_app.command("retire")
@friendly_errors
def keys_retire(
    version: Annotated[int, typer.Argument(help="The version to retire")],
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation")] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Retire even though values still use it")
    ] = False,
) -> None:
    """Destroy a version's key material (and the practice data keys it wrapped). Refused
    while any stored value still uses it, unless --force."""
    from carevault.lifecycle.reencrypt import values_under_version
    from carevault.workspaces.keys import destroy_version

    settings = load_settings()
    provider, ring = load_existing(settings)
    # A pending version whose time has come is the active one, though the document still
    # names its predecessor: record that first, or the old version could never be retired.
    ring = ring.settled()
    ring.with_retired(version)  # the ring's own refusals (active, pending, unknown) first

    async def count(engine: AsyncEngine) -> tuple[list[Any], int]:
        from carevault.workspaces.keys import index_keys_wrapped_under

        async with AsyncSession(engine) as db:
            values = await values_under_version(db, version)
            return values, await index_keys_wrapped_under(db, version)

    in_use, index_keys = with_database(settings, count, keys=False)
    for found in in_use:
        typer.echo(
            f"  {found.table}.{found.column}: {found.count} value(s) of format "
            f"0x{found.format_byte:02x} under version {version}",
            err=True,
        )
    if index_keys:
        typer.echo(f"  {index_keys} practice blind-index key(s) wrapped under it", err=True)
    if (in_use or index_keys) and not force:
        raise fail(
            f"{sum(c.count for c in in_use)} stored value(s) and {index_keys} blind-index "
            f"key(s) still use key version {version}: run `carevault reencrypt` first (or "
            "--force to make them unreadable for good)"
        )
    if not yes:
        typer.confirm(f"Key version {version}'s material will be destroyed. Continue?", abort=True)

    async def destroy(engine: AsyncEngine) -> int:
        async with AsyncSession(engine) as db, db.begin():
            return await destroy_version(db, version)

    provider.store(ring.with_retired(version))
    destroyed = with_database(settings, destroy, keys=False)
    typer.echo(
        f"Key version {version} is retired in {provider.description}; {destroyed} practice "
        "data key(s) of that version destroyed."
    )


@keys_app.command("init")
@friendly_errors
def keys_init() -> None:
    """Create the key ring in the configured provider unless it already exists; refused
    while the database holds data sealed under a ring the provider does not have."""
    from carevault.lifecycle.ring_guard import refuse_new_ring_over_sealed_data

    settings = load_settings()
    provider = build_key_provider(settings)

    def check_database() -> None:
        # The owner's URL when there is one: it exists before `db upgrade` made the app's.
        url = settings.migration_database_url or database_url_for(settings)
        refuse_new_ring_over_sealed_data(url, provider.description)

    ring, created = provider.initialize(before_create=check_database)
    verb = "Created" if created else "Found existing"
    typer.echo(f"{verb} key ring in {provider.description}; active version {ring.active_version}.")


@keys_app.command("add-audit-key")
@friendly_errors
def keys_add_audit_key() -> None:
    """Add the audit-trail sealing key to a ring made before it existed (no-op if present)."""
    from dataclasses import replace

    from carevault.crypto.keyring import new_key_material

    settings = load_settings()
    provider, ring = load_existing(settings)
    if ring.audit_key is not None:
        typer.echo(f"The key ring in {provider.description} already has an audit key.")
        return
    provider.store(replace(ring, audit_key=new_key_material()))
    typer.echo(
        f"Added an audit key to {provider.description}. Running apps start sealing "
        f"within {settings.key_cache_ttl_seconds:g} s."
    )


@keys_app.command("generate")
@friendly_errors
def keys_generate(
    output: Annotated[Path, typer.Option(help="File to write (mode 0600); never printed")],
) -> None:
    """Write a new key ring to a file, e.g. to load into a secret or CAREVAULT_KEYRING_JSON."""
    if output.exists():
        raise fail(f"{output} exists; refusing to overwrite a key ring")
    LocalFileProvider(output).initialize()
    typer.echo(f"Wrote a new key ring to {output} (mode 0600).")
