"""The workloads: read a session note, autosave a draft, list clients, read a week, and read
notes across several practices. Each says what the load generator sends (a RequestMix for
driver.lua); the generator decides when."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlencode

from tools.loadtest.api import API
from tools.loadtest.fakedata import SOAP_FIELDS, PracticeData
from tools.loadtest.generator import AutosaveMix, Group, RequestMix

CLIENT_PAGE_SIZE = 50
AUTOSAVE_BYTES = 350
# Autosave sends these many different section texts in turn (each about AUTOSAVE_BYTES).
AUTOSAVE_TEXTS = 64


@dataclass(frozen=True)
class Practice:
    """Another practice (workspace) on the same instance, with its own token and notes."""

    name: str
    token: str
    note_ids: list[str]


@dataclass
class Workload:
    """What the seeded practice holds, and the versions of its drafts that autosave last saw
    (carried from one run to the next)."""

    note_ids: list[str]
    draft_ids: list[str]
    client_count: int
    week_start: datetime
    week_end: datetime
    data: PracticeData
    versions: dict[str, int] = field(default_factory=dict)
    practices: list[Practice] = field(default_factory=list)


MixFactory = Callable[[Workload, str], RequestMix]


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    request: str
    # A GET whose 404/405 means the route is not mounted (None: always available).
    probe: Callable[[Workload], str] | None
    # What to send, given the workload and the seeded practice's API token.
    mix: MixFactory
    # Why the scenario cannot run with this workload, if it cannot.
    skip_reason: Callable[[Workload], str | None] | None = None


def note_path(note_id: str) -> str:
    return f"{API}/sessions/{note_id}"


def read_note(workload: Workload, token: str) -> RequestMix:
    """GET a random note of the practice."""
    return RequestMix(groups=(Group(token, tuple(map(note_path, workload.note_ids))),))


def autosave(workload: Workload, token: str) -> RequestMix:
    """PATCH one SOAP section (sections in turn) of a random draft at the version last seen.
    Several virtual users may pick the same draft at once, as two open tabs would: the
    later save gets 409, which is counted as a conflict (not an error) and followed by a GET
    of the note, as the UI does; the next save of that draft sends the version it read."""
    texts = tuple(workload.data.text(AUTOSAVE_BYTES) for _ in range(AUTOSAVE_TEXTS))
    versions = {note: workload.versions[note] for note in workload.draft_ids}
    return RequestMix(autosave=AutosaveMix(token, versions, SOAP_FIELDS, texts))


def read_note_practices(workload: Workload, token: str) -> RequestMix:
    """Like read_note, but the virtual users take turns across several practices, each
    with its own API token: the mix a multi-practice instance serves."""
    return RequestMix(
        groups=tuple(
            Group(practice.token, tuple(map(note_path, practice.note_ids)))
            for practice in workload.practices
        )
    )


def _needs_practices(workload: Workload) -> str | None:
    return None if workload.practices else "not run (--practices 0)"


def _pages(workload: Workload) -> int:
    return max(1, -(-workload.client_count // CLIENT_PAGE_SIZE))


def list_clients(workload: Workload, token: str) -> RequestMix:
    """GET a random page of the client list."""
    paths = tuple(
        f"{API}/clients?" + urlencode({"page": page, "page_size": CLIENT_PAGE_SIZE})
        for page in range(1, _pages(workload) + 1)
    )
    return RequestMix(groups=(Group(token, paths),))


def week_path(workload: Workload) -> str:
    query = {"start": workload.week_start.isoformat(), "end": workload.week_end.isoformat()}
    return f"{API}/appointments?" + urlencode(query)


def read_week(workload: Workload, token: str) -> RequestMix:
    """GET the seeded week of the calendar."""
    return RequestMix(groups=(Group(token, (week_path(workload),)),))


def _clients_probe(workload: Workload) -> str:
    return f"{API}/clients?page=1&page_size=1"


def health(workload: Workload, token: str) -> RequestMix:
    """GET /health (no database, no authentication): the server's floor. Every other
    scenario's server CPU per request is also shown as a multiple of it, measured in the
    same run on the same server, so the ratio survives a noisy machine (issue 12)."""
    return RequestMix(groups=(Group(token, ("/health",)),))


SCENARIOS = (
    Scenario("health", "GET /health (the floor)", "GET /health", None, health),
    Scenario("read_note", "Read a session note", "GET /sessions/{id}", None, read_note),
    Scenario(
        "autosave",
        "Autosave a draft",
        "PATCH /sessions/{id} (one 350-byte section)",
        None,
        autosave,
    ),
    Scenario(
        "list_clients",
        "List clients (page of 50)",
        "GET /clients?page=…&page_size=50",
        _clients_probe,
        list_clients,
    ),
    Scenario(
        "calendar_week",
        "Read a calendar week",
        "GET /appointments?start=…&end=…",
        week_path,
        read_week,
    ),
    Scenario(
        "read_note_practices",
        "Read a session note, several practices",
        "GET /sessions/{id}, users spread over several workspaces",
        None,
        read_note_practices,
        _needs_practices,
    ),
)
