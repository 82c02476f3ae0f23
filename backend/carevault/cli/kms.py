"""The KMS commands: `carevault workspaces set-key` (bring your own key), `carevault keys
rewrap` (move everything under the installation's key onto a new CAREVAULT_KMS_KEY_ID), and
the KMS part of `carevault keys status`. See docs/how-to/operations.md, "AWS KMS"."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import TYPE_CHECKING, Annotated, Any

import typer
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.cli.common import fail, friendly_errors, load_settings, with_database
from carevault.config import KeyProviderName, Settings

if TYPE_CHECKING:
    from carevault.crypto.kms import KmsKeys


def _kms_keys() -> KmsKeys:
    from carevault.crypto import current_cipher
    from carevault.crypto.kms import KmsKeys

    remote = current_cipher().ring.remote
    if not isinstance(remote, KmsKeys):
        raise fail("this needs CAREVAULT_KEY_PROVIDER=kms (and CAREVAULT_KMS_KEY_ID)")
    return remote


def _require_kms(settings: Settings) -> None:
    if settings.key_provider is not KeyProviderName.KMS:
        raise fail("this needs CAREVAULT_KEY_PROVIDER=kms (and CAREVAULT_KMS_KEY_ID)")


PauseMs = Annotated[
    int, typer.Option(min=0, help="Pause before each key re-wrap (throttle), in milliseconds")
]


def set_key(
    workspace: Annotated[str, typer.Option(help="The practice, by name")],
    kms_key_id: Annotated[
        str | None,
        typer.Option(help="The practice's own KMS key (ARN, key id or alias/…)"),
    ] = None,
    installation_key: Annotated[
        bool, typer.Option(help="Move the practice back onto CAREVAULT_KMS_KEY_ID")
    ] = False,
    pause_ms: PauseMs = 0,
) -> None:
    """Move a practice onto its own KMS key (BYOK): its data keys are re-wrapped by KMS
    ReEncrypt, no value is re-encrypted. Safe to interrupt; run it again to finish."""
    from carevault.audit.service import Actor, record
    from carevault.workspaces.keys import set_practice_key
    from carevault.workspaces.service import get_by_name

    settings = load_settings()
    _require_kms(settings)
    if (kms_key_id is None) == (not installation_key):
        raise fail("give either --kms-key-id ARN or --installation-key")

    async def work(engine: AsyncEngine) -> tuple[str, int, int]:
        keys = _kms_keys()
        target = keys.arn_of(kms_key_id or keys.key_id)
        async with AsyncSession(engine) as db:
            async with db.begin():
                space = await get_by_name(db, workspace)
                if space is None:
                    raise fail(f"no workspace named {workspace!r}")
                space_id = space.id

            def pause(_: int) -> None:
                if pause_ms:
                    time.sleep(pause_ms / 1000)

            moved, already = await set_practice_key(
                db, space_id, kms_key_id, before_each=pause if pause_ms else None
            )
            async with db.begin():
                await record(
                    db,
                    Actor(space_id),
                    "workspace.kms_key_set",
                    resource_type="workspace",
                    resource_ids=[space_id],
                    details={
                        "kms_key_id": target,
                        "own_key": kms_key_id is not None,
                        "keys_rewrapped": moved,
                    },
                )
        return target, moved, already

    target, moved, already = with_database(settings, work)
    typer.echo(
        f"{workspace!r} now uses KMS key {target}: {moved} data key(s) re-wrapped, {already} "
        "already under it. No value was re-encrypted. Every process opens its keys under the "
        f"new key within {settings.key_cache_ttl_seconds:g} s; keep the old key enabled "
        "until then."
    )


def rewrap(pause_ms: PauseMs = 0) -> None:
    """Re-wrap every key under the installation's KMS key onto the current
    CAREVAULT_KMS_KEY_ID (after changing it): the installation keys, then each practice that
    has not brought its own key. Resumable; practices with their own key are left alone."""
    from carevault.workspaces.keys import practice_key_ids, set_practice_key

    settings = load_settings()
    _require_kms(settings)

    async def work(engine: AsyncEngine) -> tuple[int, int, int]:
        keys = _kms_keys()
        installation = await _rewrap_installation_keys(engine, keys)
        moved = practices = 0
        async with AsyncSession(engine) as db:
            async with db.begin():
                owned = await practice_key_ids(db)
            for workspace_id, own in owned.items():
                if own is not None:
                    continue
                if pause_ms:
                    await asyncio.sleep(pause_ms / 1000)
                practices += 1
                moved += (await set_practice_key(db, workspace_id, None))[0]
        return installation, practices, moved

    installation, practices, moved = with_database(settings, work)
    typer.echo(
        f"Re-wrapped {installation} installation key(s) and {moved} data key(s) of "
        f"{practices} practice(s) under {settings.kms_key_id}. Once every process has "
        f"restarted or {settings.key_cache_ttl_seconds:g} s have passed, the old key may be "
        "disabled."
    )


async def _rewrap_installation_keys(engine: AsyncEngine, keys: KmsKeys) -> int:
    from carevault.crypto.kms import KMS_VERSION, unframe
    from carevault.workspaces.models import InstallationKey

    target = keys.arn_of(keys.key_id)
    moved = 0
    async with AsyncSession(engine) as db:
        async with db.begin():
            rows = (
                await db.execute(select(InstallationKey.purpose, InstallationKey.wrapped_key))
            ).all()
        for purpose, wrapped in rows:
            if unframe(wrapped)[0] == target:
                continue
            rewrapped = await asyncio.to_thread(
                keys.rewrap, b"", purpose, KMS_VERSION, wrapped, target
            )
            async with db.begin():
                await db.execute(
                    update(InstallationKey)
                    .where(
                        InstallationKey.purpose == purpose,
                        InstallationKey.wrapped_key == wrapped,
                    )
                    .values(wrapped_key=rewrapped)
                )
            moved += 1
    return moved


def print_status(settings: Settings, ring: Any) -> None:
    """`keys status` with KMS: the key ids (never a key), their state as KMS reports it, and
    each practice's key and state."""
    from carevault.crypto.kms import KmsKeys

    remote = ring.remote
    if not isinstance(remote, KmsKeys):
        return
    installation = remote.arn_of(remote.key_id)
    state = remote.state(installation, fresh=True)
    typer.echo(f"installation KMS key: {installation} ({state.state})")

    async def practices(engine: AsyncEngine) -> list[tuple[str, uuid.UUID, str | None]]:
        from carevault.workspaces.models import Workspace

        async with AsyncSession(engine) as db:
            rows = await db.execute(
                select(Workspace.name, Workspace.id, Workspace.kms_key_id)
                .where(Workspace.shredded_at.is_(None))
                .order_by(Workspace.name)
            )
            return [(name, workspace_id, key) for name, workspace_id, key in rows.all()]

    try:
        found = with_database(settings, practices, keys=False)
    except Exception as exc:  # the ring's own status is still worth printing
        typer.secho(f"warning: practices not listed ({type(exc).__name__})", fg=typer.colors.YELLOW)
        return
    typer.echo(f"{'practice':<32} {'key':<8} {'state':<16} KMS key")
    states: dict[str, str] = {installation: state.state}
    for name, _, key in found:
        arn = key or installation
        if arn not in states:
            states[arn] = remote.state(arn, fresh=True).state
        kind = "own" if key else "default"
        typer.echo(f"{name[:32]:<32} {kind:<8} {states[arn]:<16} {arn}")
    bad = [arn for arn, s in states.items() if s != "Enabled"]
    for arn in bad:
        typer.secho(
            f"warning: KMS key {arn} is {states[arn]}: its practices' data is unreadable",
            fg=typer.colors.YELLOW,
        )
    typer.echo(
        "rotation: enable KMS automatic key rotation (no re-encryption); to move to another "
        "key, set CAREVAULT_KMS_KEY_ID and run `carevault keys rewrap`"
    )


async def _practice_key(engine: AsyncEngine, name: str) -> tuple[uuid.UUID, str | None, int]:
    """(practice id, its own KMS key or None, how many other practices use that key)."""
    from sqlalchemy import func

    from carevault.workspaces.models import Workspace

    async with AsyncSession(engine) as db:
        row = (
            await db.execute(
                select(Workspace.id, Workspace.kms_key_id).where(Workspace.name == name)
            )
        ).one_or_none()
        if row is None:
            raise fail(f"no workspace named {name!r}")
        workspace_id, key = row
        sharing = 0
        if key is not None:
            sharing = int(
                await db.scalar(
                    select(func.count()).where(
                        Workspace.kms_key_id == key,
                        Workspace.id != workspace_id,
                        Workspace.shredded_at.is_(None),
                    )
                )
                or 0
            )
        return workspace_id, key, sharing


def check_deletable(settings: Settings, workspace: str) -> None:
    """Refuse `shred --schedule-kms-key-deletion` before shredding anything when the
    practice has no key of its own, or shares it with a practice that is not shredded."""

    _require_kms(settings)
    _, key, sharing = with_database(settings, lambda e: _practice_key(e, workspace), keys=False)
    if key is None:
        raise fail(
            f"{workspace!r} uses the installation's KMS key, which other practices need: only "
            "a practice's own key (`carevault workspaces set-key`) can be deleted"
        )
    if sharing:
        raise fail(f"the KMS key of {workspace!r} is also used by {sharing} other practice(s)")


def schedule_practice_key_deletion(settings: Settings, workspace: str, days: int) -> None:
    from carevault.audit.service import Actor, record

    async def work(engine: AsyncEngine) -> tuple[str, Any]:
        workspace_id, key, _ = await _practice_key(engine, workspace)
        if key is None:
            raise fail(f"{workspace!r} has no KMS key of its own")
        when = _kms_keys().schedule_deletion(key, days)
        async with AsyncSession(engine) as db, db.begin():
            await record(
                db,
                Actor(workspace_id),
                "workspace.kms_key_deletion_scheduled",
                resource_type="workspace",
                resource_ids=[workspace_id],
                details={
                    "kms_key_id": key,
                    "deletion_date": when.isoformat() if when else None,
                },
            )
        return key, when

    key, when = with_database(settings, work)
    typer.echo(
        f"Scheduled the deletion of KMS key {key} on {when.isoformat() if when else '?'}: "
        "from then on no backup can open the practice's data. Until that day the key's owner "
        "can still cancel it (`aws kms cancel-key-deletion`)."
    )


def register(keys_app: typer.Typer, workspaces_app: typer.Typer) -> None:
    workspaces_app.command("set-key")(friendly_errors(set_key))
    keys_app.command("rewrap")(friendly_errors(rewrap))
