"""reports/loadtest.md and the printed summary, rendered from the results document."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

ENCRYPTION_METHOD = (
    "An estimate, not a profile. Each worker counts the PHI fields it encrypts and decrypts "
    "(`carevault_field_operations_total` on /metrics); the tool reads every worker's counters "
    "before and after each run, multiplies the number of operations by the per-field cost "
    "measured in the tool's own process in the same run (`EncryptedString`'s bind and result "
    "processors on a {value_bytes}-byte value: encrypt {encrypt_us} µs, decrypt {decrypt_us} "
    "µs), and divides by the time the server spent on those requests (the sum of the "
    "`carevault_http_request_duration_seconds` histograms, all workers, /metrics excluded). "
    "Short fields such as names cost a little less than a 350-byte field, so for client "
    "lists the estimate is an upper bound. Server time includes waiting (for a database "
    "connection, a lock, the event loop), so at high concurrency the share of time shrinks; "
    "the share of server CPU (encryption µs per request over the server processes' CPU per "
    "request) does not."
)


EMPTY = "-"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: str = "") -> str:
    """A GitHub-flavoured markdown table; `align` is one letter per column (l or r)."""
    align = align or "l" + "r" * (len(headers) - 1)
    marks = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(marks) + " |"]
    for row in rows:
        lines.append("| " + " | ".join(_cell(value) for value in row) + " |")
    return "\n".join(lines)


def _cell(value: object) -> str:
    if value is None:
        return EMPTY
    if isinstance(value, float) and math.isnan(value):
        return EMPTY
    return str(value).replace("|", "\\|")


def number(value: float | int | None, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return EMPTY
    if digits == 0:
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}"


def mib(value: float | int | None) -> str:
    """Bytes as MiB (KiB below 10 MiB, so small tables do not show as 0)."""
    if value is None:
        return EMPTY
    if value < 10 * 2**20:
        return f"{value / 2**10:,.0f} KiB"
    return f"{value / 2**20:,.0f} MiB"


def percent(share: float | None, digits: int = 2) -> str:
    return EMPTY if share is None else f"{share * 100:.{digits}f} %"


BUSY_CORES = 0.35
BUSY_MARK = " (busy)"


def busy(run: Mapping[str, Any]) -> bool:
    """Other processes on the machine used more than BUSY_CORES during the run."""
    return bool(run["cpu"]["other_processes_cores"] > BUSY_CORES)


def latency_rows(scenarios: Sequence[Mapping[str, Any]]) -> list[list[object]]:
    rows: list[list[object]] = []
    for scenario in scenarios:
        label = f"{scenario['title']} (`{scenario['request']}`)"
        if not scenario.get("available", True):
            rows.append(
                [label, EMPTY, scenario.get("unavailable_reason", "not available")]
                + [EMPTY] * (len(LATENCY_HEADERS) - 3)
            )
            continue
        for run in scenario["runs"]:
            rows.append(
                [
                    label,
                    run["concurrency"],
                    number(run["requests"], 0),
                    number(run["rps"]) + (BUSY_MARK if busy(run) else ""),
                    number(run["p50_ms"], 2),
                    number(run["p95_ms"], 2),
                    number(run["p99_ms"], 2),
                    number(run["errors"], 0),
                    number(run["conflicts"], 0) if scenario["name"] == "autosave" else EMPTY,
                    number(run["cpu"]["generator_ms_per_request"], 3),
                ]
            )
    return rows


LATENCY_HEADERS = (
    "scenario",
    "concurrency",
    "requests",
    "req/s",
    "p50 ms",
    "p95 ms",
    "p99 ms",
    "errors",
    "409 (refetched)",
    "generator CPU ms/req",
)


def encryption_rows(scenarios: Sequence[Mapping[str, Any]]) -> list[list[object]]:
    rows: list[list[object]] = []
    for scenario in scenarios:
        if not scenario.get("available", True):
            continue
        for run in scenario["runs"]:
            enc = run["encryption"]
            served = enc["server_requests"] or 0
            server_ms = enc["server_request_seconds"] / served * 1000 if served else None
            cpu_ms = run["cpu"]["server_ms_per_request"]
            per_request = enc["encryption_us_per_request"]
            cpu_share = per_request / (cpu_ms * 1000) if per_request and cpu_ms else None
            rows.append(
                [
                    scenario["title"],
                    run["concurrency"],
                    number(enc["field_ops_per_request"], 1),
                    number(enc["encryption_us_per_request"], 1),
                    number(server_ms, 2),
                    percent(enc["share"]) + ("" if enc["all_workers_read"] else " (partial)"),
                    percent(cpu_share),
                ]
            )
    return rows


ENCRYPTION_HEADERS = (
    "scenario",
    "concurrency",
    "field ops / request",
    "est. encryption µs / request",
    "server time / request, ms",
    "share of server time",
    "share of server CPU",
)


def _health_floor(scenarios: Sequence[Mapping[str, Any]]) -> dict[int, float]:
    """Server CPU per /health request, by concurrency (the `health` scenario's runs)."""
    for scenario in scenarios:
        if scenario.get("name") == "health" and scenario.get("available", True):
            return {
                run["concurrency"]: run["cpu"]["server_ms_per_request"]
                for run in scenario["runs"]
                if run["cpu"].get("server_ms_per_request")
            }
    return {}


def cpu_rows(scenarios: Sequence[Mapping[str, Any]]) -> list[list[object]]:
    rows: list[list[object]] = []
    floor = _health_floor(scenarios)
    for scenario in scenarios:
        if not scenario.get("available", True):
            continue
        for run in scenario["runs"]:
            cpu = run["cpu"]
            waits = run["database_activity"]["mean_waiting_by_event"]
            top = ", ".join(f"{name} {value}" for name, value in list(waits.items())[:2])
            rows.append(
                [
                    scenario["title"],
                    run["concurrency"],
                    number(cpu["server_ms_per_request"], 2),
                    _times(cpu["server_ms_per_request"], floor.get(run["concurrency"])),
                    number(cpu["postgres_ms_per_request"], 2),
                    number(cpu["generator_ms_per_request"], 3),
                    f"{cpu['machine_busy_cores']:.2f}",
                    f"{cpu['other_processes_cores']:.2f}",
                    number(run["database_activity"]["mean_active_backends"], 1),
                    top or EMPTY,
                ]
            )
    return rows


def _times(value: float | None, floor: float | None) -> str:
    if value is None or not floor:
        return EMPTY
    return f"{value / floor:.1f}\N{MULTIPLICATION SIGN}"


CPU_HEADERS = (
    "scenario",
    "concurrency",
    "server CPU ms/req",
    "\N{MULTIPLICATION SIGN} /health",
    "PostgreSQL CPU ms/req",
    "load generator CPU ms/req",
    "machine busy (cores)",
    "other processes (cores)",
    "active DB backends (mean)",
    "top DB waits (mean backends)",
)


def _plan_summary(plan: Sequence[str]) -> str:
    removed = next((line.split(":")[1].strip() for line in plan if "Rows Removed" in line), "0")
    timing = next((line.split(":")[1].strip() for line in plan if "Execution Time" in line), "?")
    return f"{timing}, {removed} rows of other workspaces skipped"


def audit_section(diagnostics: Mapping[str, Any]) -> list[str]:
    by_action = diagnostics.get("audit_events_by_action", {})
    rows = [
        [action, number(item["events"], 0), number(item["row_bytes"], 0)]
        for action, item in list(by_action.items())[:8]
    ]
    lines = [
        f"{number(diagnostics['audit_events'], 0)} events, {mib(diagnostics['audit_events_bytes'])}"
        f" with indexes ({number(diagnostics.get('audit_index_bytes_per_event'), 0)} bytes of "
        "index per event). Every request writes one, reads included.",
        "",
        table(["action", "events", "mean row bytes"], rows),
    ]
    if "audit_seals" in diagnostics:
        lines += [
            "",
            f"Sealed after the fact in {number(diagnostics['audit_seals'], 0)} seals; "
            f"{number(diagnostics['audit_unsealed_after_load'], 0)} events not sealed yet when "
            "the load stopped.",
        ]
    plans = diagnostics.get("audit_previous_hash_query_plans", {})
    if plans:
        lines += [
            "",
            "The previous-hash lookup every audited request makes (`ORDER BY id DESC LIMIT 1` "
            "for the workspace): "
            + "; ".join(
                f"{label.replace('_', ' ')}: {_plan_summary(plan)}" for label, plan in plans.items()
            )
            + ".",
        ]
    return lines


def import_section(data: Mapping[str, Any]) -> list[str]:
    sizes = data["sizes"]
    bunker = data["databunker"]
    comparison = data["comparison"]
    rows = [
        ["records", number(data["records"], 0), number(5_000_000, 0) + " (their run)"],
        [
            "records per second",
            number(data["records_per_second"], 0),
            f"~{number(bunker['records_per_second'], 0)}",
        ],
        [
            "records per second per core",
            number(data["records_per_second_per_core"], 0),
            f"~{number(bunker['records_per_second'] / bunker['vcpus'], 0)}",
        ],
        [
            "fields per record",
            f"10 ({data['file']['non_empty_fields_per_record']} non-empty on average)",
            str(bunker["fields_per_record"]),
        ],
        [
            "bytes per record on disk (table + TOAST + indexes)",
            number(data["bytes_per_record"], 0),
            f"~{number(bunker['bytes_per_record'], 0)} (5.4 KB)",
        ],
        [
            "bytes per field on disk",
            number(comparison["bytes_per_field_carevault"], 0),
            number(comparison["bytes_per_field_databunker"], 0),
        ],
        ["write path", "CLI, one transaction, 1,000-row INSERT batches", "HTTP, 4,000-record bulk"],
    ]
    size_rows = [
        ["heap (`pg_relation_size`)", mib(sizes["heap_bytes"])],
        ["TOAST and maps (`pg_table_size` minus heap)", mib(sizes["toast_and_maps_bytes"])],
        ["indexes (`pg_indexes_size`)", mib(sizes["index_bytes"])],
        ["total (`pg_total_relation_size`)", mib(sizes["total_bytes"])],
        [
            "encrypted field values alone (sum of `octet_length`), per record",
            f"{number(data['stored_encrypted_field_bytes_per_record'], 0)} B",
        ],
        [
            "plaintext in the CSV, per record",
            f"{number(data['file']['plaintext_bytes_per_record'], 0)} B",
        ],
    ]
    breakdown = data["breakdown_estimate"]
    cpu = data["cpu"]
    return [
        f"`{data['command']}`: {number(data['records'], 0)} clients in "
        f"{number(data['seconds'], 1)} s end to end = **{number(data['records_per_second'], 0)} "
        f"records/s**, **{number(data['bytes_per_record'], 0)} bytes per record** on disk; "
        f"importer peak RSS {mib(data['importer_peak_rss_bytes'])}.",
        "",
        table(["", "CareVault (this machine)", f"Databunker Pro ({bunker['host']})"], rows, "lll"),
        "",
        table(["clients table", "size"], size_rows, "lr"),
        "",
        f"Where the import's time goes (estimate): parse and validate "
        f"{breakdown['parse_and_validate_seconds']} s, field encryption "
        f"{breakdown['field_encryption_seconds']} s, the rest (process start, blind indexes, "
        f"SQLAlchemy, inserts, commit) {breakdown['rest_seconds']} s. CPU used: importer "
        f"process {cpu['importer_cpu_seconds']} s, PostgreSQL backend "
        f"{cpu['postgres_cpu_seconds']} s, over {number(data['seconds'], 1)} s of wall time "
        f"(other processes on the machine: {cpu['other_processes_cores']} cores).",
    ]


def render_markdown(results: Mapping[str, Any]) -> str:
    info = results["machine"]
    cost = results["field_cost"]
    out = [
        "# CareVault load test",
        "",
        f"Run {results['started_at']} ({results['mode']}, {results['duration_seconds']} s): "
        f"`{results['command']}`.",
        f"Machine: {info['nproc']} cores ({info['cpu_model']}), {info['memory_gib']} GiB, "
        f"Python {info['python']}, PostgreSQL {info['postgresql']} on the same host "
        f"(load average at start {', '.join(str(x) for x in info['load_average_at_start'])}"
        + (
            "; PostgreSQL "
            + ", ".join(f"{k} {v}" for k, v in sorted(info["postgresql_settings"].items()))
            if info.get("postgresql_settings")
            else ""
        )
        + ").",
        "",
    ]
    load = results.get("load")
    if load:
        seed = load["seed"]
        memory = load["memory"]
        per_process = ", ".join(
            f"{item['role']} {mib(item['rss_bytes'])}" for item in memory["peak_rss_by_process"]
        )
        out += [
            "## Load test",
            "",
            f"Server: `{load['server']['command']}` ({load['server']['settings']}). "
            f"Auth: {load['server']['auth']}. Loopback only; the load generator "
            f"({load.get('generator') or 'wrk'}; closed loop: each virtual user is a "
            "connection that sends its next request when the previous one answered) runs on "
            "the same machine, and its own CPU per request is shown beside every run.",
            f"Seeded: {seed['clients']} clients (importer), {seed['appointments']} appointments "
            f"in the week {seed['week'][0][:10]} ({seed['appointments_skipped'] or 'API'}), "
            f"{seed['notes']} draft session notes with four ~350-byte SOAP sections (API).",
            "",
            "### Throughput and latency",
            "",
            table(LATENCY_HEADERS, latency_rows(load["scenarios"])),
            "",
            "Latency is measured by the client, from sending the request to reading the whole "
            f'answer. "{BUSY_MARK.strip()}": other processes on this shared machine used more '
            f"than {BUSY_CORES} cores during that run, so it understates what CareVault does on "
            "a machine of its own. Autosave conflicts (two virtual users saving the same "
            "draft at the same version) answer 409, are counted apart from errors and are "
            "followed by a GET of the note, as the UI does (those GETs are not in the row's "
            "figures; loadtest.json has them as `refetches`).",
            "",
            "### Encryption share of request time (estimate)",
            "",
            table(ENCRYPTION_HEADERS, encryption_rows(load["scenarios"])),
            "",
            ENCRYPTION_METHOD.format(
                value_bytes=cost["value_bytes"],
                encrypt_us=cost["encrypt_us"],
                decrypt_us=cost["decrypt_us"],
            ),
            "",
            "### CPU and database",
            "",
            table(CPU_HEADERS, cpu_rows(load["scenarios"])),
            "",
            "CPU per request from the processes' CPU times over each run (the generator's from "
            "the kernel's account of the wrk process; this tool's own sampling while wrk runs "
            "is in loadtest.json as `tool_ms_per_request`); database waits from "
            "`pg_stat_activity` sampled every 100 ms (`Lock:advisory`: a per-workspace lock; "
            "audit events take none since issue 10, appointment writes still do).",
            "",
            "### Memory",
            "",
            f"Peak resident memory of the server (sum of RSS over its process tree, sampled "
            f"every {memory['interval_seconds']} s): **{mib(memory['peak_rss_bytes'])}** "
            f"during {memory.get('peak_phase') or 'the run'} (per process: {per_process}); "
            f"{mib(memory.get('peak_during_measured_runs_bytes'))} at most during the measured "
            f"runs; {mib(memory['after_start_rss_bytes'])} right after start. A sign-in "
            "verifies an argon2id hash that takes 64 MiB while it runs, so concurrent sign-ins "
            "raise the peak.",
            "",
        ]
        diagnostics = load.get("diagnostics")
        if diagnostics and "audit_events" in diagnostics:
            out += ["### Audit trail after the run", "", *audit_section(diagnostics), ""]
    if results.get("load_error"):
        last = results["load_error"].strip().splitlines()[-1]
        out += ["## Load test", "", f"The load test failed: `{last}` (see loadtest.json).", ""]
    imported = results.get("import")
    if imported:
        out += ["## Bulk import", "", *import_section(imported), ""]
    return "\n".join(out)


def render_summary(results: Mapping[str, Any]) -> str:
    lines = []
    load = results.get("load")
    if load:
        lines.append(table(LATENCY_HEADERS, latency_rows(load["scenarios"])))
        lines.append("")
        lines.append(table(ENCRYPTION_HEADERS, encryption_rows(load["scenarios"])))
        lines.append("")
        lines.append(f"Server peak RSS: {mib(load['memory']['peak_rss_bytes'])}")
    imported = results.get("import")
    if imported:
        lines.append(
            f"Import: {number(imported['records'], 0)} clients, "
            f"{number(imported['records_per_second'], 0)} records/s, "
            f"{number(imported['bytes_per_record'], 0)} bytes/record on disk"
        )
    return "\n".join(lines)
