"""The `carevault` command."""

from __future__ import annotations

import asyncio
import getpass
import os
import signal
import sys
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from pydantic import ValidationError

import carevault.db.models  # noqa: F401  (every mapped table, so foreign keys resolve at flush)
from carevault.config import Settings, get_settings
from carevault.crypto import FieldCipher, KeyRing, KeyRingError, LocalFileProvider, StaticRing
from carevault.runtime import StartupError, build_key_provider, resolve_database_url

app = typer.Typer(no_args_is_help=True, help="CareVault: practice management with encrypted PHI.")
db_app = typer.Typer(no_args_is_help=True, help="Database schema.")
users_app = typer.Typer(no_args_is_help=True, help="User accounts.")
keys_app = typer.Typer(no_args_is_help=True, help="The encryption key ring.")
audit_app = typer.Typer(no_args_is_help=True, help="The audit trail.")
import_app = typer.Typer(no_args_is_help=True, help="Bulk imports.")
app.add_typer(db_app, name="db")
app.add_typer(users_app, name="users")
app.add_typer(keys_app, name="keys")
app.add_typer(audit_app, name="audit")
app.add_typer(import_app, name="import")

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int = 2) -> typer.Exit:
    typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
    return typer.Exit(code)


def friendly_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Expected failures print one clear line instead of a traceback."""

    @wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except ValidationError as exc:
            messages = "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())
            raise fail(f"invalid configuration: {messages}") from None
        except (StartupError, KeyRingError) as exc:
            raise fail(str(exc)) from None

    return wrapper


def load_settings() -> Settings:
    get_settings.cache_clear()
    return get_settings()


def configure_logging(settings: Settings) -> None:
    from carevault.observability.logging import configure_logging as configure

    configure(settings.log_level, json_format=settings.json_logs)


def run_async(coroutine: Coroutine[Any, Any, R]) -> R:
    return asyncio.run(coroutine)


def database_url_for(settings: Settings) -> str:
    if settings.database_url is None:
        typer.echo(f"Starting the embedded PostgreSQL under {settings.data_dir / 'postgres'} …")
    return resolve_database_url(settings)


# --- run / serve ---------------------------------------------------------------------------


@app.command()
@friendly_errors
def run(
    port: Annotated[int | None, typer.Option(help="Port (default CAREVAULT_PORT or 8000)")] = None,
) -> None:
    """Development: database, migrations, demo practice, and the app on one port."""
    import uvicorn

    from carevault.api.app import create_app
    from carevault.db.migrate import upgrade
    from carevault.runtime import start_key_ring

    settings = load_settings()
    configure_logging(settings)
    url = database_url_for(settings)
    typer.echo("Applying database migrations …")
    upgrade(url)
    manager = start_key_ring(settings)
    typer.echo(
        f"Key ring: {manager.provider.description}, active version {manager.ring.active_version}"
    )
    created = run_async(_seed_demo(url))
    typer.echo("Seeded the demo practice." if created else "Demo practice already present.")

    from carevault.demo.seed import DEMO_CLINICIAN_EMAIL, DEMO_OWNER_EMAIL, DEMO_PASSWORD

    bind_port = port if port is not None else settings.port
    banner = (
        f"\nCareVault is running at http://{settings.host}:{bind_port}/\n"
        f"  health:     http://{settings.host}:{bind_port}/health/ready\n"
        f"  API docs:   http://{settings.host}:{bind_port}/docs\n"
        f"  demo login: {DEMO_OWNER_EMAIL} (owner) or {DEMO_CLINICIAN_EMAIL} (clinician),\n"
        f"              password {DEMO_PASSWORD}\n"
        "Press Ctrl+C to stop.\n"
    )
    application = create_app(settings, database_url=url, key_manager=manager)
    config = uvicorn.Config(
        application,
        host=settings.host,
        port=bind_port,
        log_level=settings.log_level,
        access_log=False,  # carevault.access logs route templates, never raw query strings
        log_config=None,
    )
    server = uvicorn.Server(config)
    original_startup = server.startup

    async def startup_then_banner(*args: Any, **kwargs: Any) -> None:
        await original_startup(*args, **kwargs)
        if server.started:
            typer.echo(banner)

    server.startup = startup_then_banner  # type: ignore[method-assign]
    # uvicorn re-raises SIGTERM after its graceful shutdown; exiting normally instead lets
    # the embedded database stop with us (its atexit hook).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.run()
    finally:
        manager.stop()


async def _seed_demo(url: str) -> bool:
    from carevault.db.engine import create_engine, session_factory
    from carevault.demo.seed import seed_demo

    engine = create_engine(url, pool_size=1)
    try:
        async with session_factory(engine)() as db, db.begin():
            return await seed_demo(db)
    finally:
        await engine.dispose()


@app.command()
@friendly_errors
def serve(
    workers: Annotated[int, typer.Option(min=1, help="Worker processes")] = 1,
    port: Annotated[int | None, typer.Option(help="Port (default CAREVAULT_PORT)")] = None,
) -> None:
    """Serve the API (no migrations, no demo data): the production entry point."""
    import uvicorn

    from carevault.db.engine import create_engine
    from carevault.db.migrate import current_revision, head_revision

    settings = load_settings()
    configure_logging(settings)
    url = database_url_for(settings)

    async def revision() -> str | None:
        engine = create_engine(url, pool_size=1)
        try:
            return await current_revision(engine)
        finally:
            await engine.dispose()

    current, head = run_async(revision()), head_revision()
    if current != head:
        raise fail(
            f"the database schema is at {current or 'nothing'}, this version needs "
            f"{head}: run `carevault db upgrade` first"
        )
    # Workers resolve settings themselves; hand them the database actually in use.
    os.environ["CAREVAULT_DATABASE_URL"] = url
    uvicorn.run(
        "carevault.api.main:app_from_environment",
        factory=True,
        host=settings.host,
        port=port if port is not None else settings.port,
        workers=workers,
        log_level=settings.log_level,
        proxy_headers=True,
        access_log=False,  # carevault.access logs route templates, never raw query strings
        log_config=None,
    )


# --- db ------------------------------------------------------------------------------------


@db_app.command("upgrade")
@friendly_errors
def db_upgrade(
    revision: Annotated[str, typer.Argument(help="Target revision")] = "head",
) -> None:
    """Apply migrations (alembic upgrade)."""
    from carevault.db.migrate import upgrade

    settings = load_settings()
    url = database_url_for(settings)
    upgrade(url, revision)
    typer.echo(f"Database upgraded to {revision}.")


# --- users ---------------------------------------------------------------------------------


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
    from carevault.db.engine import create_engine, session_factory
    from carevault.workspaces.service import get_or_create

    try:
        role_value = Role(role)
    except ValueError:
        raise fail("--role must be owner or clinician") from None
    settings = load_settings()
    url = database_url_for(settings)
    password = read_password()

    async def create() -> tuple[bool, str]:
        engine = create_engine(url, pool_size=1)
        try:
            async with session_factory(engine)() as db, db.begin():
                space, created = await get_or_create(db, workspace)
                user = await create_user(
                    db, space, email=email, password=password, role=role_value, display_name=name
                )
                return created, str(user.id)
        finally:
            await engine.dispose()

    try:
        workspace_created, user_id = run_async(create())
    except UserError as exc:
        raise fail(str(exc)) from None
    if workspace_created:
        typer.echo(f"Created workspace {workspace!r}.")
    typer.echo(f"Created {role_value.value} {email} ({user_id}).")


# --- keys ----------------------------------------------------------------------------------


def _age(created_at: datetime) -> str:
    days = (datetime.now(UTC) - created_at).days
    return "today" if days == 0 else f"{days} day{'s' if days != 1 else ''}"


@keys_app.command("status")
@friendly_errors
def keys_status() -> None:
    """Versions, the active one, their age, and where the ring comes from."""
    settings = load_settings()
    provider = build_key_provider(settings)
    if isinstance(provider, LocalFileProvider):
        provider.create_if_missing = False
    ring = provider.load()
    typer.echo(f"source: {provider.description}")
    typer.echo(f"active version: {ring.active_version}")
    typer.echo(f"{'version':>8}  {'state':<13} {'created':<26} age")
    for version in sorted(ring.keys):
        key = ring.keys[version]
        state = (
            "active"
            if version == ring.active_version
            else ("retired" if key.retired else "decrypt-only")
        )
        typer.echo(
            f"{version:>8}  {state:<13} {key.created_at.isoformat():<26} {_age(key.created_at)}"
        )
    typer.echo(f"refresh interval of running apps: {settings.key_cache_ttl_seconds:g} s")


@keys_app.command("rotate")
@friendly_errors
def keys_rotate() -> None:
    """Add a new key version and make it active. Older versions keep decrypting."""
    settings = load_settings()
    provider = build_key_provider(settings)
    rotated = provider.load().rotated()
    provider.store(rotated)
    typer.echo(
        f"Key version {rotated.active_version} is now active in {provider.description}.\n"
        f"Running apps switch to it within {settings.key_cache_ttl_seconds:g} s; "
        "existing rows keep decrypting with their own version."
    )


@keys_app.command("retire")
@friendly_errors
def keys_retire(
    version: Annotated[int, typer.Argument(help="The version to retire")],
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation")] = False,
) -> None:
    """Refuse a version for decryption from now on. Re-encrypt its rows first."""
    settings = load_settings()
    provider = build_key_provider(settings)
    ring = provider.load()
    if not yes:
        typer.confirm(
            f"Rows still encrypted under version {version} will no longer decrypt. Continue?",
            abort=True,
        )
    provider.store(ring.with_retired(version))
    typer.echo(f"Key version {version} is retired in {provider.description}.")


@keys_app.command("init")
@friendly_errors
def keys_init() -> None:
    """Create the key ring in the configured provider unless it already exists."""
    settings = load_settings()
    provider = build_key_provider(settings)
    ring, created = provider.initialize()
    verb = "Created" if created else "Found existing"
    typer.echo(f"{verb} key ring in {provider.description}; active version {ring.active_version}.")


@keys_app.command("generate")
@friendly_errors
def keys_generate(
    output: Annotated[Path, typer.Option(help="File to write (mode 0600); never printed")],
) -> None:
    """Write a new key ring to a file, e.g. to load into a secret or CAREVAULT_KEYRING_JSON."""
    if output.exists():
        raise fail(f"{output} exists; refusing to overwrite a key ring")
    LocalFileProvider(output).store(KeyRing.generate())
    typer.echo(f"Wrote a new key ring to {output} (mode 0600).")


# --- import --------------------------------------------------------------------------------


@import_app.command("clients")
@friendly_errors
def import_clients(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True)],
    workspace: Annotated[str, typer.Option(help="The workspace to import into")],
    file_format: Annotated[
        str | None, typer.Option("--format", help="csv or jsonl (default: from the file name)")
    ] = None,
    ignore_unknown_columns: Annotated[
        bool, typer.Option(help="Drop columns CareVault does not know instead of refusing")
    ] = False,
) -> None:
    """Import clients from CSV or JSON lines: all rows or none, bad rows listed by line."""
    from rich.progress import Progress

    from carevault.audit.service import Actor
    from carevault.clients import importing
    from carevault.db.engine import create_engine, session_factory
    from carevault.runtime import start_key_ring
    from carevault.workspaces.service import get_by_name

    if file_format not in (None, "csv", "jsonl"):
        raise fail("--format must be csv or jsonl")
    settings = load_settings()
    text = file.read_text(encoding="utf-8-sig")
    chosen = file_format or importing.detect_format(file.name, text)
    try:
        records = importing.validate(
            importing.read_rows(text, chosen),  # type: ignore[arg-type]
            ignore_unknown_columns=ignore_unknown_columns,
        )
    except importing.ImportRejected as rejected:
        for error in rejected.errors:
            where = f" {error.field}" if error.field else ""
            typer.echo(f"line {error.line}{where}: {error.message}", err=True)
        more = rejected.total_errors - len(rejected.errors)
        if more > 0:
            typer.echo(f"… and {more} more", err=True)
        raise fail(
            f"{rejected.total_errors} problem(s) in {file.name}; nothing was imported", code=1
        ) from None
    url = database_url_for(settings)
    manager = start_key_ring(settings)

    async def run_import() -> int:
        engine = create_engine(url, pool_size=1)
        try:
            with Progress(transient=True, disable=not sys.stderr.isatty()) as bar:
                task = bar.add_task("Importing clients", total=len(records))
                async with session_factory(engine)() as db, db.begin():
                    space = await get_by_name(db, workspace)
                    if space is None:
                        raise fail(f"no workspace named {workspace!r}")
                    return await importing.import_clients(
                        db,
                        Actor(space.id),
                        space.id,
                        records,
                        source=f"cli:{file.name}",
                        progress=lambda n: bar.advance(task, n),
                    )
        finally:
            await engine.dispose()

    try:
        count = run_async(run_import())
    finally:
        manager.stop()
    typer.echo(f"Imported {count} clients into {workspace!r}.")


# --- audit ---------------------------------------------------------------------------------


@audit_app.command("verify")
@friendly_errors
def audit_verify() -> None:
    """Check the audit trail's hash chains; report the first broken link of each."""
    from carevault.audit.service import verify_chain
    from carevault.db.engine import create_engine, session_factory

    settings = load_settings()
    url = database_url_for(settings)

    async def verify() -> tuple[int, list[Any]]:
        engine = create_engine(url, pool_size=1)
        try:
            async with session_factory(engine)() as db:
                return await verify_chain(db)
        finally:
            await engine.dispose()

    checked, broken = run_async(verify())
    if not broken:
        typer.echo(f"Checked {checked} audit events: every chain is intact.")
        return
    for link in broken:
        where = (
            f"workspace {link.workspace_id}" if link.workspace_id else "events without workspace"
        )
        typer.secho(
            f"BROKEN: {where}: first broken link at event {link.event_id}: {link.reason}",
            fg=typer.colors.RED,
        )
    typer.echo(f"Checked {checked} audit events; {len(broken)} chain(s) broken.")
    raise typer.Exit(1)


# --- doctor --------------------------------------------------------------------------------


@app.command()
def doctor() -> None:
    """Check configuration, key ring, database, migrations and pgcrypto."""
    failures = 0

    def report(ok: bool | None, what: str, detail: str) -> None:
        nonlocal failures
        mark = {True: "ok  ", False: "FAIL", None: "warn"}[ok]
        color = {True: typer.colors.GREEN, False: typer.colors.RED, None: typer.colors.YELLOW}
        typer.secho(f"[{mark}] {what}: {detail}", fg=color[ok])
        failures += ok is False

    try:
        settings = load_settings()
    except ValidationError as exc:
        messages = "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())
        report(False, "configuration", messages)
        raise typer.Exit(1) from None
    report(True, "configuration", f"{settings.env.value}, PHI backend {settings.phi_backend.value}")

    provider = build_key_provider(settings)
    if isinstance(provider, LocalFileProvider):
        provider.create_if_missing = False
    try:
        ring = provider.load()
        cipher = FieldCipher(StaticRing(ring))
        probe = "doctor self-test"
        assert cipher.decrypt(cipher.encrypt(probe, b"doctor.probe"), b"doctor.probe") == probe
        report(
            True,
            "key ring",
            f"{provider.description}, active version {ring.active_version}"
            f" of {len(ring.keys)}, encrypt/decrypt self-test passed",
        )
    except KeyRingError as exc:
        report(False, "key ring", str(exc))

    try:
        url = database_url_for(settings)
        revision, head, pgcrypto = run_async(_database_facts(url))
        report(True, "database", "reachable")
        report(
            revision == head,
            "migrations",
            f"at {revision or 'nothing'}, code expects {head}"
            + ("" if revision == head else " (run `carevault db upgrade`)"),
        )
        needs_pgcrypto = settings.phi_backend.value == "pgcrypto"
        report(
            True if pgcrypto else (False if needs_pgcrypto else None),
            "pgcrypto",
            "available"
            if pgcrypto
            else "not installed in this database (the fallback backend "
            "is unavailable; the default aesgcm backend does not need it)",
        )
    except Exception as exc:  # doctor reports every failure instead of stopping at the first
        report(False, "database", f"{type(exc).__name__}: {exc}")
    raise typer.Exit(1 if failures else 0)


async def _database_facts(url: str) -> tuple[str | None, str | None, bool]:
    from carevault.db.engine import create_engine
    from carevault.db.migrate import current_revision, head_revision
    from carevault.runtime import pgcrypto_available

    engine = create_engine(url, pool_size=1)
    try:
        return await current_revision(engine), head_revision(), await pgcrypto_available(engine)
    finally:
        await engine.dispose()


def main() -> None:
    app()
