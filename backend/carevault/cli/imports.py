"""`carevault import clients`: a CSV or JSON-lines file, all rows or none."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Annotated

import typer

from carevault.cli.common import (
    database_url_for,
    fail,
    friendly_errors,
    load_settings,
    one_off_session,
    run_async,
)

import_app = typer.Typer(no_args_is_help=True, help="Bulk imports.")


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
    upsert: Annotated[
        bool,
        typer.Option(
            help="A row whose external_id a client already has updates that client instead "
            "of refusing the import"
        ),
    ] = False,
    results_file: Annotated[
        Path | None,
        typer.Option(
            "--results",
            dir_okay=False,
            help="Write each row's line, client id, external id and action (created or "
            "updated) to this CSV file",
        ),
    ] = None,
) -> None:
    """Import clients from CSV or JSON lines: all rows or none, bad rows listed by line.
    The file is streamed in batches (memory grows by a few bytes a row, for the results);
    progress goes to stderr. An `external_id` column gives each client your own id."""
    from sqlalchemy.exc import DBAPIError

    from carevault.audit.service import Actor
    from carevault.clients import importing
    from carevault.clients.progress import ImportProgress
    from carevault.core.errors import Conflict
    from carevault.runtime import start_key_ring
    from carevault.workspaces.keys import WorkspaceShredded, refused_as_shredded
    from carevault.workspaces.service import get_by_name

    if file_format not in (None, "csv", "jsonl"):
        raise fail("--format must be csv or jsonl")
    settings = load_settings()
    url = database_url_for(settings)
    manager = start_key_ring(settings)

    results = importing.ImportResults()

    async def run_import(binary: io.BufferedReader, progress: ImportProgress) -> int:
        head = binary.peek(4096)[:4096].decode("utf-8", errors="ignore")
        chosen = file_format or importing.detect_format(file.name, head)
        async with one_off_session(url) as db:
            space = await get_by_name(db, workspace)
            if space is None:
                raise fail(f"no workspace named {workspace!r}")
            records = importing.validated(
                importing.read_rows(importing.text_lines(binary), chosen),  # type: ignore[arg-type]
                phone_region=space.phone_region,
                ignore_unknown_columns=ignore_unknown_columns,
                max_rows=settings.import_max_rows,
            )
            return await importing.import_clients(
                db,
                Actor(space.id),
                space.id,
                records,
                source=f"cli:{file.name}",
                progress=progress.advance,
                upsert=upsert,
                results=results,
            )

    try:
        with (
            file.open("rb") as binary,
            ImportProgress(file.stat().st_size, binary.tell) as progress,
        ):
            count = run_async(run_import(binary, progress))
    except Conflict as clash:
        raise fail(f"{clash.message}", code=1) from None
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
    except (WorkspaceShredded, DBAPIError) as exc:
        # Shredded before or during the import (a write of a shredded practice is refused:
        # migration 0018); the transaction rolled back whole.
        if isinstance(exc, DBAPIError) and not refused_as_shredded(exc):
            raise
        raise fail(f"{workspace!r} was shredded; nothing was imported", code=1) from None
    finally:
        manager.stop()
    if results_file is not None:
        with results_file.open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(["line", "id", "external_id", "action"])
            for row in results:
                writer.writerow([row.line, row.id, row.external_id or "", row.action])
    updated = f" ({results.updated} updated)" if results.updated else ""
    typer.echo(
        f"Imported {count} clients{updated} into {workspace!r}. "
        f"{progress.elapsed:.1f} s, {progress.rows_per_second:,.0f} rows/s."
    )
