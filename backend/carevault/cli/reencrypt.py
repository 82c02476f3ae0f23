"""The batch jobs over sealed values: `carevault reencrypt` (a step of the key runbook,
carevault.cli.keys) and `carevault reindex-phones` (a job of the same kind, for migration
0016)."""

from __future__ import annotations

import time
from typing import Annotated

import typer
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.cli.common import fail, load_settings, with_database

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
