"""The load generator: wrk (Debian's `wrk`, compiled C with LuaJIT) running driver.lua.

The Python generator this replaces (asyncio + httpx) spent 3 to 7 ms of CPU per request,
as much as the server it measured, on the same two cores. wrk spends a few tens of
microseconds. One wrk thread drives every connection, so one Lua state holds the whole run:
one request budget, one deadline, and the versions autosave has seen, as the Python
generator's shared state did.

This module writes a run's plan (what to request, the bounds) as a Lua file, runs wrk, and
turns the lines driver.lua prints into the `Sample`s that stats.summarize() reads, with
wrk's own CPU time from the kernel (wait4).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from tools.loadtest.stats import Sample

DRIVER = Path(__file__).with_name("driver.lua")
# In-flight requests get this long after the time budget before they are cut off.
GRACE_SECONDS = 10.0
INSTALL_HINT = "install Debian's wrk (apt-get install wrk), or run `make loadtest`, which does"


class GeneratorError(RuntimeError):
    """wrk is missing, failed, or printed something the driver never prints."""


@dataclass(frozen=True)
class Wrk:
    path: str
    version: str

    def describe(self) -> str:
        return f"wrk {self.version}, one thread, LuaJIT script tools/loadtest/driver.lua"


def find_wrk() -> Wrk:
    """The wrk on PATH, or a GeneratorError whose message says in one line what to install."""
    path = shutil.which("wrk")
    if path is None:
        raise GeneratorError(f"the load generator wrk is not installed: {INSTALL_HINT}")
    # `wrk -v` prints "wrk 4.1.0 [epoll] Copyright ..." (Debian's: "wrk debian/4.1.0-3+b2")
    # and its usage, and exits 1.
    answer = subprocess.run(  # noqa: S603 (the wrk found on PATH, fixed arguments)
        [path, "-v"], capture_output=True, text=True, timeout=10, check=False
    )
    match = re.search(r"wrk (?:debian/)?(\S+)", answer.stdout + answer.stderr)
    return Wrk(path, match.group(1) if match else "(unknown version)")


# --- what a run requests -----------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    """Requests under one API token (one practice): GETs of paths chosen at random."""

    token: str
    paths: tuple[str, ...]


@dataclass(frozen=True)
class AutosaveMix:
    """PATCHes of random drafts, one SOAP section each, at the version last seen."""

    token: str
    versions: Mapping[str, int]  # note id -> version
    sections: tuple[str, ...]
    texts: tuple[str, ...]  # section contents, taken in turn


@dataclass(frozen=True)
class RequestMix:
    """What a scenario sends: GETs over `groups` (virtual users take turns over them), or
    autosaves."""

    groups: tuple[Group, ...] = ()
    autosave: AutosaveMix | None = None

    def __post_init__(self) -> None:
        if (self.autosave is None) == (not self.groups):
            raise ValueError("a request mix is either GETs over groups or autosaves")
        if any(not group.paths for group in self.groups):
            raise ValueError("every group needs at least one path")
        if self.autosave and not (self.autosave.versions and self.autosave.texts):
            raise ValueError("autosave needs notes and texts")


def lua_literal(value: object) -> str:
    """`value` (None, bool, int, float, str, list/tuple, str-keyed mapping) as a Lua
    expression. Strings keep only printable ASCII other than quote and backslash as they are;
    every other byte becomes a decimal escape, so nothing in a value can end the literal."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("only finite numbers")
        return repr(value)
    if isinstance(value, str):
        return '"' + "".join(_lua_byte(b) for b in value.encode()) + '"'
    if isinstance(value, list | tuple):
        return "{" + ", ".join(lua_literal(item) for item in value) + "}"
    if isinstance(value, Mapping):
        items = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError("table keys must be strings")
            items.append(f"[{lua_literal(key)}] = {lua_literal(item)}")
        return "{" + ", ".join(items) + "}"
    raise TypeError(f"no Lua literal for {type(value).__name__}")


def _lua_byte(byte: int) -> str:
    if 0x20 <= byte < 0x7F and byte not in (0x22, 0x5C):
        return chr(byte)
    return f"\\{byte:03d}"


def plan_source(mix: RequestMix, *, api: str, budget: int, seconds: float, seed: int) -> str:
    """The Lua file driver.lua loads: the requests to make and the run's bounds."""
    plan: dict[str, object] = {"api": api, "budget": budget, "seconds": seconds, "seed": seed}
    if mix.autosave is not None:
        auth: dict[str, str] = {"Authorization": f"Bearer {mix.autosave.token}"}
        plan["autosave"] = {
            "headers": auth | {"Content-Type": "application/json"},
            "read_headers": auth,
            "notes": [
                {"id": note, "version": version} for note, version in mix.autosave.versions.items()
            ],
            "sections": list(mix.autosave.sections),
            "texts": [json.dumps(text) for text in mix.autosave.texts],
        }
    else:
        plan["groups"] = [
            {"headers": {"Authorization": f"Bearer {group.token}"}, "paths": list(group.paths)}
            for group in mix.groups
        ]
    return "-- Written by tools/loadtest/generator.py for driver.lua.\nreturn " + (
        lua_literal(plan) + "\n"
    )


# --- what a run measured -----------------------------------------------------------------


@dataclass(frozen=True)
class GeneratorRun:
    """One wrk run, in the shape the Python generator's runs had."""

    samples: list[Sample]  # requests of the workload
    refetches: list[Sample]  # autosave's GETs after a 409
    started: int
    cut_off: int  # in flight at the hard time limit: errors without a latency
    wall_seconds: float
    peak_in_flight: int
    stopped_by: str  # "requests" or "time"
    versions: dict[str, int] = field(default_factory=dict)  # autosave: the newest seen
    socket_errors: dict[str, int] = field(default_factory=dict)
    cpu_seconds: float = 0.0  # wrk's user + system time


def classify(kind: str, status: int, *, conflicts: bool) -> tuple[str, str | None]:
    """A sample's kind and detail. A 409 of the workload's own request is a conflict when
    the workload expects them (autosave), else an error like every status from 400 up."""
    if kind == "m" and conflicts and status == 409:
        return "conflict", "HTTP 409"
    if status < 400:
        return "ok", None
    return "error", f"HTTP {status}"


def parse_output(text: str, *, budget: int, conflicts: bool) -> GeneratorRun:
    """Read driver.lua's lines (wrk's own report around them is ignored)."""
    samples: list[Sample] = []
    refetches: list[Sample] = []
    versions: dict[str, int] = {}
    run: dict[str, int] | None = None
    socket_errors: dict[str, int] = {}
    unpaired = 0
    for line in text.splitlines():
        if line.startswith("cv "):
            parts = line.split()
            kind, status, latency_us, size = parts[1], int(parts[2]), int(parts[3]), int(parts[4])
            if kind == "u":
                unpaired += 1
                continue
            if kind not in ("m", "r") or len(parts) not in (5, 7):
                raise GeneratorError(f"unexpected line from the driver: {line!r}")
            outcome, detail = classify(kind, status, conflicts=conflicts)
            sample = Sample(latency_us / 1e6, outcome, detail, size)
            (samples if kind == "m" else refetches).append(sample)
            if len(parts) == 7:
                note, version = parts[5], int(parts[6])
                versions[note] = max(version, versions.get(note, 0))
        elif line.startswith("cv-run "):
            run = _key_values(line)
        elif line.startswith("cv-wrk "):
            counts = _key_values(line)
            socket_errors = {k: v for k, v in counts.items() if k != "requests" and v}
    if unpaired:
        raise GeneratorError(
            f"{unpaired} answers without the X-Request-ID the driver sent: it pairs answers "
            "with requests by that header, which the server echoes"
        )
    if run is None:
        raise GeneratorError("the driver's summary line is missing (did wrk run driver.lua?)")
    if run["completed"] != len(samples):
        raise GeneratorError(
            f"the driver counted {run['completed']} answers but printed {len(samples)}"
        )
    # A refetch still in flight at the hard limit was part of an operation: an error.
    refetches += [Sample(0.0, "error", "cut off at the time limit")] * (
        run["in_flight"] - run["main_in_flight"]
    )
    return GeneratorRun(
        samples=samples,
        refetches=refetches,
        started=run["started"],
        cut_off=run["main_in_flight"],
        wall_seconds=run["wall_us"] / 1e6,
        peak_in_flight=run["peak_in_flight"],
        stopped_by="requests" if run["started"] >= budget else "time",
        versions=versions,
        socket_errors=socket_errors,
    )


def _key_values(line: str) -> dict[str, int]:
    return {key: int(value) for key, value in (item.split("=") for item in line.split()[1:])}


# --- running wrk -------------------------------------------------------------------------


def wrk_command(
    wrk: Wrk, base_url: str, plan_path: Path, *, concurrency: int, hard_limit_seconds: float
) -> list[str]:
    return [
        wrk.path,
        "--threads",
        "1",
        "--connections",
        str(concurrency),
        "--duration",
        f"{math.ceil(hard_limit_seconds)}s",
        "--script",
        str(DRIVER),
        base_url,
        "--",
        str(plan_path),
    ]


def run_wrk(
    wrk: Wrk,
    base_url: str,
    mix: RequestMix,
    *,
    api: str,
    concurrency: int,
    budget: int,
    seconds: float,
    seed: int,
    work_dir: Path,
    grace_seconds: float = GRACE_SECONDS,
) -> GeneratorRun:
    """One bounded run at `concurrency` connections. Blocking (call it in a thread)."""
    if concurrency < 1 or budget < 1 or seconds <= 0:
        raise ValueError("concurrency, budget and seconds must be positive")
    work_dir.mkdir(parents=True, exist_ok=True)
    plan_path = work_dir / "plan.lua"
    plan_path.write_text(plan_source(mix, api=api, budget=budget, seconds=seconds, seed=seed))
    command = wrk_command(
        wrk,
        base_url,
        plan_path,
        concurrency=concurrency,
        hard_limit_seconds=seconds + grace_seconds,
    )
    out_path, err_path = work_dir / "wrk.out", work_dir / "wrk.err"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        process = subprocess.Popen(command, stdout=out, stderr=err)  # noqa: S603 (our own)
        # wait4 rather than wait: the kernel's account of this child's CPU time.
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    stderr = err_path.read_text(errors="replace").strip()
    if process.returncode != 0 or stderr:
        last = stderr.splitlines()[-1] if stderr else f"exit status {process.returncode}"
        raise GeneratorError(f"wrk failed: {last} (see {err_path})")
    run = parse_output(
        out_path.read_text(errors="replace"), budget=budget, conflicts=mix.autosave is not None
    )
    return replace(run, cpu_seconds=usage.ru_utime + usage.ru_stime)


def versions_after(before: Mapping[str, int], run: GeneratorRun) -> dict[str, int]:
    """The versions autosave should send next: the newest of what it knew and what it saw."""
    merged = dict(before)
    for note, version in run.versions.items():
        merged[note] = max(version, merged.get(note, 0))
    return merged
