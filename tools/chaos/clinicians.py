"""Virtual clinicians who autosave their own notes, and the ledger of what was acknowledged.

A save answered 200 is acknowledged: it must be stored exactly, at the version the answer
gave. A save that got no answer (connection reset, client timeout) is ambiguous: it may or
may not be stored, and the next save's 409 tells. A save answered 503 must NOT be stored:
if the following save at the same version meets a 409 instead, that is a phantom write.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

API = "/api/v1"
CLIENT_TIMEOUT_SECONDS = 15.0  # above the server's 10 s request deadline, as a browser's is
THINK_SECONDS = 0.25
SAVES_PER_CLINICIAN = 20_000  # a bound of its own: the load ends even if `stop` never comes


@dataclass(frozen=True)
class Sample:
    kind: str  # "autosave", "read", "malformed"
    started: float  # monotonic
    seconds: float
    status: int  # -1: no answer (connection error or client timeout)
    note: str = ""  # the autosaved note, for recovery per clinician
    code: str = ""  # the error code of a 5xx answer


@dataclass
class Ack:
    version: int
    content: str


@dataclass
class NoteLedger:
    note_id: str
    version: int
    acks: list[Ack] = field(default_factory=list)
    ambiguous: list[str] = field(default_factory=list)  # contents sent without an answer
    ambiguous_stored: int = 0
    refused_then_conflict: int = 0  # a 503'd save that turned out stored: must stay 0
    last_refused: bool = False


@dataclass
class Load:
    base_url: str
    tokens: list[str]
    samples: list[Sample] = field(default_factory=list)
    notes: list[NoteLedger] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    # The connections (httpcore's streams, held so none is mistaken for another) each
    # clinician's answers came on: more than one means the server closed a keep-alive
    # connection (or it broke) and the client opened another.
    connections: dict[int, list[Any]] = field(default_factory=dict)
    think_seconds: float = THINK_SECONDS  # between one clinician's requests

    def reopened_connections(self) -> int:
        return sum(len(streams) - 1 for streams in self.connections.values())

    def record(
        self, kind: str, started: float, status: int, note: str = "", code: str = ""
    ) -> None:
        self.samples.append(Sample(kind, started, time.monotonic() - started, status, note, code))

    async def request(
        self,
        client: httpx.AsyncClient,
        kind: str,
        method: str,
        url: str,
        note: str = "",
        **kwargs: Any,
    ) -> httpx.Response | None:
        started = time.monotonic()
        try:
            response = await client.request(method, url, **kwargs)
        except httpx.HTTPError:
            self.record(kind, started, -1, note)
            return None
        self.record(kind, started, response.status_code, note, _error_code(response))
        if kind in ("autosave", "read"):
            stream = response.extensions.get("network_stream")
            seen = self.connections.setdefault(id(client), [])
            if stream is not None and all(stream is not known for known in seen):
                seen.append(stream)
        return response

    async def prepare(self, client: httpx.AsyncClient, index: int, round_: str) -> NoteLedger:
        """A client and a draft note of this clinician's own (retried until the API answers)."""
        for _ in range(120):  # bounded: about a minute
            created = await self.request(
                client,
                "setup",
                "POST",
                f"{API}/clients",
                json={"first_name": f"Chaos{index}", "last_name": f"Round {round_}"},
            )
            if created is not None and created.status_code == 201:
                note = await self.request(
                    client,
                    "setup",
                    "POST",
                    f"{API}/sessions",
                    json={
                        "client_id": created.json()["id"],
                        "session_date": "2025-01-15",
                        "subjective": "first words",
                    },
                )
                if note is not None and note.status_code == 201:
                    body = note.json()
                    return NoteLedger(body["id"], body["version"])
            await asyncio.sleep(0.5)
        raise RuntimeError("could not create the clinician's note")

    async def clinician(self, index: int, ledger: NoteLedger) -> None:
        headers = {"Authorization": f"Bearer {self.tokens[index]}"}
        async with httpx.AsyncClient(
            base_url=self.base_url, headers=headers, timeout=CLIENT_TIMEOUT_SECONDS
        ) as client:
            saves = 0
            while not self.stop.is_set() and saves < SAVES_PER_CLINICIAN:
                saves += 1
                content = f"clinician {index} save {saves} of note {ledger.note_id[:8]}"
                answer = await self.request(
                    client,
                    "autosave",
                    "PATCH",
                    f"{API}/sessions/{ledger.note_id}",
                    ledger.note_id,
                    json={"version": ledger.version, "subjective": content},
                )
                if answer is None:
                    ledger.ambiguous.append(content)
                    ledger.last_refused = False
                elif answer.status_code == 200:
                    body = answer.json()
                    ledger.acks.append(Ack(body["version"], body["subjective"]))
                    ledger.version = body["version"]
                    ledger.last_refused = False
                elif answer.status_code == 409:
                    await self._resync(client, ledger)
                elif answer.status_code == 503:
                    ledger.last_refused = True
                if saves % 4 == 0:
                    await self.request(client, "read", "GET", f"{API}/sessions/{ledger.note_id}")
                with_stop = asyncio.ensure_future(self.stop.wait())
                await asyncio.wait({with_stop}, timeout=self.think_seconds)
                with_stop.cancel()

    async def _resync(self, client: httpx.AsyncClient, ledger: NoteLedger) -> None:
        """A 409: someone's save landed that this clinician was not told about."""
        for _ in range(40):  # bounded
            current = await self.request(client, "read", "GET", f"{API}/sessions/{ledger.note_id}")
            if current is not None and current.status_code == 200:
                body = current.json()
                if body["subjective"] in ledger.ambiguous:
                    ledger.ambiguous_stored += 1
                elif ledger.last_refused:
                    ledger.refused_then_conflict += 1
                ledger.version = body["version"]
                ledger.last_refused = False
                return
            await asyncio.sleep(0.25)

    async def verify(self) -> dict[str, int]:
        """Every acknowledged save stored exactly, versions contiguous; returns the counts."""
        lost = gaps = phantom = unreadable = 0
        for ledger, token in zip(self.notes, self.tokens, strict=False):
            headers = {"Authorization": f"Bearer {token}"}
            async with httpx.AsyncClient(
                base_url=self.base_url, headers=headers, timeout=CLIENT_TIMEOUT_SECONDS
            ) as client:
                final = None
                for _ in range(60):  # bounded: the system has recovered by now
                    answer = await self.request(
                        client, "verify", "GET", f"{API}/sessions/{ledger.note_id}"
                    )
                    if answer is not None and answer.status_code == 200:
                        final = answer.json()
                        break
                    await asyncio.sleep(0.5)
            if final is None:
                unreadable += 1
                lost += len(ledger.acks)
                continue
            if ledger.acks:
                last = ledger.acks[-1]
                later_ambiguous = final["version"] > last.version and (
                    final["subjective"] in ledger.ambiguous
                )
                exact = final["version"] == last.version and final["subjective"] == last.content
                if not (exact or later_ambiguous):
                    lost += 1
            previous = None
            for ack in ledger.acks:
                if previous is not None and ack.version != previous + 1:
                    gaps += ack.version - previous - 1
                previous = ack.version
            phantom += ledger.refused_then_conflict
        # Gaps are explained by ambiguous saves that were in fact stored; anything else is not.
        explained = sum(ledger.ambiguous_stored for ledger in self.notes)
        return {
            "lost": lost,
            "unexplained_gaps": max(0, gaps - explained),
            "phantom_writes": phantom,
            "unreadable_notes": unreadable,
        }


def _error_code(response: httpx.Response) -> str:
    """The error code of a 5xx; said so when it is not in the JSON shape, or a 503 comes
    without Retry-After (both outside the failure vocabulary)."""
    if response.status_code < 500:
        return ""
    try:
        code = str(response.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return f"{response.status_code} not in the error shape"
    if response.status_code == 503 and "retry-after" not in response.headers:
        return f"{code} without Retry-After"
    return code
