"""Key lifecycle commands: `carevault keys …`, `carevault reencrypt`, `carevault workspaces`,
and `carevault reindex-phones` (a batch job of the same kind, for migration 0016).

The runbook (docs/how-to/key-rotation.md) is: `keys rotate` (pending) → wait for activation (or
`keys activate N` once every process has had time to load it) → `reencrypt` → `keys retire
OLD`; and, to end a practice, `workspaces shred`.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.cli.common import (
    database_url_for,
    fail,
    friendly_errors,
    load_settings,
    one_off_engine,
    run_async,
)
from carevault.config import Settings
from carevault.crypto import KeyRing, LocalFileProvider
from carevault.notifications import Kind, Notice, notify_in, publish_once
from carevault.runtime import build_key_provider

keys_app = typer.Typer(no_args_is_help=True, help="The encryption key ring.")
workspaces_app = typer.Typer(no_args_is_help=True, help="Practices (workspaces).")


T = TypeVar("T")


def distribution_seconds(settings: Settings) -> float:
    """How long after a rotation every running process is sure to hold the new version."""
    return settings.key_cache_ttl_seconds + settings.key_activation_margin_seconds


def with_database(
    settings: Settings, work: Callable[[AsyncEngine], Awaitable[T]], *, keys: bool = True
) -> T:
    """Run `work` against the database, with the key ring installed when `keys`."""
    from carevault.runtime import start_key_ring

    manager = start_key_ring(settings) if keys else None

    async def run() -> T:
        async with one_off_engine(database_url_for(settings), pool_size=2) as engine:
            return await work(engine)

    try:
        return run_async(run())
    finally:
        if manager is not None:
            manager.stop()


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


def _announce(settings: Settings, notice: Notice, *, postgres: bool = True) -> None:
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


def _load_existing(settings: Settings) -> tuple[Any, KeyRing]:
    provider = build_key_provider(settings)
    return provider, provider.load()


# keys ----------------------------------------------------------------------------------------


@keys_app.command("status")
@friendly_errors
def keys_status() -> None:
    """Versions with their state and age, a pending version's activation time, warnings."""
    settings = load_settings()
    provider, ring = _load_existing(settings)
    typer.echo(f"source: {provider.description}")
    if ring.remote is not None:
        from carevault.lifecycle.kms_cli import print_status

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
    provider, ring = _load_existing(settings)
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
    provider, ring = _load_existing(settings)
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
    _announce(settings, Notice(Kind.KEY_ACTIVATED))
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
    provider, ring = _load_existing(settings)
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
    provider, ring = _load_existing(settings)
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


# reencrypt -----------------------------------------------------------------------------------

# The options of the batch jobs (reencrypt, reindex-phones), declared once.
BatchSize = Annotated[int, typer.Option(min=1, max=10_000, help="Rows per transaction")]
PauseMs = Annotated[
    int, typer.Option(min=0, help="Pause between batches (throttle), in milliseconds")
]


def reencrypt(
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only count values per column, format and version")
    ] = False,
    batch_size: BatchSize = 500,
    pause_ms: PauseMs = 0,
) -> None:
    """Rewrite every PHI value that is not in the current format under the active version,
    in small committed batches that never block clinicians; safe to interrupt and rerun."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from carevault.crypto import current_cipher
    from carevault.lifecycle import reencrypt as job

    settings = load_settings()

    async def counts(
        engine: AsyncEngine,
    ) -> tuple[list[job.ValueCount], dict[str, int], int, int]:
        async with AsyncSession(engine) as db:
            target = current_cipher().ring.encryption_version()
            wanted = job.target_format()  # follows CAREVAULT_PHI_BACKEND
            stale = await job.rows_to_rewrite(db, target, wanted)
            return await job.count_values(db), stale, target, wanted

    values, stale, target, target_format = with_database(settings, counts)
    if dry_run:
        typer.echo(f"{'table.column':<36} {'format':>6} {'version':>8} {'values':>10}")
        for found in values:
            typer.echo(
                f"{found.table + '.' + found.column:<36} 0x{found.format_byte:02x}   "
                f"{found.version:>8} {found.count:>10}"
            )
        typer.echo(f"target: format 0x{target_format:02x} under key version {target}")
        typer.echo(f"rows to rewrite: {sum(stale.values())} ({_per_table(stale)})")
        return
    total = sum(stale.values())
    rate = _Rate()

    async def work(engine: AsyncEngine) -> job.Summary:
        with Progress(
            TextColumn("re-encrypting"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} rows/s"),
            TimeRemainingColumn(),
            transient=False,
        ) as bar:
            task = bar.add_task("rows", total=total, rate="-")

            def advance(rows: int) -> None:
                bar.update(task, advance=rows, rate=f"{rate.add(rows):,.0f}")

            return await job.reencrypt(
                engine, batch_size=batch_size, pause_seconds=pause_ms / 1000, progress=advance
            )

    summary = with_database(settings, work)
    typer.echo(
        f"Re-encrypted {summary.rows} row(s) ({summary.values_rewritten} value(s)) to format "
        f"0x{summary.target_format:02x} under key version {summary.target_version} in "
        f"{summary.seconds:.1f} s "
        f"({summary.rows_per_second:,.0f} rows/s): {_per_table(dict(summary.rows_rewritten))}."
    )
    for practice in summary.index_keys_lost:
        typer.secho(
            f"warning: the blind-index key of practice {practice} was wrapped under a retired "
            "key version and is lost: email and phone search no longer find its clients",
            fg=typer.colors.YELLOW,
            err=True,
        )
    _report_leftovers(
        summary.rows_left,
        [(f"{bad.table}.{bad.column}", bad.row_id, bad.reason) for bad in summary.unopenable],
    )


def reindex_phones(
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only count the phone numbers left to reindex")
    ] = False,
    batch_size: BatchSize = 500,
    pause_ms: PauseMs = 0,
) -> None:
    """Give client phone numbers indexed before E.164 (migration 0016) their E.164 blind
    index, read in each practice's phone region; in small committed batches that never block
    clinicians, safe to interrupt and rerun. Set every practice's region first."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from carevault.clients import phone_index

    settings = load_settings()

    async def count(engine: AsyncEngine) -> int:
        async with AsyncSession(engine) as db:
            return await phone_index.rows_to_reindex(db)

    total = with_database(settings, count, keys=False)
    if dry_run:
        typer.echo(f"phone numbers with a digits-only index: {total}")
        return

    async def work(engine: AsyncEngine) -> phone_index.ReindexSummary:
        with Progress(
            TextColumn("reindexing"), BarColumn(), MofNCompleteColumn(), transient=False
        ) as bar:
            task = bar.add_task("rows", total=total)
            return await phone_index.reindex_phones(
                engine,
                batch_size=batch_size,
                pause_seconds=pause_ms / 1000,
                progress=lambda rows: bar.update(task, advance=rows),
            )

    summary = with_database(settings, work)
    typer.echo(f"Reindexed {summary.reindexed} phone number(s) in {summary.seconds:.1f} s.")
    if summary.not_numbers:
        shown = ", ".join(str(client_id) for client_id in summary.not_numbers[:20])
        more = len(summary.not_numbers) - 20
        typer.secho(
            f"{len(summary.not_numbers)} stored phone number(s) are not possible numbers in "
            "their practice's region and keep the digits-only index (search finds them as "
            f"before); correct them, or the region, and run this again. Clients: {shown}"
            + (f" and {more} more" if more > 0 else ""),
            fg=typer.colors.YELLOW,
            err=True,
        )
    _report_leftovers(
        summary.rows_left,
        [("clients.phone", bad.client_id, bad.reason) for bad in summary.unopenable],
    )


def _report_leftovers(rows_left: int, unopenable: list[tuple[str, object, str]]) -> None:
    """The end of a batch job over sealed values: rows to retry, values that would not open
    (`column`, row id, reason), and a non-zero exit if there were any."""
    if rows_left:
        typer.echo(f"{rows_left} row(s) were busy throughout; run it again to finish.")
    if unopenable:
        for column, row_id, reason in unopenable:
            typer.secho(
                f"could not open {column} of row {row_id}: {reason}", fg=typer.colors.RED, err=True
            )
        raise fail(f"{len(unopenable)} value(s) could not be opened", code=1)


class _Rate:
    def __init__(self) -> None:
        self.started = time.monotonic()
        self.rows = 0

    def add(self, rows: int) -> float:
        self.rows += rows
        return self.rows / max(time.monotonic() - self.started, 1e-6)


def _per_table(counts: dict[str, int]) -> str:
    return ", ".join(f"{table} {count}" for table, count in counts.items()) or "nothing"


# workspaces ----------------------------------------------------------------------------------


@workspaces_app.command("shred")
@friendly_errors
def workspaces_shred(
    workspace: Annotated[str, typer.Option(help="The practice to shred, by name")],
    confirm: Annotated[
        str | None, typer.Option(help="The practice's name again, for scripts (no prompt)")
    ] = None,
    schedule_kms_key_deletion: Annotated[
        int | None,
        typer.Option(
            min=7,
            max=30,
            help="KMS only: also schedule the deletion of the practice's own KMS key after "
            "this many days (7-30), which makes every backup of its data unreadable",
        ),
    ] = None,
) -> None:
    """Destroy a practice's data keys: its PHI becomes unreadable everywhere, for good."""
    from carevault.audit.service import Actor, record
    from carevault.workspaces.keys import shred
    from carevault.workspaces.service import get_by_name

    settings = load_settings()
    typed = confirm
    if typed is None:
        # The versions backups depend on, named in the warning itself (not only afterwards).
        _, ring = _load_existing(settings)
        live = ", ".join(str(v) for v, k in sorted(ring.keys.items()) if not k.retired)
        typer.echo(
            f"This destroys the data keys and blind-index key of {workspace!r}: every stored "
            "value of the practice becomes unreadable, in the database and in its backups "
            f"once key version(s) {live} are retired. Nothing else is affected."
        )
        typed = typer.prompt("Type the practice's name to confirm")
    if typed != workspace:
        raise fail("the name does not match; nothing was shredded")

    shredded_id: uuid.UUID | None = None

    async def work(engine: AsyncEngine) -> tuple[int, bool]:
        nonlocal shredded_id
        async with AsyncSession(engine) as db, db.begin():
            space = await get_by_name(db, workspace)
            if space is None:
                raise fail(f"no workspace named {workspace!r}")
            if space.shredded_at is not None:
                return 0, False
            destroyed = await shred(db, space.id)
            # Delivered when this commits: listening processes drop the practice's keys.
            await notify_in(db, Notice(Kind.SHRED, space.id))
            shredded_id = space.id
            await record(
                db,
                Actor(space.id),
                "workspace.shred",
                resource_type="workspace",
                resource_ids=[space.id],
                details={"data_keys_destroyed": destroyed},
            )
            return destroyed, True

    if schedule_kms_key_deletion is not None:
        from carevault.lifecycle.kms_cli import check_deletable

        check_deletable(settings, workspace)
    destroyed, done = with_database(settings, work)
    if schedule_kms_key_deletion is not None:
        from carevault.lifecycle.kms_cli import schedule_practice_key_deletion

        schedule_practice_key_deletion(settings, workspace, schedule_kms_key_deletion)
    if not done:
        typer.echo(f"{workspace!r} was already shredded.")
        return
    if shredded_id is not None:  # NOTIFY went with the commit; Redis carries it too
        _announce(settings, Notice(Kind.SHRED, shredded_id), postgres=False)
    _, ring = _load_existing(settings)
    if ring.remote is not None:
        typer.echo(
            f"Shredded {workspace!r}: {destroyed} key(s) destroyed. Every running process "
            "refuses the practice's next request (410). Backups taken before now hold its "
            "data keys wrapped by KMS: they stay readable only while that KMS key exists"
            + (
                "; its deletion is scheduled."
                if schedule_kms_key_deletion is not None
                else " (a practice's own key can be deleted: --schedule-kms-key-deletion)."
            )
        )
        return
    versions = sorted(v for v, k in ring.keys.items() if not k.retired)
    typer.echo(
        f"Shredded {workspace!r}: {destroyed} key(s) destroyed (its data keys and blind-index "
        "key). Every running process refuses the practice's next request (410). Backups taken "
        f"before now still hold its wrapped keys until key version(s) "
        f"{', '.join(map(str, versions))} are retired: rotate, reencrypt and retire them to "
        "finish."
    )


def register(app: typer.Typer) -> None:
    from carevault.lifecycle import kms_cli

    kms_cli.register(keys_app, workspaces_app)
    app.add_typer(keys_app, name="keys")
    app.command("reencrypt")(friendly_errors(reencrypt))
    app.command("reindex-phones")(friendly_errors(reindex_phones))
    app.add_typer(workspaces_app, name="workspaces")
