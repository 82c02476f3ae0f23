"""`carevault workspaces …`: practices; `shred` ends one (the last step of the key runbook,
carevault.cli.keys), and `set-key` (carevault.cli.kms) moves one onto its own KMS key."""

from __future__ import annotations

import uuid
from typing import Annotated

import typer
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.cli.common import fail, friendly_errors, load_settings, with_database
from carevault.cli.keys import announce, load_existing
from carevault.notifications import Kind, Notice, notify_in

workspaces_app = typer.Typer(no_args_is_help=True, help="Practices (workspaces).")


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
        _, ring = load_existing(settings)
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
        from carevault.cli.kms import check_deletable

        check_deletable(settings, workspace)
    destroyed, done = with_database(settings, work)
    if schedule_kms_key_deletion is not None:
        from carevault.cli.kms import schedule_practice_key_deletion

        schedule_practice_key_deletion(settings, workspace, schedule_kms_key_deletion)
    if not done:
        typer.echo(f"{workspace!r} was already shredded.")
        return
    if shredded_id is not None:  # NOTIFY went with the commit; Redis carries it too
        announce(settings, Notice(Kind.SHRED, shredded_id), postgres=False)
    _, ring = load_existing(settings)
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
