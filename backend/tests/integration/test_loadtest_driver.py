"""The load generator end to end: wrk runs tools/loadtest/driver.lua against a stub HTTP server
that records every request, and generator.py reads what the driver printed.

What the tool's figures rest on: a run stops by itself at its request budget or its time
budget, with exactly the budgeted requests sent; concurrency is the number of connections;
a request that never answers is cut off and counted; an autosave 409 is followed by one GET
of the note and the next save sends the version it read; answers are paired with requests.
Needs Debian's wrk (scripts/setup-machine.sh installs it): skipped without it, except in CI.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.loadtest.generator import (  # noqa: E402
    AutosaveMix,
    GeneratorRun,
    Group,
    RequestMix,
    Wrk,
    find_wrk,
    run_wrk,
)
from tools.loadtest.stats import summarize  # noqa: E402

API = "/api/v1"
SECTIONS = ("subjective", "objective", "assessment", "plan")


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class StubServer:
    """HTTP/1.1 with keep-alive on loopback, in a thread: notes with versions (a PATCH at a
    stale version gets 409), `/hang` never answers, `/fail` answers 500."""

    echo_request_id: bool = True
    delay: float = 0.002
    versions: dict[str, int] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    in_flight: int = 0
    peak_in_flight: int = 0
    port: int = 0

    async def _answer(self, request: Seen) -> tuple[int, bytes]:
        note = request.path.rsplit("/", 1)[-1]
        if request.path == "/hang":
            await asyncio.sleep(3600)
        await asyncio.sleep(self.delay)
        if request.path == "/fail":
            return 500, b'{"code":"internal"}'
        current = self.versions.setdefault(note, 1)
        if request.method == "PATCH":
            sent = json.loads(request.body)
            if sent["version"] != current:
                return 409, json.dumps({"details": {"current_version": current}}).encode()
            self.versions[note] = current = current + 1
        return 200, json.dumps({"id": note, "subjective": "x", "version": current}).encode()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                method, path, _ = line.decode().split(" ", 2)
                headers: dict[str, str] = {}
                while (header := await reader.readline()) not in (b"\r\n", b""):
                    name, value = header.decode().split(":", 1)
                    headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                request = Seen(method, path, headers, body)
                self.seen.append(request)
                self.in_flight += 1
                self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
                try:
                    status, answer = await self._answer(request)
                finally:
                    self.in_flight -= 1
                echo = headers.get("x-request-id", "") if self.echo_request_id else "other-id-1"
                writer.write(
                    f"HTTP/1.1 {status} X\r\ncontent-length: {len(answer)}\r\n"
                    f"x-request-id: {echo}\r\n\r\n".encode()
                    + answer
                )
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def wrk() -> Wrk:
    if shutil.which("wrk") is None:
        message = "wrk is not installed (Debian: apt-get install wrk)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"the load generator's tests need wrk in CI: {message}")
        pytest.skip(message)
    return find_wrk()


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer()
    loop = asyncio.new_event_loop()
    started = threading.Event()
    stop = asyncio.Event()

    async def serve() -> None:
        listening = await asyncio.start_server(server._connection, "127.0.0.1", 0)
        server.port = listening.sockets[0].getsockname()[1]
        started.set()
        await stop.wait()
        listening.close()
        others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in others:  # connections still open, /hang ones included
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    assert started.wait(10)
    yield server
    loop.call_soon_threadsafe(stop.set)
    thread.join(10)
    loop.close()


def reads(*paths: str) -> RequestMix:
    return RequestMix(groups=(Group("tok", paths),))


def drive(
    wrk: Wrk,
    stub: StubServer,
    mix: RequestMix,
    tmp_path: Path,
    *,
    concurrency: int,
    budget: int,
    seconds: float = 30.0,
    grace: float = 10.0,
) -> GeneratorRun:
    return run_wrk(
        wrk,
        stub.base_url,
        mix,
        api=API,
        concurrency=concurrency,
        budget=budget,
        seconds=seconds,
        seed=3,
        work_dir=tmp_path / "run",
        grace_seconds=grace,
    )


def test_a_run_sends_exactly_its_budget_and_stops_by_itself(
    wrk: Wrk, stub: StubServer, tmp_path: Path
) -> None:
    began = time.monotonic()
    run = drive(wrk, stub, reads("/a", "/b", "/c"), tmp_path, concurrency=4, budget=37)

    assert time.monotonic() - began < 10  # not the 30 s time budget, nor wrk's -d of 40 s
    assert len(stub.seen) == 37
    assert (run.started, len(run.samples), run.cut_off) == (37, 37, 0)
    assert run.stopped_by == "requests"
    assert run.peak_in_flight == stub.peak_in_flight == 4  # connections = concurrency
    assert {s.kind for s in run.samples} == {"ok"}
    assert {request.path for request in stub.seen} == {"/a", "/b", "/c"}  # chosen at random
    assert {request.headers["authorization"] for request in stub.seen} == {"Bearer tok"}
    ids = [request.headers["x-request-id"] for request in stub.seen]
    assert len(set(ids)) == 37
    assert {len(id_) for id_ in ids} == {32}  # the length of the server's own ids
    assert 0 < run.cpu_seconds < 5  # wrk's own CPU, from the kernel
    # The driver times each request: never less than the server's own delay.
    assert min(s.latency for s in run.samples) >= stub.delay


def test_never_more_requests_in_flight_than_the_budget(
    wrk: Wrk, stub: StubServer, tmp_path: Path
) -> None:
    run = drive(wrk, stub, reads("/a"), tmp_path, concurrency=50, budget=3)

    assert len(stub.seen) == 3 and run.started == 3
    assert run.peak_in_flight <= 3


def test_a_run_stops_by_itself_at_its_time_budget(
    wrk: Wrk, stub: StubServer, tmp_path: Path
) -> None:
    began = time.monotonic()
    run = drive(wrk, stub, reads("/a"), tmp_path, concurrency=2, budget=10**9, seconds=0.5)

    assert time.monotonic() - began < 5
    assert run.stopped_by == "time"
    assert 0 < run.started == len(run.samples) == len(stub.seen)
    assert 0.5 <= run.wall_seconds < 2


def test_requests_that_never_answer_are_cut_off_and_counted(
    wrk: Wrk, stub: StubServer, tmp_path: Path
) -> None:
    began = time.monotonic()
    run = drive(
        wrk, stub, reads("/hang"), tmp_path, concurrency=3, budget=100, seconds=0.2, grace=0.5
    )

    assert time.monotonic() - began < 5
    assert (run.started, run.cut_off, run.samples) == (3, 3, [])
    summary = summarize(run.samples, run.wall_seconds, run.cut_off)
    assert summary.errors == 3
    assert summary.error_details == {"cut off at the time limit": 3}


def test_error_answers_are_errors_with_their_status(
    wrk: Wrk, stub: StubServer, tmp_path: Path
) -> None:
    run = drive(wrk, stub, reads("/fail", "/ok"), tmp_path, concurrency=2, budget=40)

    kinds = Counter((s.kind, s.detail) for s in run.samples)
    assert set(kinds) == {("ok", None), ("error", "HTTP 500")}
    assert sum(kinds.values()) == 40


def test_users_take_turns_over_practices_each_with_its_token(
    wrk: Wrk, stub: StubServer, tmp_path: Path
) -> None:
    mix = RequestMix(groups=(Group("ta", ("/a1", "/a2")), Group("tb", ("/b1",))))

    drive(wrk, stub, mix, tmp_path, concurrency=3, budget=30)

    by_token = Counter((request.headers["authorization"], request.path[1]) for request in stub.seen)
    assert by_token == {("Bearer ta", "a"): 15, ("Bearer tb", "b"): 15}


def test_autosave_refetches_after_a_409_and_saves_at_the_version_it_read(
    wrk: Wrk, stub: StubServer, tmp_path: Path
) -> None:
    notes = {"n1": 1, "n2": 1}
    texts = ('first "quoted" text', "second text\nwith a line break")
    mix = RequestMix(autosave=AutosaveMix("tok", notes, SECTIONS, texts))

    run = drive(wrk, stub, mix, tmp_path, concurrency=6, budget=120)

    patches = [request for request in stub.seen if request.method == "PATCH"]
    gets = [request for request in stub.seen if request.method == "GET"]
    conflicts = [s for s in run.samples if s.kind == "conflict"]
    assert len(patches) == len(run.samples) == 120  # the budget counts saves, not refetches
    assert conflicts, "six users saving two drafts must collide"
    assert len(gets) == len(conflicts) == len(run.refetches)  # one GET per 409
    assert {s.kind for s in run.refetches} == {"ok"}
    assert {s.kind for s in run.samples} == {"ok", "conflict"}
    saved = sum(1 for s in run.samples if s.kind == "ok")
    assert saved == sum(stub.versions.values()) - len(notes)  # each success added a version
    assert run.versions == stub.versions  # carried to the next run
    for request in patches:
        assert request.headers["content-type"] == "application/json"
        assert request.path in (f"{API}/sessions/n1", f"{API}/sessions/n2")
        body = json.loads(request.body)
        assert set(body) - {"version"} <= set(SECTIONS) and len(body) == 2
        assert next(v for k, v in body.items() if k != "version") in texts
    assert all(request.path.startswith(f"{API}/sessions/") for request in gets)


def test_a_stale_version_costs_one_409_and_one_refetch_then_saves_succeed(
    wrk: Wrk, stub: StubServer, tmp_path: Path
) -> None:
    stub.versions["n1"] = 5  # saved elsewhere since the tool last looked
    mix = RequestMix(autosave=AutosaveMix("tok", {"n1": 1}, SECTIONS, ("text",)))

    run = drive(wrk, stub, mix, tmp_path, concurrency=1, budget=3)

    assert [s.kind for s in run.samples] == ["conflict", "ok", "ok"]
    assert [(r.method, json.loads(r.body or b"{}").get("version")) for r in stub.seen] == [
        ("PATCH", 1),
        ("GET", None),
        ("PATCH", 5),
        ("PATCH", 6),
    ]
    assert run.versions == {"n1": 7} == stub.versions


def test_answers_without_the_request_id_fail_the_run_loudly(
    wrk: Wrk, stub: StubServer, tmp_path: Path
) -> None:
    stub.echo_request_id = False
    from tools.loadtest.generator import GeneratorError

    with pytest.raises(GeneratorError, match="X-Request-ID"):
        drive(wrk, stub, reads("/a"), tmp_path, concurrency=1, budget=2, seconds=0.3, grace=0.5)
