"""`carevault audit seal | checkpoint | verify | export`, registered into the command's
`audit` group (carevault/cli/commands.py)."""

from __future__ import annotations

import json
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any

import typer
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from carevault.audit.checkpoints import (
    Checkpoint,
    CheckpointError,
    CheckpointStore,
    coverage_grace_seconds,
    database_name,
    store_for,
    write_checkpoint,
)
from carevault.audit.sealing import (
    CURRENT_FORMAT,
    EVENT_DIGEST_SQL,
    EVENT_ENCODING_SQL,
    FORMAT_TEXT,
    NIL_WORKSPACE,
    NO_AUDIT_KEY,
    event_digest,
    measure_lag,
    pin_canonical_form,
    seal_all,
)
from carevault.audit.verify import VerifyReport, verify
from carevault.cli.common import (
    database_url_for,
    fail,
    friendly_errors,
    load_settings,
    one_off_engine,
    run_async,
)

if TYPE_CHECKING:
    from carevault.config import Settings


def _audit_key(settings: Settings) -> bytes:
    from carevault.runtime import build_key_provider

    key = build_key_provider(settings).load().audit_key  # loading never creates a ring
    if key is None:
        raise fail(NO_AUDIT_KEY)
    return key


def _sealer_url(settings: Settings) -> str:
    """Where sealing and checkpoint writing connect: the sealer's own role when configured."""
    return settings.audit_sealer_database_url or database_url_for(settings)


def _store(settings: Settings) -> CheckpointStore:
    try:
        return store_for(settings)
    except CheckpointError as exc:
        raise fail(str(exc)) from None


def register(audit_app: typer.Typer) -> None:
    @audit_app.command("seal")
    @friendly_errors
    def audit_seal() -> None:
        """Seal every event that can safely be sealed now (waits for a running sealer)."""
        settings = load_settings()
        key = _audit_key(settings)

        async def seal() -> tuple[int, float]:
            async with one_off_engine(_sealer_url(settings)) as engine:
                sealed = await seal_all(engine, key, wait_for_lock=True)
                async with engine.connect() as connection:
                    lag = await measure_lag(connection, key)
            return sealed, lag.oldest_unsealed_seconds

        sealed, lag = run_async(seal())
        typer.echo(f"Sealed {sealed} audit events; oldest unsealed event: {lag:.1f} s.")

    @audit_app.command("checkpoint")
    @friendly_errors
    def audit_checkpoint(
        start_new_chain: Annotated[
            bool,
            typer.Option(
                "--start-new-chain",
                help="Write even though the store lacks checkpoints the audit trail records "
                "(or, empty, sits beside old seals): starts a new chain; run `audit verify` "
                "and keep its report first",
            ),
        ] = False,
    ) -> None:
        """Seal, then write a signed checkpoint of every chain's head outside the database."""
        settings = load_settings()
        grace = coverage_grace_seconds(settings.audit_checkpoint_interval_seconds)
        key, store = _audit_key(settings), _store(settings)

        async def checkpoint() -> Checkpoint:
            async with one_off_engine(_sealer_url(settings)) as engine:
                await seal_all(engine, key, wait_for_lock=True)
                async with engine.begin() as connection:
                    await connection.execute(text("SELECT pg_advisory_xact_lock(:a, :b)"), _lock())
                    return await write_checkpoint(
                        connection,
                        store,
                        key,
                        start_new_chain=start_new_chain,
                        grace_seconds=grace,
                    )

        try:
            written = run_async(checkpoint())
        except CheckpointError as exc:
            raise fail(str(exc), code=1) from None
        events = sum(head.count for head in written.chains)
        typer.echo(
            f"Wrote a checkpoint of {len(written.chains)} chain(s), {events} events, "
            f"to {store.description}."
        )

    @audit_app.command("verify")
    @friendly_errors
    def audit_verify(
        since_checkpoint: Annotated[
            bool, typer.Option("--since-checkpoint", help="Only what came after the checkpoint")
        ] = False,
        lag_budget: Annotated[
            float | None,
            typer.Option(help="Seconds (default: CAREVAULT_AUDIT_SEAL_LAG_BUDGET_SECONDS)"),
        ] = None,
        checkpoint_grace: Annotated[
            float | None,
            typer.Option(
                min=0,
                help="Seconds after which a seal must be covered by the newest checkpoint "
                "(default: twice CAREVAULT_AUDIT_CHECKPOINT_INTERVAL_SECONDS)",
            ),
        ] = None,
    ) -> None:
        """Check every chain against the latest checkpoint; name the events involved."""
        settings = load_settings()
        key, store = _audit_key(settings), _store(settings)
        budget = lag_budget if lag_budget is not None else settings.audit_seal_lag_budget_seconds
        grace = (
            checkpoint_grace
            if checkpoint_grace is not None
            else coverage_grace_seconds(settings.audit_checkpoint_interval_seconds)
        )

        async def run() -> VerifyReport:
            async with (
                one_off_engine(database_url_for(settings)) as engine,
                engine.connect() as connection,
            ):
                connection = await connection.execution_options(isolation_level="REPEATABLE READ")
                async with connection.begin():
                    database = await database_name(connection)
                    try:
                        latest = store.latest(database)
                    except CheckpointError as exc:
                        raise fail(str(exc)) from None
                    return await verify(
                        connection,
                        key,
                        checkpoint=latest,
                        since_checkpoint=since_checkpoint,
                        lag_budget_seconds=budget,
                        checkpoint_grace_seconds=grace,
                        store_description=store.description,
                    )

        report = run_async(run())
        for finding in report.findings:
            color = typer.colors.YELLOW if finding.severity == "WARNING" else typer.colors.RED
            typer.secho(str(finding), fg=color)
        against = (
            f" against the checkpoint of {report.checkpoint.created_at.isoformat()}"
            if report.checkpoint
            else ""
        )
        scope = " (since the checkpoint)" if report.incremental else ""
        typer.echo(
            f"Verified {report.events} audit events in {report.seals} seals of "
            f"{report.chains} chain(s){scope}{against} in {report.seconds:.2f} s "
            f"({report.events_per_second:,.0f} events/s)."
        )
        if report.ok:
            typer.echo("Every chain is intact.")
            return
        problems = sum(f.severity != "WARNING" for f in report.findings)
        typer.secho(f"{problems} problem(s) found.", fg=typer.colors.RED)
        raise typer.Exit(1)

    def _instant(value: str, option: str) -> datetime:
        """An ISO 8601 date or time (offsets included, which click's DateTime refuses)."""
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            raise typer.BadParameter(
                f"{value!r} is not an ISO 8601 date or time", param_hint=option
            ) from None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)

    @audit_app.command("export")
    @friendly_errors
    def audit_export(
        since_text: Annotated[
            str, typer.Option("--since", help="Inclusive, ISO 8601 (UTC unless it says)")
        ],
        until_text: Annotated[
            str, typer.Option("--until", help="Exclusive, ISO 8601 (UTC unless it says)")
        ],
        output: Annotated[
            Path | None, typer.Option(help="File to write (default: standard output)")
        ] = None,
    ) -> None:
        """Events as JSON lines, with the seals linking them to the latest checkpoint."""
        since = _instant(since_text, "--since")
        until = _instant(until_text, "--until")
        settings = load_settings()
        store = _store(settings)

        async def run(out: IO[str]) -> int:
            async with (
                one_off_engine(database_url_for(settings)) as engine,
                engine.connect() as connection,
            ):
                connection = await connection.execution_options(isolation_level="REPEATABLE READ")
                async with connection.begin():
                    database = await database_name(connection)
                    latest = store.latest(database)
                    return await export(connection, out, since, until, latest)

        if output is None:
            count = run_async(run(sys.stdout))
        else:
            with output.open("x", encoding="utf-8") as out:
                count = run_async(run(out))
            typer.echo(f"Exported {count} audit events to {output}.", err=True)


def _lock() -> dict[str, int]:
    from carevault.audit.sealing import SEALER_LOCK

    return {"a": SEALER_LOCK[0], "b": SEALER_LOCK[1]}


def _hex(value: Any) -> str:
    return bytes(value).hex()


async def export(
    connection: AsyncConnection,
    out: IO[str],
    since: datetime,
    until: datetime,
    checkpoint: Checkpoint | None,
) -> int:
    """Events in [since, until), each naming its seal; then every seal from the first one
    involved up to the checkpoint's head of its chain; then the checkpoint itself. With the
    audit key, an auditor recomputes each seal's MAC and follows prev_mac to the head.

    An event's `digest` is in the format of its seal (an unsealed event: the format the
    sealer writes now); in format 2 the event also carries its `encoding`, the bytes the
    digest is over, which an auditor decodes and compares with the event's fields."""
    window = {"since": since, "until": until}
    await pin_canonical_form(connection)
    bounds = (
        await connection.execute(
            text(
                "SELECT min(txid) AS lo, max(txid) AS hi FROM audit_events "
                "WHERE occurred_at >= :since AND occurred_at < :until"
            ),
            window,
        )
    ).one()
    where: dict[int, tuple[uuid.UUID, int, int]] = {}  # event id: chain, seq, format
    first_seq: dict[uuid.UUID, int] = {}
    if bounds.lo is not None:
        for seal in await connection.execute(
            text(
                "SELECT workspace_id, seq, event_ids, format FROM audit_seals "
                "WHERE txid_to > :lo AND txid_from <= :hi"
            ),
            {"lo": bounds.lo, "hi": bounds.hi},
        ):
            for event_id in seal.event_ids:
                where[event_id] = (seal.workspace_id, seal.seq, seal.format)
    count = 0
    result = await connection.stream(
        text(
            f"SELECT e.*, {EVENT_DIGEST_SQL} AS digest_text, "  # noqa: S608
            f"{EVENT_ENCODING_SQL} AS encoding FROM audit_events e "
            "WHERE e.occurred_at >= :since AND e.occurred_at < :until ORDER BY e.id"
        ),
        window,
    )
    async for row in result:
        sealed = where.get(row.id)
        if sealed is not None:
            first_seq[sealed[0]] = min(first_seq.get(sealed[0], sealed[1]), sealed[1])
        seal_format = sealed[2] if sealed is not None else CURRENT_FORMAT
        digest = (
            bytes(row.digest_text)
            if seal_format == FORMAT_TEXT
            else event_digest(bytes(row.encoding))
        )
        record = {
            "type": "event",
            "id": row.id,
            "workspace_id": str(row.workspace_id) if row.workspace_id else None,
            "occurred_at": row.occurred_at.isoformat(),
            "actor_user_id": str(row.actor_user_id) if row.actor_user_id else None,
            "actor_token_id": str(row.actor_token_id) if row.actor_token_id else None,
            "action": row.action,
            "resource_type": row.resource_type,
            "resource_ids": [str(i) for i in row.resource_ids]
            if row.resource_ids is not None
            else None,
            "ip_address": str(row.ip_address) if row.ip_address else None,
            "details": row.details,
            "digest": digest.hex(),
            "format": seal_format,
            "seal": {"workspace_id": str(sealed[0]), "seq": sealed[1]} if sealed else None,
        }
        if seal_format != FORMAT_TEXT:
            record["encoding"] = _hex(row.encoding)
        out.write(json.dumps(record, sort_keys=True) + "\n")
        count += 1
    for workspace_id, seq in sorted(first_seq.items()):
        head = checkpoint.head(workspace_id) if checkpoint else None
        last = head.seq if head is not None and head.seq >= seq else None
        seals = await connection.execute(
            text(
                "SELECT * FROM audit_seals WHERE workspace_id = :w AND seq >= :a "
                "AND (CAST(:b AS bigint) IS NULL OR seq <= :b) ORDER BY seq"
            ),
            {"w": workspace_id, "a": seq, "b": last},
        )
        for seal in seals:
            out.write(
                json.dumps(
                    {
                        "type": "seal",
                        "workspace_id": str(seal.workspace_id),
                        "chain": "none" if seal.workspace_id == NIL_WORKSPACE else "workspace",
                        "seq": seal.seq,
                        "event_ids": list(seal.event_ids),
                        "digests": _hex(seal.digests),
                        "total": seal.total,
                        "prev_mac": _hex(seal.prev_mac),
                        "mac": _hex(seal.mac),
                        "key_id": _hex(seal.key_id),
                        "txid_from": seal.txid_from,
                        "txid_to": seal.txid_to,
                        "format": seal.format,
                        "content_digest": _hex(seal.content_digest)
                        if seal.content_digest is not None
                        else None,
                        "sealed_at": seal.sealed_at.isoformat(),
                    },
                    sort_keys=True,
                )
                + "\n"
            )
    if checkpoint is not None:
        out.write(json.dumps({"type": "checkpoint", **json.loads(checkpoint.line())}) + "\n")
    return count
