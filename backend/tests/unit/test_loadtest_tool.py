"""The load-test tool's pure logic (tools/loadtest): percentiles, reading /metrics across
workers, the encryption estimate, options, and report rendering. The load generator (wrk and
its Lua driver) has its own tests: test_loadtest_generator.py."""

from __future__ import annotations

import math
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.loadtest import report  # noqa: E402
from tools.loadtest.fakedata import write_clients_csv  # noqa: E402
from tools.loadtest.options import Options, parse_options  # noqa: E402
from tools.loadtest.seed import appointment_slots, current_week  # noqa: E402
from tools.loadtest.server_metrics import (  # noqa: E402
    WorkerSnapshot,
    delta,
    estimate_encryption,
    merge_snapshots,
    parse_snapshot,
)
from tools.loadtest.stats import Sample, percentile, summarize  # noqa: E402

# --- percentiles and summaries ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("q", "expected"),
    [(0, 1.0), (50, 5.5), (95, 9.55), (99, 9.91), (100, 10.0)],
)
def test_percentile_interpolates_between_closest_ranks(q: float, expected: float) -> None:
    values = [float(v) for v in (7, 3, 10, 1, 5, 9, 2, 8, 4, 6)]  # unsorted on purpose
    assert percentile(values, q) == pytest.approx(expected)


def test_percentile_of_one_value_and_of_none() -> None:
    assert percentile([0.25], 99) == 0.25
    assert math.isnan(percentile([], 50))
    with pytest.raises(ValueError):
        percentile([1.0], 101)


def test_summary_counts_conflicts_apart_from_errors_and_cut_off_as_errors() -> None:
    samples = [
        Sample(0.010, "ok", response_bytes=100),
        Sample(0.020, "ok", response_bytes=300),
        Sample(0.030, "conflict", "HTTP 409"),
        Sample(0.040, "error", "HTTP 500"),
    ]
    summary = summarize(samples, wall_seconds=2.0, cut_off=1)
    assert (summary.requests, summary.ok, summary.conflicts, summary.errors) == (5, 2, 1, 2)
    assert summary.rps == pytest.approx(2.0)  # completed requests per second
    assert summary.p50_ms == pytest.approx(25.0)
    assert summary.max_ms == pytest.approx(40.0)
    assert summary.error_details == {"HTTP 500": 1, "cut off at the time limit": 1}
    as_dict = summary.as_dict()
    assert as_dict["p95_ms"] == pytest.approx(38.5)


def test_summary_of_nothing_has_no_numbers() -> None:
    summary = summarize([], wall_seconds=1.0)
    assert summary.requests == 0
    assert summary.as_dict()["p50_ms"] is None


# --- /metrics across workers and the encryption estimate ---------------------------------------


HISTOGRAM = "carevault_http_request_duration_seconds"
NOTE_ROUTE = 'method="GET",route="/api/v1/sessions/{note_id}",status="200"'
SCRAPE = 'method="GET",route="unmatched",status="200"'
MISSING = 'method="GET",route="unmatched",status="404"'


def metrics_text(
    loaded_at: float, encrypted: int, decrypted: int, note_seconds: float, note_count: int
) -> str:
    """A worker's /metrics answer, shaped like the server's."""
    lines = [
        f"# HELP {HISTOGRAM} Request latency",
        f"# TYPE {HISTOGRAM} histogram",
        f'{HISTOGRAM}_bucket{{le="+Inf",{NOTE_ROUTE}}} {note_count}',
        f"{HISTOGRAM}_count{{{NOTE_ROUTE}}} {note_count}",
        f"{HISTOGRAM}_sum{{{NOTE_ROUTE}}} {note_seconds}",
        f"{HISTOGRAM}_count{{{SCRAPE}}} 40.0",
        f"{HISTOGRAM}_sum{{{SCRAPE}}} 0.5",
        f"{HISTOGRAM}_count{{{MISSING}}} 1.0",
        f"{HISTOGRAM}_sum{{{MISSING}}} 0.001",
        "# HELP carevault_field_operations PHI fields encrypted and decrypted",
        "# TYPE carevault_field_operations counter",
        f'carevault_field_operations_total{{operation="encrypt"}} {encrypted}.0',
        f'carevault_field_operations_total{{operation="decrypt"}} {decrypted}.0',
        'carevault_field_operations_total{operation="decrypt_failed"} 0.0',
        "# HELP carevault_keyring_last_success_timestamp_seconds When the ring was loaded",
        "# TYPE carevault_keyring_last_success_timestamp_seconds gauge",
        f"carevault_keyring_last_success_timestamp_seconds {loaded_at}",
    ]
    return "\n".join(lines) + "\n"


def test_a_snapshot_names_its_worker_and_reads_routes_with_braces() -> None:
    snapshot = parse_snapshot(metrics_text(1795429868.350239, 3, 40, 0.25, 10))
    assert snapshot.fingerprint == "1795429868.350239"
    assert (snapshot.encrypted, snapshot.decrypted) == (3, 40)
    key = ("/api/v1/sessions/{note_id}", "GET", "200")
    assert snapshot.seconds[key] == 0.25
    assert snapshot.count[key] == 10


def test_an_answer_without_a_worker_fingerprint_is_refused() -> None:
    with pytest.raises(ValueError):
        parse_snapshot("# nothing here\n")


def test_delta_sums_workers_and_leaves_out_the_scrapes() -> None:
    before = merge_snapshots([metrics_text(1.5, 0, 100, 1.0, 25), metrics_text(2.5, 10, 0, 0.0, 0)])
    after = merge_snapshots(
        [
            metrics_text(1.5, 0, 300, 2.0, 75),
            metrics_text(2.5, 30, 120, 1.5, 30),
            metrics_text(2.5, 30, 120, 1.5, 30),  # the same worker answered twice
        ]
    )
    change = delta(before, after)
    assert (change.workers_before, change.workers_after, change.workers_matched) == (2, 2, 2)
    assert (change.encrypted, change.decrypted) == (20, 320)
    assert change.requests == 80  # 50 + 30; scrapes (unmatched GET 200) left out
    assert change.request_seconds == pytest.approx(2.5)
    assert change.by_route["GET /api/v1/sessions/{note_id}"]["requests"] == 80


def test_encryption_estimate_is_operations_times_cost_over_server_time() -> None:
    before = {"w1": WorkerSnapshot("w1"), "w2": WorkerSnapshot("w2")}
    key = ("/api/v1/sessions/{note_id}", "PATCH", "200")
    after = {
        "w1": WorkerSnapshot(
            "w1", encrypted=100, decrypted=400, seconds={key: 1.0}, count={key: 100}
        ),
        "w2": WorkerSnapshot(
            "w2", encrypted=100, decrypted=400, seconds={key: 1.0}, count={key: 100}
        ),
    }
    estimate = estimate_encryption(
        delta(before, after), encrypt_seconds=4e-6, decrypt_seconds=5e-6, workers=2
    )
    # 200 x 4 us + 800 x 5 us = 4.8 ms of 2 s of request time
    assert estimate.share == pytest.approx(0.0048 / 2.0)
    assert estimate.field_ops_per_request == pytest.approx(5.0)
    assert estimate.per_request_us == pytest.approx(24.0)
    assert estimate.complete
    assert estimate.as_dict()["all_workers_read"] is True


def test_encryption_estimate_says_when_a_worker_was_not_read() -> None:
    before = {"w1": WorkerSnapshot("w1")}
    after = {"w1": WorkerSnapshot("w1", decrypted=4)}
    estimate = estimate_encryption(
        delta(before, after), encrypt_seconds=1e-6, decrypt_seconds=1e-6, workers=2
    )
    assert not estimate.complete
    assert estimate.share is None  # no request time recorded: no share, not a division by 0


# --- options, seeding helpers, fake data -------------------------------------------------------


def test_request_budget_grows_with_concurrency_within_bounds() -> None:
    options = Options()
    assert options.request_budget(1) == options.min_requests
    assert options.request_budget(10) == 1500
    assert options.request_budget(1000) == options.max_requests


def test_quick_mode_is_small_and_waits_for_nothing() -> None:
    options = parse_options(["--quick", "--workers", "3", "--concurrency", "1,5"])
    assert options.quick and options.workers == 3 and options.concurrency == (1, 5)
    assert options.import_count <= 5000 and options.max_seconds <= 5
    assert options.quiet_budget == 0


def test_unknown_scenarios_are_refused() -> None:
    with pytest.raises(SystemExit):
        parse_options(["--scenarios", "read_note,nonsense"])


def test_appointment_slots_never_overlap_within_a_room() -> None:
    week_start, week_end = current_week(datetime(2026, 11, 26, 15, 30, tzinfo=UTC))
    assert week_start == datetime(2026, 11, 23, tzinfo=UTC)  # a Monday
    assert week_end - week_start == timedelta(days=7)
    slots = appointment_slots(week_start, 150, rooms=3)
    assert len(slots) == 150
    assert len(set(slots)) == 150
    assert all(week_start <= start < week_end for start, _ in slots)


def test_fake_clients_are_repeatable(tmp_path: Path) -> None:
    first = write_clients_csv(tmp_path / "a.csv", 50, seed=3)
    second = write_clients_csv(tmp_path / "b.csv", 50, seed=3)
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert first.rows == 50 and first.plaintext_bytes_per_row == second.plaintext_bytes_per_row
    header = (tmp_path / "a.csv").read_text().splitlines()[0]
    assert header.startswith("First Name,Last Name,E-mail")


# --- reports -------------------------------------------------------------------------------


def test_table_aligns_numbers_right_and_escapes_pipes() -> None:
    rendered = report.table(["name", "value"], [["a|b", 1.5], [None, float("nan")]])
    assert rendered.splitlines() == [
        "| name | value |",
        "| --- | ---: |",
        "| a\\|b | 1.5 |",
        "| - | - |",
    ]


def run_result(concurrency: int, other_cores: float = 0.0) -> dict[str, Any]:
    return {
        "concurrency": concurrency,
        "requests": 100,
        "rps": 95.25,
        "p50_ms": 10.0,
        "p95_ms": 20.0,
        "p99_ms": 30.0,
        "errors": 0,
        "conflicts": 3,
        "encryption": {
            "field_ops_per_request": 5.0,
            "encryption_us_per_request": 24.0,
            "server_request_seconds": 1.0,
            "server_requests": 100,
            "share": 0.0024,
            "all_workers_read": True,
        },
        "cpu": {
            "server_ms_per_request": 8.0,
            "postgres_ms_per_request": 2.0,
            "generator_ms_per_request": 0.045,
            "machine_busy_cores": 1.5,
            "other_processes_cores": other_cores,
        },
        "database_activity": {
            "mean_active_backends": 4.0,
            "mean_waiting_by_event": {"Lock:advisory": 3.5},
        },
    }


def results_document() -> dict[str, Any]:
    return {
        "started_at": "2026-11-23T10:00:00+00:00",
        "mode": "quick",
        "duration_seconds": 60.0,
        "command": "make loadtest",
        "machine": {
            "nproc": 2,
            "cpu_model": "AMD EPYC",
            "memory_gib": 23.5,
            "python": "3.11.7",
            "postgresql": "15.20",
            "load_average_at_start": [0.5, 0.4, 0.3],
        },
        "field_cost": {"value_bytes": 350, "encrypt_us": 3.5, "decrypt_us": 3.7},
        "load": {
            "server": {"command": "python -m carevault serve", "settings": "s", "auth": "token"},
            "generator": "wrk 4.1.0, one thread, LuaJIT script tools/loadtest/driver.lua",
            "seed": {
                "clients": 2000,
                "appointments": 0,
                "appointments_skipped": "POST /appointments is not available (404)",
                "notes": 500,
                "week": ["2026-11-23T00:00:00+00:00", "2026-11-30T00:00:00+00:00"],
            },
            "scenarios": [
                {
                    "name": "autosave",
                    "title": "Autosave a draft",
                    "request": "PATCH /sessions/{id}",
                    "available": True,
                    "runs": [run_result(1), run_result(50, other_cores=1.2)],
                },
                {
                    "name": "list_clients",
                    "title": "List clients (page of 50)",
                    "request": "GET /clients",
                    "available": False,
                    "unavailable_reason": "not available (404)",
                    "runs": [],
                },
            ],
            "memory": {
                "peak_rss_bytes": 300 * 2**20,
                "peak_rss_by_process": [{"role": "worker", "rss_bytes": 150 * 2**20}],
                "after_start_rss_bytes": 250 * 2**20,
                "interval_seconds": 0.2,
            },
        },
    }


def test_markdown_report_has_every_table_and_marks_what_did_not_run() -> None:
    markdown = report.render_markdown(results_document())
    assert "| Autosave a draft (`PATCH /sessions/{id}`) | 1 | 100 | 95.2 | 10.00 |" in markdown
    assert "| 0 | 3 | 0.045 |" in markdown  # errors, 409s, then the generator's CPU per request
    assert "wrk 4.1.0, one thread" in markdown
    assert "95.2 (busy)" in markdown  # the run where other processes used 1.2 cores
    assert "not available (404)" in markdown
    assert "An estimate, not a profile." in markdown
    assert "0.24 %" in markdown
    assert "Lock:advisory 3.5" in markdown
    assert "**300 MiB**" in markdown
    summary = report.render_summary(results_document())
    assert "Server peak RSS: 300 MiB" in summary


def test_field_cost_measures_the_current_format() -> None:
    """The per-field cost the encryption estimate multiplies goes through the real column
    processors with a row-bound value and a practice data key (it raised UnboundValueError
    once plain `str` was refused)."""
    from tools.loadtest.fieldcost import measure

    from carevault.crypto import uninstall

    try:
        cost = measure(rounds=2, calls_per_round=20)
    finally:
        uninstall()  # measure installs a throwaway cipher in this process
    assert cost.value_bytes == 350
    assert cost.rounds == 2 and cost.calls_per_round == 20
    assert cost.encrypt_seconds > 0 and cost.decrypt_seconds > 0
    assert "0x03" in str(cost.as_dict()["method"])
