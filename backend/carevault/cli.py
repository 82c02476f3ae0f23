"""The `carevault` command."""

from __future__ import annotations

import asyncio
import getpass
import io
import os
import signal
import sys
from collections.abc import Callable, Coroutine
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from pydantic import ValidationError

import carevault.db.models  # noqa: F401  (every mapped table, so foreign keys resolve at flush)
from carevault.config import Settings, get_settings
from carevault.crypto import FieldCipher, KeyRing, KeyRingError, StaticRing
from carevault.runtime import StartupError, build_key_provider, resolve_database_url

app = typer.Typer(no_args_is_help=True, help="CareVault: practice management with encrypted PHI.")
db_app = typer.Typer(no_args_is_help=True, help="Database schema.")
users_app = typer.Typer(no_args_is_help=True, help="User accounts.")
audit_app = typer.Typer(no_args_is_help=True, help="The audit trail.")
import_app = typer.Typer(no_args_is_help=True, help="Bulk imports.")
app.add_typer(db_app, name="db")
app.add_typer(users_app, name="users")
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
    from carevault.lifecycle.ring_guard import refuse_new_ring_over_sealed_data

    provider = build_key_provider(settings)
    manager = start_key_ring(
        settings,
        provider,
        create=not settings.is_production,
        # A deleted key-ring file beside a database full of data is refused, not replaced.
        before_create=lambda: refuse_new_ring_over_sealed_data(url, provider.description),
    )
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
        proxy_headers=False,  # CAREVAULT_TRUSTED_PROXIES decides whom to believe
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
    if settings.is_production:
        problems = run_async(_audit_privilege_problems(url))
        if problems:
            # Not fatal (doctor is the gate), but never silent: the audit trail is exposed.
            typer.secho(
                "warning: the app's database role could tamper with the audit trail: "
                + "; ".join(problems)
                + ". Set CAREVAULT_MIGRATION_DATABASE_URL to the owner and run `carevault db "
                "upgrade` to serve as a least-privileged role.",
                err=True,
                fg=typer.colors.YELLOW,
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
        proxy_headers=False,  # CAREVAULT_TRUSTED_PROXIES decides whom to believe
        access_log=False,  # carevault.access logs route templates, never raw query strings
        log_config=None,
    )


# --- db ------------------------------------------------------------------------------------


@db_app.command("upgrade")
@friendly_errors
def db_upgrade(
    revision: Annotated[str, typer.Argument(help="Target revision")] = "head",
) -> None:
    """Apply migrations as the schema owner, then set up the runtime role's privileges."""
    from carevault.db.migrate import upgrade
    from carevault.db.roles import RoleSetupError, runtime_role_for

    settings = load_settings()
    url = database_url_for(settings)
    owner_url = settings.migration_database_url or url
    try:
        role = runtime_role_for(owner_url, url)
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
        created = run_async(_setup_runtime_role(owner_url, role))
    except RoleSetupError as exc:
        raise fail(str(exc)) from None
    typer.echo(
        f"{'Created' if created else 'Updated'} runtime role {role.name!r}: no DDL, no "
        "TRUNCATE, audit tables append-only (SELECT, INSERT)."
    )


async def _setup_runtime_role(owner_url: str, role: Any) -> bool:
    from carevault.db.engine import create_engine
    from carevault.db.roles import ensure_runtime_role

    engine = create_engine(owner_url, pool_size=1)
    try:
        return await ensure_runtime_role(engine, role)
    finally:
        await engine.dispose()


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
        engine = create_engine(url, pool_size=1)
        try:
            async with session_factory(engine)() as db, db.begin():
                space, created = await get_or_create(db, workspace, settings.default_time_zone)
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
    from carevault.db.engine import create_engine, session_factory
    from carevault.workspaces.models import Workspace

    url = database_url_for(load_settings())
    password = read_password()

    async def reset() -> bool:
        engine = create_engine(url, pool_size=1)
        try:
            async with session_factory(engine)() as db, db.begin():
                accounts = await accounts_by_email(db, email)
                if workspace is not None:
                    names = {
                        a.id: (await db.get_one(Workspace, a.workspace_id)).name for a in accounts
                    }
                    accounts = [a for a in accounts if names[a.id] == workspace]
                if not accounts:
                    return False
                if len(accounts) > 1:
                    raise fail(
                        f"{email} has accounts in {len(accounts)} practices: add --workspace"
                    )
                user = accounts[0]
                await set_temporary_password(db, user, password, Actor(user.workspace_id))
                return True
        finally:
            await engine.dispose()

    try:
        found = run_async(reset())
    except UserError as exc:
        raise fail(str(exc)) from None
    if not found:
        raise fail(f"no user with email {email}")
    typer.echo(f"{email} has a temporary password and must choose a new one at the next sign-in.")


# --- keys ----------------------------------------------------------------------------------


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
    """Import clients from CSV or JSON lines: all rows or none, bad rows listed by line.
    The file is streamed in batches (memory does not grow with it); progress goes to stderr."""
    from carevault.audit.service import Actor
    from carevault.clients import importing
    from carevault.clients.progress import ImportProgress
    from carevault.db.engine import create_engine, session_factory
    from carevault.runtime import start_key_ring
    from carevault.workspaces.service import get_by_name

    if file_format not in (None, "csv", "jsonl"):
        raise fail("--format must be csv or jsonl")
    settings = load_settings()
    url = database_url_for(settings)
    manager = start_key_ring(settings)

    async def run_import(binary: io.BufferedReader, progress: ImportProgress) -> int:
        head = binary.peek(4096)[:4096].decode("utf-8", errors="ignore")
        chosen = file_format or importing.detect_format(file.name, head)
        records = importing.validated(
            importing.read_rows(importing.text_lines(binary), chosen),  # type: ignore[arg-type]
            ignore_unknown_columns=ignore_unknown_columns,
            max_rows=settings.import_max_rows,
        )
        engine = create_engine(url, pool_size=1)
        try:
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
                    progress=progress.advance,
                )
        finally:
            await engine.dispose()

    try:
        with (
            file.open("rb") as binary,
            ImportProgress(file.stat().st_size, binary.tell) as progress,
        ):
            count = run_async(run_import(binary, progress))
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
    finally:
        manager.stop()
    typer.echo(
        f"Imported {count} clients into {workspace!r}. "
        f"{progress.elapsed:.1f} s, {progress.rows_per_second:,.0f} rows/s."
    )


# --- audit ---------------------------------------------------------------------------------


# seal, checkpoint, verify, export: carevault/audit/cli.py
from carevault.audit.cli import register as register_audit_commands  # noqa: E402

register_audit_commands(audit_app)


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
    try:
        ring = provider.load()
        _self_test(ring)
        report(
            True,
            "key ring",
            f"{provider.description}, active version {ring.encryption_version()}"
            f" of {len(ring.keys)}, encrypt/decrypt self-test passed",
        )
        from carevault.lifecycle.cli import key_age, key_warnings

        for version in sorted(ring.keys):
            key = ring.keys[version]
            report(
                True,
                f"key version {version}",
                f"{ring.state_of(version)}, created {key.created_at.date().isoformat()}, "
                f"age {key_age(key.created_at)}",
            )
        for warning in key_warnings(settings, ring):
            report(None, "key age", warning)
    except KeyRingError as exc:
        report(False, "key ring", str(exc))

    try:
        url = database_url_for(settings)
        revision, head, pgcrypto, logging_settings = run_async(_database_facts(url))
        report(True, "database", "reachable")
        report(
            revision == head,
            "migrations",
            f"at {revision or 'nothing'}, code expects {head}"
            + ("" if revision == head else " (run `carevault db upgrade`)"),
        )
        problems = run_async(_audit_privilege_problems(url))
        report(
            True if not problems else (False if settings.is_production else None),
            "database role",
            "the app's role can only read and append audit events"
            if not problems
            else "; ".join(problems)
            + " (set CAREVAULT_MIGRATION_DATABASE_URL to the owner and run `carevault db "
            "upgrade`)",
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
        if needs_pgcrypto:
            leaks = parameter_logging(logging_settings)
            report(
                None if leaks else True,
                "server log",
                "; ".join(leaks) + ": with the pgcrypto backend, key material is a statement "
                "parameter and would reach the server log"
                if leaks
                else "statement parameters are not logged",
            )
    except Exception as exc:  # doctor reports every failure instead of stopping at the first
        report(False, "database", f"{type(exc).__name__}: {exc}")
    raise typer.Exit(1 if failures else 0)


def _self_test(ring: KeyRing) -> None:
    """Seal and open a probe under a throwaway data key wrapped by the active version."""
    import uuid

    from carevault.crypto.datakeys import wrap_data_key
    from carevault.crypto.keyring import new_key_material

    cipher = FieldCipher(StaticRing(ring))
    practice, row = uuid.uuid4().bytes, uuid.uuid4().bytes
    version = ring.encryption_version()
    wrapped = wrap_data_key(ring, practice, version, new_key_material())
    cipher.data_keys.store(practice, {version: wrapped})
    probe = "doctor self-test"
    sealed = cipher.seal(probe, (practice, row), b"doctor.probe")
    if cipher.open(sealed, (practice, row), b"doctor.probe") != probe:
        raise KeyRingError("the encrypt/decrypt self-test returned something else")


LOGGING_SETTINGS = (
    "log_statement",
    "log_min_duration_statement",
    "log_parameter_max_length",
    "log_parameter_max_length_on_error",
)


def parameter_logging(values: dict[str, str]) -> list[str]:
    """Which server settings would write bound parameters to the PostgreSQL log."""
    leaks = []
    logs_statements = values.get("log_statement") in ("mod", "all")
    logs_slow = values.get("log_min_duration_statement", "-1") not in ("-1", "")
    if (logs_statements or logs_slow) and values.get("log_parameter_max_length") != "0":
        which = "log_statement" if logs_statements else "log_min_duration_statement"
        leaks.append(f"{which} logs statements with log_parameter_max_length != 0")
    if values.get("log_parameter_max_length_on_error", "0") != "0":
        leaks.append("log_parameter_max_length_on_error != 0")
    return leaks


async def _database_facts(url: str) -> tuple[str | None, str | None, bool, dict[str, str]]:
    from sqlalchemy import text

    from carevault.db.engine import create_engine
    from carevault.db.migrate import current_revision, head_revision
    from carevault.runtime import pgcrypto_available

    engine = create_engine(url, pool_size=1)
    try:
        async with engine.connect() as connection:
            rows = await connection.execute(
                text("SELECT name, setting FROM pg_settings WHERE name = ANY(:names)"),
                {"names": list(LOGGING_SETTINGS)},
            )
            logging_settings = {name: setting for name, setting in rows.all()}
        return (
            await current_revision(engine),
            head_revision(),
            await pgcrypto_available(engine),
            logging_settings,
        )
    finally:
        await engine.dispose()


async def _audit_privilege_problems(url: str) -> list[str]:
    from carevault.db.engine import create_engine
    from carevault.db.roles import audit_privilege_problems

    engine = create_engine(url, pool_size=1)
    try:
        return await audit_privilege_problems(engine)
    finally:
        await engine.dispose()


def main() -> None:
    app()


# Key lifecycle commands live beside the jobs they drive; they register into this app.
from carevault.lifecycle.cli import register as _register_lifecycle  # noqa: E402

_register_lifecycle(app)
