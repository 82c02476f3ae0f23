"""Benchmark budgets: read them from budgets.toml and judge measured medians against them.

Pure functions over plain numbers (microseconds), so the judgement is tested without timing
anything. The pytest plugin (plugin.py) feeds it the medians pytest-benchmark measured.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

BUDGETS_FILE = Path(__file__).with_name("budgets.toml")
_BUDGET_KEYS = {"max_median_us", "floor", "max_ratio", "items", "item"}


class BudgetFileError(ValueError):
    """budgets.toml is malformed: an unknown key, a ratio without a floor, a bad number."""


@dataclass(frozen=True)
class Budget:
    """Limits for one benchmark. `floor` names the benchmark its ratio is taken against."""

    max_median_us: float
    floor: str | None = None
    max_ratio: float | None = None
    items: int | None = None
    item: str = "item"

    def scaled(self, scale: float) -> Budget:
        ratio = None if self.max_ratio is None else self.max_ratio * scale
        return Budget(self.max_median_us * scale, self.floor, ratio, self.items, self.item)

    def describe(self) -> str:
        parts = [f"≤ {format_us(self.max_median_us)}"]
        if self.max_ratio is not None:
            parts.append(f"≤ {self.max_ratio:.2g}× floor")
        return ", ".join(parts)


class Status(StrEnum):
    PASS = "PASS"
    FAIL = "FAIL"


@dataclass(frozen=True)
class Verdict:
    benchmark: str
    median_us: float
    budget: Budget | None
    floor_median_us: float | None
    status: Status
    reasons: tuple[str, ...] = ()

    @property
    def ratio(self) -> float | None:
        if self.floor_median_us is None or self.floor_median_us <= 0:
            return None
        return self.median_us / self.floor_median_us

    @property
    def overhead_per_item_us(self) -> float | None:
        """(median - floor) / items: what the benchmark adds per row or field over its floor."""
        if self.budget is None or not self.budget.items or self.floor_median_us is None:
            return None
        return (self.median_us - self.floor_median_us) / self.budget.items


@dataclass(frozen=True)
class BudgetReport:
    verdicts: tuple[Verdict, ...]
    not_run: tuple[str, ...] = field(default=())

    @property
    def failures(self) -> tuple[Verdict, ...]:
        return tuple(v for v in self.verdicts if v.status is Status.FAIL)

    @property
    def passed(self) -> bool:
        return not self.failures


def parse_budgets(document: Mapping[str, object], scale: float = 1.0) -> dict[str, Budget]:
    """Budgets from the parsed TOML document (`[budgets]` table), every limit times `scale`."""
    if not math.isfinite(scale) or scale <= 0:
        raise BudgetFileError(f"the budget scale must be a positive number, not {scale!r}")
    table = document.get("budgets")
    if not isinstance(table, Mapping) or not table:
        raise BudgetFileError("budgets.toml needs a non-empty [budgets] table")
    budgets: dict[str, Budget] = {}
    for name, entry in table.items():
        budgets[name] = _parse_entry(name, entry).scaled(scale)
    for name, budget in budgets.items():
        if budget.floor is not None and budget.floor not in budgets:
            raise BudgetFileError(f"{name}: floor {budget.floor!r} has no budget entry")
        if budget.floor == name:
            raise BudgetFileError(f"{name}: a benchmark cannot be its own floor")
    return budgets


def _parse_entry(name: str, entry: object) -> Budget:
    if not isinstance(entry, Mapping):
        raise BudgetFileError(f"{name}: expected an inline table of limits")
    unknown = set(entry) - _BUDGET_KEYS
    if unknown:
        raise BudgetFileError(f"{name}: unknown keys {sorted(unknown)}")
    ceiling = _positive(name, entry, "max_median_us")
    if ceiling is None:
        raise BudgetFileError(f"{name}: max_median_us is required")
    floor = entry.get("floor")
    if floor is not None and not isinstance(floor, str):
        raise BudgetFileError(f"{name}: floor must be a benchmark name")
    ratio = _positive(name, entry, "max_ratio")
    if ratio is not None and floor is None:
        raise BudgetFileError(f"{name}: max_ratio needs a floor")
    items = entry.get("items")
    if items is not None and (not isinstance(items, int) or items <= 0):
        raise BudgetFileError(f"{name}: items must be a positive integer")
    item = entry.get("item", "item")
    if not isinstance(item, str):
        raise BudgetFileError(f"{name}: item must be a word such as 'row'")
    return Budget(ceiling, floor, ratio, items, item)


def _positive(name: str, entry: Mapping[str, object], key: str) -> float | None:
    value = entry.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise BudgetFileError(f"{name}: {key} must be a positive number")
    return float(value)


def load_budgets(path: Path = BUDGETS_FILE, scale: float = 1.0) -> dict[str, Budget]:
    with path.open("rb") as handle:
        try:
            document = tomllib.load(handle)
        except tomllib.TOMLDecodeError as exc:
            raise BudgetFileError(f"{path.name}: {exc}") from None
    return parse_budgets(document, scale)


def check(medians_us: Mapping[str, float], budgets: Mapping[str, Budget]) -> BudgetReport:
    """Judge every measured median; a benchmark without a budget fails, and so does one whose
    floor did not run (its ratio could not be checked). Budgets nothing measured are listed."""
    verdicts = [_judge(name, median, budgets, medians_us) for name, median in medians_us.items()]
    not_run = tuple(name for name in budgets if name not in medians_us)
    return BudgetReport(tuple(verdicts), not_run)


def _judge(
    name: str, median: float, budgets: Mapping[str, Budget], medians: Mapping[str, float]
) -> Verdict:
    budget = budgets.get(name)
    if budget is None:
        return Verdict(name, median, None, None, Status.FAIL, ("no budget in budgets.toml",))
    reasons: list[str] = []
    if median > budget.max_median_us:
        reasons.append(f"median over {format_us(budget.max_median_us)}")
    floor_median = medians.get(budget.floor) if budget.floor else None
    if budget.floor and floor_median is None:
        reasons.append(f"floor {budget.floor} did not run")
    elif (
        floor_median is not None
        and budget.max_ratio is not None
        and (floor_median <= 0 or median / floor_median > budget.max_ratio)
    ):
        reasons.append(f"over {budget.max_ratio:.2g}× floor")
    status = Status.FAIL if reasons else Status.PASS
    return Verdict(name, median, budget, floor_median, status, tuple(reasons))


# Rendering -------------------------------------------------------------------------------

TABLE_HEADER = ("benchmark", "median", "budget", "× floor", "overhead", "result")


def format_us(microseconds: float) -> str:
    if microseconds < 0:
        return "-" + format_us(-microseconds)
    if microseconds >= 1_000_000:
        return f"{microseconds / 1_000_000:.3g} s"
    if microseconds >= 1000:
        return f"{microseconds / 1000:.3g} ms"
    if microseconds >= 1:
        return f"{microseconds:.3g} µs"
    return f"{microseconds * 1000:.3g} ns"


def table_rows(report: BudgetReport) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for verdict in report.verdicts:
        ratio = verdict.ratio
        overhead = verdict.overhead_per_item_us
        item = verdict.budget.item if verdict.budget else ""
        rows.append(
            (
                verdict.benchmark,
                format_us(verdict.median_us),
                verdict.budget.describe() if verdict.budget else "none",
                "" if ratio is None else f"{ratio:.2f}×",
                "" if overhead is None else f"{format_us(overhead)}/{item}",
                verdict.status.value
                + (f": {'; '.join(verdict.reasons)}" if verdict.reasons else ""),
            )
        )
    return rows


def render_text(report: BudgetReport) -> list[str]:
    """A fixed-width table for the terminal."""
    rows = [TABLE_HEADER, *table_rows(report)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(TABLE_HEADER))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return [line.rstrip() for line in lines]


def render_markdown(report: BudgetReport) -> list[str]:
    lines = [
        "| " + " | ".join(TABLE_HEADER) + " |",
        "| " + " | ".join(("---", "---:", "---", "---:", "---:", "---")) + " |",
    ]
    lines.extend("| " + " | ".join(_md(cell) for cell in row) + " |" for row in table_rows(report))
    return lines


def _md(cell: str) -> str:
    return cell.replace("|", "\\|")


def summary_line(report: BudgetReport) -> str:
    text = f"{len(report.verdicts)} benchmarks checked, {len(report.failures)} over budget"
    if report.not_run:
        text += f"; {len(report.not_run)} budgets had no benchmark run"
    return text
