"""Webhook delivery (issue 25), end to end: changes made through the API become feed
events, the worker POSTs them to a real receiver on loopback, signed; failures are retried
with backoff for 24 h (driven by an injected clock, never by sleeping), then the endpoint is
disabled; deliveries are logged and can be sent again; two workers never send an event
twice; the SSRF guard holds at delivery time too."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import logging
import sys
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from carevault.api.state import AppState
from carevault.auth.models import Role
from carevault.core.networks import parse_networks
from carevault.webhooks.delivery import (
    WebhookWorker,
    WorkerConfig,
    backoff,
    guarded_client,
)
from carevault.webhooks.targets import TargetPolicy
from tests.support.db import NewDatabase, sql
from tests.support.http import ApiContext, error_of, running_api
from tests.support.webhooks import Receiver, loopback_receiver

CLIENT_ROOT = Path(__file__).resolve().parents[3] / "clients" / "python"
if str(CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(CLIENT_ROOT))

from carevault_client.webhooks import (  # noqa: E402
    WebhookSignatureError,
    verify_webhook_signature,
)

LOOPBACK = TargetPolicy(parse_networks("127.0.0.0/8,::1/128"))
PHI = {"first_name": "Wilhelmina", "last_name": "Quixotic", "email": "w.quixotic@example.org"}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
async def api(new_database: NewDatabase, data_dir: Path) -> AsyncIterator[ApiContext]:
    """No background worker (the tests run theirs) and no sealer (whose transactions would
    hold the feed's commit-safe bound back for a moment)."""
    async with running_api(
        await new_database(),
        data_dir,
        webhook_worker=False,
        audit_sealer=False,
        webhook_allowed_networks="127.0.0.0/8,::1/128",
    ) as context:
        yield context


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with loopback_receiver() as running:
        yield running


def worker(api: ApiContext, clock: Clock, **config: Any) -> WebhookWorker:
    state: AppState = api.app.state.carevault
    settings: dict[str, Any] = {"policy": LOOPBACK, "timeout_seconds": 5.0, "disable_after": 5}
    return WebhookWorker(
        state.engine, WorkerConfig(**settings | config), clock=clock, rng=lambda: 0.5
    )


async def registered(
    api: ApiContext, receiver: Receiver, types: list[str] | None = None
) -> tuple[str, str, str]:
    """(owner's email, webhook id, secret) of a new practice's endpoint at the receiver."""
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        created = await client.post(
            "/webhooks", json={"url": receiver.url, "event_types": types or ["client.*"]}
        )
        assert created.status_code == 201, created.text
    return owner, created.json()["id"], created.json()["secret"]


async def create_client(api: ApiContext, owner: str, **fields: str) -> str:
    async with api.signed_in(owner) as client:
        created = await client.post("/clients", json=PHI | fields)
        assert created.status_code == 201, created.text
        client_id: str = created.json()["id"]
        return client_id


async def deliveries(api: ApiContext, owner: str, webhook_id: str) -> list[dict[str, Any]]:
    async with api.signed_in(owner) as client:
        page = await client.get(f"/webhooks/{webhook_id}/deliveries", params={"page_size": 100})
        assert page.status_code == 200, page.text
        items: list[dict[str, Any]] = page.json()["items"]
        return items


def independently_signed(secret: str, header: str, body: bytes) -> bool:
    """The signature checked from the documentation alone (no CareVault code)."""
    parts = dict(item.split("=", 1) for item in header.split(","))
    expected = hmac.new(
        secret.encode(), parts["t"].encode() + b"." + body, hashlib.sha256
    ).hexdigest()
    return hmac.compare_digest(expected, parts["v1"])


async def test_a_change_is_delivered_signed_with_ids_only(
    api: ApiContext, receiver: Receiver
) -> None:
    owner, webhook_id, secret = await registered(api, receiver)
    client_id = await create_client(api, owner)
    clock = Clock()
    hooks = worker(api, clock)
    try:
        assert await hooks.run_once() == 1
    finally:
        await hooks.close()

    (got,) = receiver.received
    assert got.path == "/hook"
    assert got.headers["content-type"] == "application/json"
    signature = got.headers["carevault-signature"]
    assert signature.startswith(f"t={int(clock.now.timestamp())},v1=")
    assert independently_signed(secret, signature, got.body)
    event = json.loads(got.body)
    assert event == {
        "id": got.headers["carevault-event-id"],
        "type": "client.created",
        "resource": {"type": "client", "id": client_id},
        "occurred_at": event["occurred_at"],
    }
    assert got.headers["carevault-event-type"] == "client.created"
    assert event["id"].startswith("ev_")
    for value in PHI.values():  # ids and types only
        assert value.encode() not in got.body
        assert value not in json.dumps(got.headers)

    # The client's helper accepts it at the delivery's time, and refuses tampering, another
    # secret and a replay after the tolerance.
    now = clock.now.timestamp()
    assert verify_webhook_signature(got.body, signature, secret, now=now) == event
    with pytest.raises(WebhookSignatureError):
        verify_webhook_signature(
            got.body.replace(b"created", b"deleted"), signature, secret, now=now
        )
    with pytest.raises(WebhookSignatureError):
        verify_webhook_signature(got.body, signature, "whsec_other", now=now)
    with pytest.raises(WebhookSignatureError):
        verify_webhook_signature(got.body, signature, secret, now=now + 301)
    with pytest.raises(WebhookSignatureError):
        verify_webhook_signature(got.body, None, secret, now=now)

    (logged,) = await deliveries(api, owner, webhook_id)
    assert logged["status"] == "succeeded" and logged["attempts"] == 1
    assert logged["event_id"] == event["id"] and logged["payload"] == event
    assert logged["next_attempt_at"] is None
    (attempt,) = logged["recent_attempts"]
    assert attempt["succeeded"] is True and attempt["status_code"] == 200
    assert attempt["error"] is None and attempt["duration_ms"] >= 0

    # A second round sends nothing more: each endpoint keeps its own cursor.
    hooks = worker(api, clock)
    try:
        assert await hooks.run_once() == 0
    finally:
        await hooks.close()
    assert len(receiver.received) == 1


async def test_only_the_wanted_event_types_are_delivered(
    api: ApiContext, receiver: Receiver
) -> None:
    owner, webhook_id, _ = await registered(api, receiver, ["appointment.*"])
    await create_client(api, owner)
    hooks = worker(api, Clock())
    try:
        assert await hooks.run_once() == 0
    finally:
        await hooks.close()
    assert receiver.received == []
    assert await deliveries(api, owner, webhook_id) == []


async def test_failures_are_retried_with_backoff_then_the_endpoint_is_disabled(
    api: ApiContext, receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    receiver.status = 503
    receiver.answer = json.dumps(PHI).encode()  # a receiver that echoes what it has
    owner, webhook_id, _ = await registered(api, receiver)
    await create_client(api, owner)
    clock = Clock()
    start = clock.now
    hooks = worker(api, clock)
    attempts_at = []
    try:
        assert await hooks.run_once() == 1
        attempts_at.append(clock.now)
        # Not due before its backoff (30 s with the middle of the jitter).
        clock.advance(seconds=29)
        assert await hooks.run_once() == 0
        clock.advance(seconds=1)
        assert await hooks.run_once() == 1
        attempts_at.append(clock.now)
        # Then 60 s, 120 s, … until the 24 h window runs out.
        for _ in range(200):
            (row,) = await sql(api, "SELECT status, next_attempt_at FROM webhook_deliveries")
            if row["status"] != "pending":
                break
            clock.now = row["next_attempt_at"]
            assert await hooks.run_once() == 1
            attempts_at.append(clock.now)
    finally:
        await hooks.close()

    gaps = [later - earlier for earlier, later in itertools.pairwise(attempts_at)]
    assert gaps[:4] == [timedelta(seconds=s) for s in (30, 60, 120, 240)]
    assert max(gaps) == timedelta(hours=1)
    assert attempts_at[-1] - start == timedelta(hours=24)  # the last try is on the deadline
    assert len(receiver.received) == len(attempts_at) > 20
    # Every retry carries the same event id (receivers dedupe on it).
    assert len({r.headers["carevault-event-id"] for r in receiver.received}) == 1

    (logged,) = await deliveries(api, owner, webhook_id)
    assert logged["status"] == "failed" and logged["attempts"] == len(attempts_at)
    assert logged["last_status_code"] == 503 and logged["last_error"] == "http_status"
    assert len(logged["recent_attempts"]) == 10
    async with api.signed_in(owner) as client:
        endpoint = (await client.get(f"/webhooks/{webhook_id}")).json()
    assert endpoint["enabled"] is False
    assert endpoint["disabled_reason"] == "persistent_failure"
    assert endpoint["consecutive_failures"] == len(attempts_at)
    # An audit event and a feed event say so.
    (audited,) = await sql(
        api, "SELECT resource_ids, details FROM audit_events WHERE action = 'webhook.disabled'"
    )
    assert [str(i) for i in audited["resource_ids"]] == [webhook_id]
    (event,) = await sql(
        api, "SELECT resource_id FROM change_events WHERE type = 'webhook_endpoint.disabled'"
    )
    assert str(event["resource_id"]) == webhook_id

    # What the receiver answered (PHI, here) is stored nowhere and logged nowhere.
    stored = str(await sql(api, "SELECT * FROM webhook_attempts"))
    stored += str(await sql(api, "SELECT * FROM webhook_deliveries"))
    logged_text = caplog.text
    for value in PHI.values():
        assert value not in stored
        assert value not in logged_text


async def test_a_disabled_endpoint_gets_nothing_and_resumes_when_enabled(
    api: ApiContext, receiver: Receiver
) -> None:
    owner, webhook_id, _ = await registered(api, receiver)
    async with api.signed_in(owner) as client:
        await client.patch(f"/webhooks/{webhook_id}", json={"enabled": False})
    await create_client(api, owner)
    clock = Clock()
    hooks = worker(api, clock)
    try:
        assert await hooks.run_once() == 0
        async with api.signed_in(owner) as client:
            await client.patch(f"/webhooks/{webhook_id}", json={"enabled": True})
        # Its cursor stayed where it was: the change made meanwhile is delivered now.
        assert await hooks.run_once() == 1
    finally:
        await hooks.close()
    assert [json.loads(b)["type"] for b in receiver.bodies()] == ["client.created"]


async def test_redeliver_sends_the_same_event_again(api: ApiContext, receiver: Receiver) -> None:
    owner, webhook_id, secret = await registered(api, receiver)
    await create_client(api, owner)
    clock = Clock()
    hooks = worker(api, clock)
    try:
        assert await hooks.run_once() == 1
        (delivery,) = await deliveries(api, owner, webhook_id)
        async with api.signed_in(owner) as client:
            again = await client.post(
                f"/webhooks/{webhook_id}/deliveries/{delivery['id']}/redeliver"
            )
            assert again.status_code == 202, again.text
            assert again.json()["status"] == "pending"
        clock.advance(seconds=1)
        assert await hooks.run_once() == 1
    finally:
        await hooks.close()
    first, second = receiver.received
    assert first.body == second.body
    assert first.headers["carevault-event-id"] == second.headers["carevault-event-id"]
    assert independently_signed(secret, second.headers["carevault-signature"], second.body)
    (logged,) = await deliveries(api, owner, webhook_id)
    assert logged["status"] == "succeeded" and logged["attempts"] == 2
    actions = await sql(api, "SELECT 1 FROM audit_events WHERE action = 'webhook.redeliver'")
    assert len(actions) == 1


async def test_two_workers_never_send_an_event_twice(api: ApiContext, receiver: Receiver) -> None:
    owner, _, _ = await registered(api, receiver)
    for number in range(6):
        await create_client(api, owner, first_name=f"Person{number}")
    clock = Clock()
    first, second = worker(api, clock), worker(api, clock)
    try:
        await asyncio.gather(first.run_once(), second.run_once())
        await asyncio.gather(first.run_once(), second.run_once())
    finally:
        await first.close()
        await second.close()
    ids = [r.headers["carevault-event-id"] for r in receiver.received]
    assert len(ids) == 6 and len(set(ids)) == 6


async def test_delivery_time_check_refuses_what_the_policy_no_longer_allows(
    api: ApiContext, receiver: Receiver
) -> None:
    """Registered while loopback was allowed; a worker under the default policy refuses to
    connect (the same holds for a name that starts resolving to a private address)."""
    owner, webhook_id, _ = await registered(api, receiver)
    await create_client(api, owner)
    hooks = worker(api, Clock(), policy=TargetPolicy())
    try:
        assert await hooks.run_once() == 1
    finally:
        await hooks.close()
    assert receiver.received == []
    (logged,) = await deliveries(api, owner, webhook_id)
    assert logged["status"] == "pending"
    assert logged["recent_attempts"][0]["error"] == "target_refused"


async def test_the_connection_itself_is_checked_after_dns(receiver: Receiver) -> None:
    """The guard sits in httpcore's network backend (httpx's pool swapped): a host NAME that
    resolves to loopback is refused when the connection opens, whatever was checked
    before. If httpx stops using that pool, this fails."""
    port = receiver.url.split(":")[2].split("/")[0]
    async with guarded_client(TargetPolicy(), 5.0) as client:
        with pytest.raises(httpx.ConnectError, match="refused: the host localhost"):
            await client.post(f"http://localhost:{port}/hook", content=b"{}")
    async with guarded_client(LOOPBACK, 5.0) as client:
        answered = await client.post(f"http://localhost:{port}/hook", content=b"{}")
        assert answered.status_code == 200
    assert len(receiver.received) == 1


async def test_redirects_are_not_followed(api: ApiContext, receiver: Receiver) -> None:
    receiver.status = 302
    owner, webhook_id, _ = await registered(api, receiver)
    await create_client(api, owner)
    hooks = worker(api, Clock())
    try:
        assert await hooks.run_once() == 1
    finally:
        await hooks.close()
    assert len(receiver.received) == 1
    (logged,) = await deliveries(api, owner, webhook_id)
    assert logged["last_status_code"] == 302
    assert logged["last_error"] == "redirect_not_followed"


async def test_the_worker_runs_in_the_app_and_stops_cleanly(
    new_database: NewDatabase, data_dir: Path, receiver: Receiver
) -> None:
    async with running_api(
        await new_database(),
        data_dir,
        audit_sealer=False,
        webhook_worker=True,
        webhook_allowed_networks="127.0.0.0/8",
        webhook_poll_interval_seconds=0.05,
    ) as context:
        state: AppState = context.app.state.carevault
        assert state.webhook_worker is not None and state.webhook_worker.status.running
        owner, _, _ = await registered(context, receiver)
        await create_client(context, owner)
        for _ in range(200):
            if receiver.received:
                break
            await asyncio.sleep(0.05)
        assert len(receiver.received) == 1
        hooks = state.webhook_worker
    assert not hooks.status.running  # the lifespan stopped it


def test_backoff_doubles_to_an_hour_with_jitter() -> None:
    middle = [backoff(n, lambda: 0.5).total_seconds() for n in range(1, 10)]
    assert middle == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]
    assert backoff(1, lambda: 0.0).total_seconds() == 22.5
    assert backoff(1, lambda: 0.999).total_seconds() < 37.5


async def test_an_unknown_delivery_of_another_endpoint_is_404(
    api: ApiContext, receiver: Receiver
) -> None:
    owner, webhook_id, _ = await registered(api, receiver)
    await create_client(api, owner)
    hooks = worker(api, Clock())
    try:
        await hooks.run_once()
    finally:
        await hooks.close()
    (delivery,) = await deliveries(api, owner, webhook_id)
    async with api.signed_in(owner) as client:
        other = (
            await client.post("/webhooks", json={"url": receiver.url, "event_types": ["*"]})
        ).json()["id"]
        wrong = await client.post(f"/webhooks/{other}/deliveries/{delivery['id']}/redeliver")
        assert wrong.status_code == 404 and error_of(wrong)["code"] == "not_found"


async def test_an_endpoint_behind_the_feeds_retention_goes_on_from_what_is_kept(
    api: ApiContext, receiver: Receiver
) -> None:
    """Turned off for longer than the feed keeps events: what was pruned is gone, the rest
    is delivered (the worker does not stop on the feed's 410)."""
    owner, _, _ = await registered(api, receiver)
    await create_client(api, owner)
    # Prune that first event as the feed's pruner would, moving the practice's horizon.
    await sql(
        api,
        "WITH gone AS (DELETE FROM change_events RETURNING workspace_id, txid, id) "
        "INSERT INTO change_event_horizons (workspace_id, txid, event_id) "
        "SELECT DISTINCT ON (workspace_id) workspace_id, txid, id FROM gone "
        "ORDER BY workspace_id, txid DESC, id DESC",
    )
    kept = await create_client(api, owner, first_name="Kept")
    hooks = worker(api, Clock())
    try:
        assert await hooks.run_once() == 1
    finally:
        await hooks.close()
    (got,) = receiver.received
    assert json.loads(got.body)["resource"]["id"] == kept


async def test_finished_deliveries_leave_the_log_after_its_retention(
    api: ApiContext, receiver: Receiver
) -> None:
    owner, webhook_id, _ = await registered(api, receiver)
    await create_client(api, owner)
    await create_client(api, owner, first_name="Second")
    clock = Clock()
    hooks = worker(api, clock)
    try:
        assert await hooks.run_once() == 2
        # One still pending (a redelivery), one finished: only the finished one goes.
        (pending, _) = await deliveries(api, owner, webhook_id)
        await sql(
            api, "UPDATE webhook_deliveries SET status = 'pending' WHERE id = $1", pending["id"]
        )
        clock.advance(days=29)
        assert await hooks.prune_log_if_due() == 0
        clock.advance(days=2)
        assert await hooks.prune_log_if_due() == 1
    finally:
        await hooks.close()
    assert [d["id"] for d in await deliveries(api, owner, webhook_id)] == [pending["id"]]
    assert len(await sql(api, "SELECT 1 FROM webhook_attempts")) == 1  # cascaded
