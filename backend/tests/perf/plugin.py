"""The budget plugin: after the benchmarks run, judge each median against budgets.toml, print
the verdict table, fail the session on a breach, and (for `make bench`) write a markdown report.

Environment:
- CAREVAULT_BENCH_MODE: `quick` (default; a few hundredths of a second per benchmark, what
  plain `pytest` and CI run) or `full` (pytest-benchmark's own options, as `make bench` sets).
- CAREVAULT_BENCH_BUDGET_SCALE: multiply every limit (0.01 shows a breach failing the run).
- CAREVAULT_BENCH_REPORT: write the markdown report to this path.
"""

from __future__ import annotations

import os
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import cryptography
import pytest
import sqlalchemy
from cryptography.hazmat.backends.openssl.backend import backend as openssl
from pytest_benchmark.utils import SecondsDecimal

from tests.perf.budget_check import (
    BudgetFileError,
    BudgetReport,
    Verdict,
    check,
    load_budgets,
    render_markdown,
    render_text,
    summary_line,
)

# Quick mode: about 0.05 s per benchmark, which still gives a sub-microsecond operation
# thousands of rounds; a short warm-up keeps a cold first call from fixing the iteration count.
QUICK_OPTIONS = {
    "min_rounds": 5,
    "max_time": SecondsDecimal("0.05"),
    "min_time": SecondsDecimal("0.00002"),
    "warmup": True,
    "warmup_iterations": 200,
}

# Facts about the run that fixtures learn (the PostgreSQL version), shown in the report.
RUN_FACTS = pytest.StashKey[dict[str, str]]()


def bench_mode() -> str:
    mode = os.environ.get("CAREVAULT_BENCH_MODE", "quick").strip().lower() or "quick"
    if mode not in {"quick", "full"}:
        raise pytest.UsageError(f"CAREVAULT_BENCH_MODE must be quick or full, not {mode!r}")
    return mode


def budget_scale() -> float:
    raw = os.environ.get("CAREVAULT_BENCH_BUDGET_SCALE", "1")
    try:
        return float(raw)
    except ValueError:
        raise pytest.UsageError(f"CAREVAULT_BENCH_BUDGET_SCALE is not a number: {raw!r}") from None


class BudgetPlugin:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.mode = bench_mode()
        self.scale = budget_scale()
        self.load_at_start = os.getloadavg()
        self.report: BudgetReport | None = None
        self.error: str | None = None
        config.stash[RUN_FACTS] = {}

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Quick mode replaces pytest-benchmark's run lengths before the first benchmark.
        (Here rather than at configure time: pytest-benchmark sets up after initial conftests.)"""
        benchmarks = getattr(self.config, "_benchmarksession", None)
        if benchmarks is not None and self.mode == "quick":
            benchmarks.options.update(QUICK_OPTIONS)

    def measured_medians(self) -> dict[str, float]:
        """Median of every benchmark that completed, in microseconds, by test name."""
        session = getattr(self.config, "_benchmarksession", None)
        medians: dict[str, float] = {}
        for bench in getattr(session, "benchmarks", []):
            if not bench or bench.has_error:
                continue
            if bench.name in medians:
                raise BudgetFileError(f"two benchmarks are named {bench.name}; rename one")
            medians[bench.name] = float(bench.stats.median) * 1e6
        return medians

    def evaluate(self) -> None:
        """Judge the medians once; called by whichever end-of-run hook comes first."""
        if self.report is not None or self.error is not None:
            return
        try:
            medians = self.measured_medians()
            if medians:
                self.report = check(medians, load_budgets(scale=self.scale))
        except BudgetFileError as exc:
            self.error = str(exc)

    def pytest_benchmark_update_json(self, output_json: dict[str, Any]) -> None:
        """--benchmark-json: add the verdicts, and drop the raw per-round timings (hundreds of
        thousands of numbers per run) that nobody reads from this file."""
        for bench in output_json.get("benchmarks", []):
            bench.get("stats", {}).pop("data", None)
        self.evaluate()
        if self.report is not None:
            output_json["carevault_budgets"] = {
                "mode": self.mode,
                "scale": self.scale,
                "passed": self.report.passed,
                "verdicts": [verdict_json(verdict) for verdict in self.report.verdicts],
                "not_run": list(self.report.not_run),
            }

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.evaluate()
        failed = self.error is not None or (self.report is not None and not self.report.passed)
        if failed and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        target = os.environ.get("CAREVAULT_BENCH_REPORT")
        if target and self.report is not None:
            path = Path(target)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(self.markdown()) + "\n", encoding="utf-8")

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.error is None and self.report is None:
            return
        writer = terminalreporter
        writer.section("encryption performance budgets", sep="=")
        if self.error is not None:
            writer.line(f"budgets.toml: {self.error}", red=True, bold=True)
            return
        assert self.report is not None
        writer.line(f"mode: {self.mode}; budget scale: {self.scale:g}")
        for line in render_text(self.report):
            failed_row = " FAIL" in line
            writer.line(line, red=failed_row, green=not failed_row and " PASS" in line)
        not_run = self.report.not_run
        if not_run:
            listed = ", ".join(not_run[:6]) + (
                f" and {len(not_run) - 6} more" if len(not_run) > 6 else ""
            )
            writer.line(
                f"budgets without a benchmark that ran ({len(not_run)}): {listed}", yellow=True
            )
        verdict = summary_line(self.report)
        if self.report.passed:
            writer.line(verdict, green=True)
        else:
            writer.line(f"BUDGETS BREACHED: {verdict}", red=True, bold=True)
            # Named again last: a log cut to its final lines (CI's summary) still says which.
            for failure in self.report.failures:
                reasons = "; ".join(failure.reasons)
                writer.line(f"  over budget: {failure.benchmark}: {reasons}", red=True)

    def markdown(self) -> list[str]:
        assert self.report is not None
        lines = [
            "# Encryption benchmarks",
            "",
            f"Generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; mode {self.mode}, "
            f"budget scale {self.scale:g}.",
            "",
            "## Machine",
            "",
        ]
        lines.extend(f"- {key}: {value}" for key, value in self.machine_facts().items())
        lines += ["", "## Results", "", *render_markdown(self.report), ""]
        if self.report.not_run:
            lines += ["Budgets without a benchmark that ran:", ""]
            lines += [f"- {name}" for name in self.report.not_run]
            lines.append("")
        verdict = "All within budget" if self.report.passed else "OVER BUDGET"
        lines.append(f"{verdict}: {summary_line(self.report)}.")
        return lines

    def machine_facts(self) -> dict[str, str]:
        session = getattr(self.config, "_benchmarksession", None)
        options = session.options if session is not None else {}
        facts = {
            "CPUs (`nproc`)": str(len(os.sched_getaffinity(0))),
            "CPU model": _cpu_model(),
            "OS": f"{platform.system()} {platform.release()}",
            "Python": platform.python_version(),
            "cryptography": f"{cryptography.__version__} ({openssl.openssl_version_text()})",
            "SQLAlchemy / asyncpg": f"{sqlalchemy.__version__} / {asyncpg.__version__}",
            **self.config.stash.get(RUN_FACTS, {}),
            "load average (1 min) at start / end": (
                f"{self.load_at_start[0]:.2f} / {os.getloadavg()[0]:.2f}"
            ),
            "pytest-benchmark": (
                f"min_rounds={options.get('min_rounds')}, max_time={options.get('max_time')} s, "
                f"warmup={options.get('warmup')}"
            ),
        }
        commit = _git_commit()
        if commit:
            facts["commit"] = commit
        return facts


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    budget = verdict.budget
    return {
        "benchmark": verdict.benchmark,
        "median_us": verdict.median_us,
        "max_median_us": budget.max_median_us if budget else None,
        "floor": budget.floor if budget else None,
        "ratio": verdict.ratio,
        "max_ratio": budget.max_ratio if budget else None,
        "overhead_per_item_us": verdict.overhead_per_item_us,
        "status": verdict.status.value,
        "reasons": list(verdict.reasons),
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _git_commit() -> str | None:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return f"{head} (with uncommitted changes)" if dirty else head
