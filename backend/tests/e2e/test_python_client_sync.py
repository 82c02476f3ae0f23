"""Issue 25's sync, end to end, with nothing but the generated Python client against a real
`carevault serve`: a service account's token upserts clients and appointments by the
integrator's own ids, follows the change feed with cursors to its head, receives a signed
webhook on a loopback receiver (allowed by CAREVAULT_WEBHOOK_ALLOWED_NETWORKS) and verifies
it with `carevault_client.webhooks`, and reads and writes conditionally (`If-None-Match`:
304, a stale `If-Match`: 412). Loopback only, bounded in time."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.support.db import PgServer, admin_execute
from tests.support.processes import carevault_env, free_port, wait_until
from tests.support.webhooks import loopback_receiver

CLIENT_ROOT = Path(__file__).resolve().parents[3] / "clients" / "python"
if str(CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(CLIENT_ROOT))

from carevault_client import AuthenticatedClient, Client  # noqa: E402
from carevault_client.api.appointments import (  # noqa: E402
    read_appointment_api_v1_appointments_appointment_id_get as read_appointment,
)
from carevault_client.api.appointments import (  # noqa: E402
    upsert_appointment_api_v1_appointments_external_external_id_put as upsert_appointment,
)
from carevault_client.api.clients import (  # noqa: E402
    list_clients_api_v1_clients_get as list_clients,
)
from carevault_client.api.clients import (  # noqa: E402
    read_client_api_v1_clients_client_id_get as read_client,
)
from carevault_client.api.clients import (  # noqa: E402
    update_client_api_v1_clients_client_id_patch as update_client,
)
from carevault_client.api.clients import (  # noqa: E402
    upsert_client_api_v1_clients_external_external_id_put as upsert_client,
)
from carevault_client.api.service_accounts import (  # noqa: E402
    create_service_account_api_v1_service_accounts_post as create_account,
)
from carevault_client.api.service_accounts import (  # noqa: E402
    create_service_account_token_api_v1_service_accounts_service_account_id_tokens_post as issue,
)
from carevault_client.api.webhooks import (  # noqa: E402
    create_webhook_api_v1_webhooks_post as create_webhook,
)
from carevault_client.models import (  # noqa: E402
    AppointmentRead,
    AppointmentUpsert,
    ClientRead,
    ClientUpdate,
    ClientUpsert,
    ErrorResponse,
    PageClientSummary,
    ServiceAccountCreate,
    ServiceAccountCreateScopesItem,
    ServiceAccountRead,
    ServiceAccountTokenCreate,
    ServiceAccountTokenCreated,
    WebhookCreate,
    WebhookCreated,
)
from carevault_client.sync import iter_events  # noqa: E402
from carevault_client.webhooks import (  # noqa: E402
    WebhookSignatureError,
    verify_webhook_signature,
)

PASSWORD = "python-sync-owner-pw"
EMAIL = "owner@sync.example"
TIMEOUT = httpx.Timeout(15.0)
SYNC_SCOPES = [
    "clients:read",
    "clients:write",
    "appointments:read",
    "appointments:write",
    "events:read",
]


@dataclass(frozen=True)
class SyncServer:
    base: str
    cookie: str
    csrf: str
    owner_id: str


@pytest.fixture(scope="module")
def sync_server(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SyncServer]:
    """A `carevault serve` that may deliver webhooks to loopback (and checks for them every
    0.2 s), with an owner signed in on a cookie session."""
    name = f"cv_pysync_{uuid.uuid4().hex[:8]}"
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    env = carevault_env(pg_server.url(name), tmp_path_factory.mktemp("pysync-data"))
    env.update(
        CAREVAULT_WEBHOOK_ALLOWED_NETWORKS="127.0.0.0/8",
        CAREVAULT_WEBHOOK_POLL_INTERVAL_SECONDS="0.2",
    )
    command = [sys.executable, "-m", "carevault"]
    owner = ["--workspace", "Sync Clinic", "--email", EMAIL, "--role", "owner"]
    subprocess.run(
        [*command, "keys", "init"], env=env, check=True, capture_output=True, timeout=120
    )
    subprocess.run(
        [*command, "users", "create", *owner],
        input=PASSWORD + "\n",
        text=True,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    port = free_port()
    log = (tmp_path_factory.mktemp("pysync-logs") / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "carevault", "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert server.poll() is None, "carevault serve exited"
        try:
            return httpx.get(f"{base}/health", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    try:
        assert wait_until(up, 60), "carevault serve did not come up in 60 s"
        login = httpx.post(
            f"{base}/api/v1/auth/login",
            json={"email": EMAIL, "password": PASSWORD},
            timeout=TIMEOUT,
        )
        login.raise_for_status()
        yield SyncServer(
            base=base,
            cookie=login.cookies["carevault_session"],
            csrf=login.json()["csrf_token"],
            owner_id=login.json()["user"]["id"],
        )
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
        log.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _owner(server: SyncServer) -> Client:
    return Client(
        base_url=server.base,
        cookies={"carevault_session": server.cookie},
        headers={"X-CSRF-Token": server.csrf},
        timeout=TIMEOUT,
    )


def _service_account_token(server: SyncServer) -> str:
    """The integration's credential: the practice's, made by the owner (cookie session)."""
    with _owner(server) as owner:
        made = create_account.sync_detailed(
            client=owner,  # type: ignore[arg-type]
            body=ServiceAccountCreate(
                name="ehr sync",
                scopes=[ServiceAccountCreateScopesItem(s) for s in SYNC_SCOPES],
            ),
        )
        assert made.status_code == 201, made.content
        assert isinstance(made.parsed, ServiceAccountRead)
        issued = issue.sync_detailed(
            made.parsed.id,
            client=owner,  # type: ignore[arg-type]
            body=ServiceAccountTokenCreate(name="production"),
        )
        assert issued.status_code == 201, issued.content
        assert isinstance(issued.parsed, ServiceAccountTokenCreated)
        return issued.parsed.token


def _head(integration: AuthenticatedClient, after: str | None) -> tuple[list[str], str | None]:
    """(event ids and types read, the cursor at the head) following the feed from `after`."""
    seen: list[str] = []
    cursor = after
    for event in iter_events(integration, after=cursor, limit=2):
        seen.append(f"{event.type_} {event.resource.type_}/{event.resource.id} {event.id}")
        cursor = event.id
    return seen, cursor


def test_an_integration_syncs_with_the_generated_client(sync_server: SyncServer) -> None:
    token = _service_account_token(sync_server)
    with loopback_receiver() as receiver:
        with _owner(sync_server) as owner:
            registered = create_webhook.sync_detailed(
                client=owner,  # type: ignore[arg-type]
                body=WebhookCreate(url=receiver.url, event_types=["client.*", "appointment.*"]),
            )
            assert registered.status_code == 201, registered.content
            assert isinstance(registered.parsed, WebhookCreated)
            secret = registered.parsed.secret
        integration = AuthenticatedClient(base_url=sync_server.base, token=token, timeout=TIMEOUT)
        with integration:
            # Start at the feed's head: what happened before the sync began is not ours.
            _, cursor = _head(integration, None)

            # Upserts by the integrator's own ids: created once, then updated in place.
            first = upsert_client.sync_detailed(
                "crm-1", client=integration, body=ClientUpsert(first_name="Ada", last_name="Sync")
            )
            assert first.status_code == 201, first.content
            assert isinstance(first.parsed, ClientRead)
            client_id = first.parsed.id
            again = upsert_client.sync_detailed(
                "crm-1",
                client=integration,
                body=ClientUpsert(first_name="Ada", last_name="Synced"),
            )
            assert again.status_code == 200 and isinstance(again.parsed, ClientRead)
            assert again.parsed.id == client_id and again.parsed.last_name == "Synced"
            second = upsert_client.sync_detailed(
                "crm-2", client=integration, body=ClientUpsert(first_name="Bo", last_name="Sync")
            )
            assert second.status_code == 201 and isinstance(second.parsed, ClientRead)
            listed = list_clients.sync_detailed(client=integration, external_id="crm-1")
            assert isinstance(listed.parsed, PageClientSummary)
            assert [c.id for c in listed.parsed.items] == [client_id]

            starts = dt.datetime(2026, 6, 1, 9, tzinfo=dt.UTC)
            booking = AppointmentUpsert(
                client_id=client_id,
                starts_at=starts,
                ends_at=starts + dt.timedelta(minutes=50),
                clinician_id=uuid.UUID(sync_server.owner_id),
            )
            booked = upsert_appointment.sync_detailed("sched-1", client=integration, body=booking)
            assert booked.status_code == 201, booked.content
            assert isinstance(booked.parsed, AppointmentRead)
            appointment_id = booked.parsed.id
            booking.notes = "moved to room 2"
            rebooked = upsert_appointment.sync_detailed("sched-1", client=integration, body=booking)
            assert rebooked.status_code == 200 and isinstance(rebooked.parsed, AppointmentRead)
            assert rebooked.parsed.id == appointment_id

            # The feed, followed with cursors two events a page, to its head: every change
            # once, in order; then nothing more.
            seen, cursor = _head(integration, cursor)
            changes = [line.rsplit(" ", 1)[0] for line in seen]
            assert changes == [
                f"client.created client/{client_id}",
                f"client.updated client/{client_id}",
                f"client.created client/{second.parsed.id}",
                f"appointment.created appointment/{appointment_id}",
                f"appointment.updated appointment/{appointment_id}",
            ], changes
            assert len({line.rsplit(" ", 1)[1] for line in seen}) == len(seen)
            assert _head(integration, cursor) == ([], cursor)

            # The same changes as signed webhooks on the loopback receiver.
            assert wait_until(lambda: len(receiver.received) >= 5, 30), receiver.received
            with receiver.lock:
                delivered = list(receiver.received)
            events = [
                verify_webhook_signature(r.body, r.headers.get("carevault-signature"), secret)
                for r in delivered
            ]
            feed_ids = {line.rsplit(" ", 1)[1] for line in seen}
            assert {e["id"] for e in events} == feed_ids
            assert {e["resource"]["id"] for e in events} == {
                str(client_id),
                str(second.parsed.id),
                str(appointment_id),
            }
            # One byte more: deliveries arrive in any order, so the tampering must not depend
            # on which event came first (a replace of "client" missed an appointment event).
            tampered = delivered[0].body + b" "
            with pytest.raises(WebhookSignatureError):
                verify_webhook_signature(
                    tampered, delivered[0].headers.get("carevault-signature"), secret
                )
            with pytest.raises(WebhookSignatureError):
                verify_webhook_signature(
                    delivered[0].body, delivered[0].headers.get("carevault-signature"), "whsec_x"
                )
            assert "ada" not in json.dumps(events).lower()  # ids and types, no PHI

            # Conditional reads and writes: 304 while unchanged, 412 on a stale If-Match.
            read = read_client.sync_detailed(client_id, client=integration)
            assert read.status_code == 200
            tag = read.headers["ETag"]
            unchanged = read_client.sync_detailed(client_id, client=integration, if_none_match=tag)
            assert unchanged.status_code == 304 and not unchanged.content
            changed = update_client.sync_detailed(
                client_id, client=integration, body=ClientUpdate(notes="prefers mornings"),
                if_match=tag,
            )  # fmt: skip
            assert changed.status_code == 200, changed.content
            assert changed.headers["ETag"] != tag
            stale = update_client.sync_detailed(
                client_id, client=integration, body=ClientUpdate(notes="overwrite"), if_match=tag
            )
            assert stale.status_code == 412 and isinstance(stale.parsed, ErrorResponse)
            assert stale.parsed.error.code == "precondition_failed"
            stale_upsert = upsert_client.sync_detailed(
                "crm-1",
                client=integration,
                body=ClientUpsert(first_name="Ada", last_name="Lost"),
                if_match=tag,
            )
            assert stale_upsert.status_code == 412
            fresh = read_client.sync_detailed(client_id, client=integration, if_none_match=tag)
            assert fresh.status_code == 200 and isinstance(fresh.parsed, ClientRead)
            assert fresh.parsed.notes == "prefers mornings"
            assert fresh.headers["ETag"] == changed.headers["ETag"]
            appointment_tag = read_appointment.sync_detailed(
                appointment_id, client=integration
            ).headers["ETag"]
            assert (
                read_appointment.sync_detailed(
                    appointment_id, client=integration, if_none_match=appointment_tag
                ).status_code
                == 304
            )
            # The feed names the change the 412 protected, once.
            after_change, _ = _head(integration, cursor)
            assert [line.rsplit(" ", 1)[0] for line in after_change] == [
                f"client.updated client/{client_id}"
            ]
