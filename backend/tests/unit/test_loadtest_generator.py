"""The load generator's Python side (tools/loadtest/generator.py): the plan it writes for the
Lua driver, and how it reads the driver's output. The driver itself, run by wrk against a
stub server, is tested in tests/integration/test_loadtest_driver.py."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.loadtest import cli, generator  # noqa: E402
from tools.loadtest.fakedata import SOAP_FIELDS, PracticeData  # noqa: E402
from tools.loadtest.generator import (  # noqa: E402
    AutosaveMix,
    GeneratorError,
    Group,
    RequestMix,
    lua_literal,
    parse_output,
    plan_source,
)
from tools.loadtest.scenarios import (  # noqa: E402
    Practice,
    Workload,
    autosave,
    list_clients,
    read_note_practices,
    read_week,
)
from tools.loadtest.stats import summarize  # noqa: E402

# --- the plan: Lua literals --------------------------------------------------------------------


def test_lua_strings_escape_every_byte_that_could_end_or_bend_the_literal() -> None:
    assert lua_literal('a "b" \\ c') == '"a \\034b\\034 \\092 c"'
    assert lua_literal("line\nbreak]]") == '"line\\010break]]"'
    assert lua_literal("é") == '"\\195\\169"'  # UTF-8 bytes, each escaped


def test_lua_tables_numbers_and_nothing() -> None:
    assert lua_literal({"a": [1, 2.5, True], "b": None}) == '{["a"] = {1, 2.5, true}, ["b"] = nil}'
    assert lua_literal(()) == "{}"


@pytest.mark.parametrize("value", [float("nan"), float("inf"), {1: "x"}, b"bytes", object()])
def test_lua_literal_refuses_what_it_cannot_write_faithfully(value: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        lua_literal(value)


def test_plan_of_autosave_carries_tokens_versions_and_json_texts() -> None:
    mix = RequestMix(autosave=AutosaveMix("tok", {"n1": 3}, ("plan",), ('say "hi"',)))

    source = plan_source(mix, api="/api/v1", budget=10, seconds=2.5, seed=7)

    assert source.startswith("-- Written by tools/loadtest/generator.py")
    assert '["budget"] = 10, ["seconds"] = 2.5, ["seed"] = 7' in source
    assert '["Authorization"] = "Bearer tok"' in source
    assert '["Content-Type"] = "application/json"' in source
    assert '{["id"] = "n1", ["version"] = 3}' in source
    # The text travels as a JSON string literal, itself escaped for Lua.
    assert '"\\034say \\092\\034hi\\092\\034\\034"' in source
    assert '["groups"]' not in source


def test_a_mix_is_either_gets_or_autosaves() -> None:
    with pytest.raises(ValueError):
        RequestMix()
    with pytest.raises(ValueError):
        RequestMix(groups=(Group("t", ()),))
    with pytest.raises(ValueError):
        RequestMix(
            groups=(Group("t", ("/x",)),), autosave=AutosaveMix("t", {"n": 1}, ("plan",), ("x",))
        )


# --- the scenarios' mixes ----------------------------------------------------------------------


def workload(**changes: object) -> Workload:
    base = Workload(
        note_ids=["n1", "n2"],
        draft_ids=["n2"],
        client_count=101,
        week_start=datetime(2026, 11, 23, tzinfo=UTC),
        week_end=datetime(2026, 11, 30, tzinfo=UTC),
        data=PracticeData(1),
        versions={"n1": 1, "n2": 4},
    )
    for key, value in changes.items():
        setattr(base, key, value)
    return base


def test_client_list_pages_cover_the_practice() -> None:
    (group,) = list_clients(workload(), "tok").groups
    pages = [parse_qs(urlsplit(path).query) for path in group.paths]
    assert [page["page"] for page in pages] == [["1"], ["2"], ["3"]]  # 101 clients, 50 a page
    assert {page["page_size"][0] for page in pages} == {"50"}


def test_the_week_query_encodes_its_time_zone() -> None:
    (group,) = read_week(workload(), "tok").groups
    (path,) = group.paths
    assert "start=2026-11-23T00%3A00%3A00%2B00%3A00" in path  # a raw + would read as a space
    assert parse_qs(urlsplit(path).query)["end"] == ["2026-11-30T00:00:00+00:00"]


def test_autosave_saves_drafts_at_the_versions_last_seen() -> None:
    mix = autosave(workload(), "tok").autosave
    assert mix is not None
    assert dict(mix.versions) == {"n2": 4}
    assert mix.sections == SOAP_FIELDS
    assert len(set(mix.texts)) > 1 and all(300 <= len(t) <= 350 for t in mix.texts)


def test_practices_read_each_with_its_own_token() -> None:
    practices = [Practice("A", "ta", ["a1"]), Practice("B", "tb", ["b1", "b2"])]
    mix = read_note_practices(workload(practices=practices), "unused")
    assert [(g.token, g.paths) for g in mix.groups] == [
        ("ta", ("/api/v1/sessions/a1",)),
        ("tb", ("/api/v1/sessions/b1", "/api/v1/sessions/b2")),
    ]


# --- reading the driver's output ---------------------------------------------------------------

WRK_REPORT = """Running 31s test @ http://127.0.0.1:8000
  1 threads and 2 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.64ms  158.47us   2.27ms   72.76%
  6 requests in 98.80ms, 27.28KB read
  Non-2xx or 3xx responses: 2
Requests/sec:     60.73
"""


def driver_output(lines: str, run: str) -> str:
    return WRK_REPORT + lines + run + "\ncv-wrk requests=6 connect=0 read=1 write=0\n"


AUTOSAVE_LINES = """cv m 200 1500 120 n1 3
cv m 409 900 80 n1 3
cv m 200 2500 120 n2 8
cv r 200 700 400 n1 4
cv m 500 3000 60 n2 8
"""


def test_autosave_conflicts_are_apart_from_errors_and_refetches_apart_from_saves() -> None:
    run = parse_output(
        driver_output(
            AUTOSAVE_LINES,
            "cv-run started=6 completed=4 refetches=1 in_flight=1 main_in_flight=1 "
            "peak_in_flight=2 wall_us=2500000 finished_itself=0",
        ),
        budget=100,
        conflicts=True,
    )

    assert [(s.kind, s.detail) for s in run.samples] == [
        ("ok", None),
        ("conflict", "HTTP 409"),
        ("ok", None),
        ("error", "HTTP 500"),
    ]
    assert [s.latency for s in run.samples] == [0.0015, 0.0009, 0.0025, 0.003]
    assert [(s.kind, s.latency, s.response_bytes) for s in run.refetches] == [("ok", 0.0007, 400)]
    assert run.versions == {"n1": 4, "n2": 8}  # the newest seen of each
    assert (run.started, run.cut_off, run.peak_in_flight) == (6, 1, 2)
    assert run.stopped_by == "time"  # 6 of 100 started: the time budget ended it
    assert run.wall_seconds == 2.5
    assert run.socket_errors == {"read": 1}
    summary = summarize(run.samples, run.wall_seconds, run.cut_off)
    assert (summary.requests, summary.ok, summary.conflicts, summary.errors) == (5, 2, 1, 2)
    assert summary.error_details == {"HTTP 500": 1, "cut off at the time limit": 1}


def test_a_409_is_an_error_where_no_conflict_is_expected() -> None:
    run = parse_output(
        driver_output(
            "cv m 409 900 80\ncv m 302 100 0\n",
            "cv-run started=2 completed=2 refetches=0 in_flight=0 main_in_flight=0 "
            "peak_in_flight=1 wall_us=1000 finished_itself=1",
        ),
        budget=2,
        conflicts=False,
    )
    assert [(s.kind, s.detail) for s in run.samples] == [("error", "HTTP 409"), ("ok", None)]
    assert run.stopped_by == "requests"


def test_a_refetch_in_flight_at_the_hard_limit_is_a_failed_refetch() -> None:
    run = parse_output(
        driver_output(
            "",
            "cv-run started=1 completed=0 refetches=1 in_flight=2 main_in_flight=1 "
            "peak_in_flight=2 wall_us=1000 finished_itself=0",
        ),
        budget=1,
        conflicts=True,
    )
    assert run.cut_off == 1
    assert [(s.kind, s.detail) for s in run.refetches] == [("error", "cut off at the time limit")]


@pytest.mark.parametrize(
    ("lines", "run", "message"),
    [
        (
            "cv u 200 -1 10\n",
            "cv-run started=1 completed=0 refetches=0 in_flight=1 main_in_flight=1 "
            "peak_in_flight=1 wall_us=1 finished_itself=0",
            "X-Request-ID",
        ),
        ("cv m 200 10 10\n", "", "summary line is missing"),
        (
            "cv m 200 10 10\n",
            "cv-run started=2 completed=2 refetches=0 in_flight=0 main_in_flight=0 "
            "peak_in_flight=1 wall_us=1 finished_itself=1",
            "counted 2 answers but printed 1",
        ),
        ("cv x 200 10 10\n", "", "unexpected line"),
    ],
)
def test_output_the_driver_never_prints_is_refused(lines: str, run: str, message: str) -> None:
    with pytest.raises(GeneratorError, match=message):
        parse_output(driver_output(lines, run), budget=1, conflicts=False)


# --- a machine without wrk ---------------------------------------------------------------------


def test_without_wrk_the_tool_stops_at_once_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", "")

    assert cli.main(["--quick"]) == 2

    lines = capsys.readouterr().err.splitlines()
    assert lines == [f"loadtest: the load generator wrk is not installed: {generator.INSTALL_HINT}"]
    assert "apt-get install wrk" in lines[0]
