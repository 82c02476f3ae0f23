"""`carevault run` (development: everything on one port) and `carevault serve` (production)."""

from __future__ import annotations

import os
import signal
import sys
from typing import Annotated, Any

import typer

from carevault.cli.common import (
    configure_logging,
    database_url_for,
    fail,
    friendly_errors,
    load_settings,
    one_off_engine,
    one_off_session,
    run_async,
)
from carevault.cli.doctor import audit_privilege_problems_at


@friendly_errors
def run(
    port: Annotated[int | None, typer.Option(help="Port (default CAREVAULT_PORT or 8000)")] = None,
) -> None:
    """Development: database, migrations, demo practice, and the app on one port."""
    import uvicorn

    from carevault.api.app import create_app
    from carevault.db.migrate import upgrade
    from carevault.lifecycle.ring_guard import refuse_new_ring_over_sealed_data
    from carevault.runtime import build_key_provider, require_demo_extra, start_key_ring

    settings = load_settings()
    configure_logging(settings)
    url = database_url_for(settings)
    typer.echo("Applying database migrations …")
    upgrade(url)
    provider = build_key_provider(settings, url)
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
    require_demo_extra("the demo practice", "faker")
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
    from carevault.demo.seed import seed_demo

    async with one_off_session(url) as db:
        return await seed_demo(db)


@friendly_errors
def serve(
    workers: Annotated[int, typer.Option(min=1, help="Worker processes")] = 1,
    port: Annotated[int | None, typer.Option(help="Port (default CAREVAULT_PORT)")] = None,
) -> None:
    """Serve the API (no migrations, no demo data): the production entry point."""
    import uvicorn

    from carevault.db.migrate import current_revision, head_revision

    settings = load_settings()
    configure_logging(settings)
    url = database_url_for(settings)

    async def revision() -> str | None:
        async with one_off_engine(url) as engine:
            return await current_revision(engine)

    current, head = run_async(revision()), head_revision()
    if current != head:
        raise fail(
            f"the database schema is at {current or 'nothing'}, this version needs "
            f"{head}: run `carevault db upgrade` first"
        )
    if settings.is_production:
        problems = run_async(
            audit_privilege_problems_at(
                url, separate_sealer=bool(settings.audit_sealer_database_url)
            )
        )
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
