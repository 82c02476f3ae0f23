"""The budget checker on synthetic numbers: no timing, so these verdicts never flake."""

from __future__ import annotations

import pytest

from tests.perf.budget_check import (
    Budget,
    BudgetFileError,
    Status,
    check,
    format_us,
    load_budgets,
    parse_budgets,
    render_markdown,
    render_text,
)

BUDGETS = {
    "floor": Budget(max_median_us=10),
    "field": Budget(max_median_us=30, floor="floor", max_ratio=3.0),
    "reference": Budget(max_median_us=200, floor="floor"),
    "bulk": Budget(max_median_us=1000, floor="floor", max_ratio=50, items=100, item="field"),
}


def verdict_of(name: str, medians: dict[str, float]) -> tuple[Status, tuple[str, ...]]:
    found = {v.benchmark: v for v in check(medians, BUDGETS).verdicts}[name]
    return found.status, found.reasons


def test_within_both_limits_passes() -> None:
    assert verdict_of("field", {"floor": 1.0, "field": 2.5}) == (Status.PASS, ())


def test_over_the_absolute_ceiling_fails() -> None:
    status, reasons = verdict_of("field", {"floor": 20.0, "field": 40.0})
    assert status is Status.FAIL
    assert reasons == ("median over 30 µs",)


def test_over_the_ratio_fails_even_under_the_ceiling() -> None:
    status, reasons = verdict_of("field", {"floor": 1.0, "field": 3.5})
    assert status is Status.FAIL
    assert reasons == ("over 3× floor",)


def test_a_ratio_exactly_at_the_limit_passes() -> None:
    assert verdict_of("field", {"floor": 2.0, "field": 6.0})[0] is Status.PASS


def test_both_breaches_are_reported() -> None:
    _, reasons = verdict_of("field", {"floor": 9.0, "field": 31.0})
    assert reasons == ("median over 30 µs", "over 3× floor")


def test_a_floor_without_max_ratio_is_only_reported() -> None:
    report = check({"floor": 1.0, "reference": 150.0}, BUDGETS)
    reference = report.verdicts[1]
    assert reference.status is Status.PASS
    assert reference.ratio == 150.0


def test_a_benchmark_without_a_budget_fails() -> None:
    report = check({"floor": 1.0, "brand_new": 0.5}, BUDGETS)
    assert not report.passed
    assert report.failures[0].benchmark == "brand_new"
    assert report.failures[0].reasons == ("no budget in budgets.toml",)


def test_a_budget_without_a_benchmark_is_listed_not_failed() -> None:
    report = check({"floor": 1.0}, BUDGETS)
    assert report.passed
    assert report.not_run == ("field", "reference", "bulk")


def test_a_ratio_budget_whose_floor_did_not_run_fails() -> None:
    status, reasons = verdict_of("field", {"field": 2.0})
    assert status is Status.FAIL
    assert reasons == ("floor floor did not run",)


def test_overhead_per_item_is_the_difference_over_the_floor() -> None:
    report = check({"floor": 100.0, "bulk": 400.0}, BUDGETS)
    assert report.verdicts[1].overhead_per_item_us == pytest.approx(3.0)


def test_scale_tightens_every_limit() -> None:
    document = {
        "budgets": {
            "f": {"max_median_us": 10},
            "g": {"max_median_us": 30, "floor": "f", "max_ratio": 3.0},
        }
    }
    scaled = parse_budgets(document, scale=0.5)
    assert scaled["g"] == Budget(max_median_us=15, floor="f", max_ratio=1.5)
    assert not check({"f": 1.0, "g": 2.0}, scaled).passed


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"max_median_us": 5, "max_ratoi": 2}, "unknown keys"),
        ({"floor": "f"}, "max_median_us is required"),
        ({"max_median_us": 5, "max_ratio": 2}, "max_ratio needs a floor"),
        ({"max_median_us": -1}, "must be a positive number"),
        ({"max_median_us": 5, "floor": "missing"}, "has no budget entry"),
        ({"max_median_us": 5, "items": 0}, "items must be a positive integer"),
    ],
)
def test_malformed_budgets_are_refused(entry: dict[str, object], message: str) -> None:
    with pytest.raises(BudgetFileError, match=message):
        parse_budgets({"budgets": {"f": {"max_median_us": 1}, "g": entry}})


def test_a_zero_scale_is_refused() -> None:
    with pytest.raises(BudgetFileError, match="positive"):
        parse_budgets({"budgets": {"f": {"max_median_us": 1}}}, scale=0)


def test_the_project_budgets_file_is_valid() -> None:
    budgets = load_budgets()
    field_paths = [name for name in budgets if "[EncryptedString-" in name]
    assert field_paths
    # The field path is never allowed more than 3x its floor (docs/explanation/performance.md).
    assert all((budgets[name].max_ratio or 99) <= 3.0 for name in field_paths)


def test_the_tables_show_every_verdict() -> None:
    report = check({"floor": 1.0, "field": 4.0}, BUDGETS)
    text = "\n".join(render_text(report))
    markdown = "\n".join(render_markdown(report))
    assert "FAIL: over 3× floor" in text and "PASS" in text
    assert "| field | 4 µs | ≤ 30 µs, ≤ 3× floor | 4.00× |" in markdown


def test_durations_are_shown_in_their_unit() -> None:
    """A whole job (reencrypt) is budgeted in seconds: "3 s", not "3e+03 ms"."""
    assert [format_us(us) for us in (0.25, 4.0, 1500.0, 3_000_000.0)] == [
        "250 ns",
        "4 µs",
        "1.5 ms",
        "3 s",
    ]
