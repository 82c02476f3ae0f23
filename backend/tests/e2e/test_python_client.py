"""The generated Python client (clients/python) against a real `carevault serve`: the flow an
integrator writes (token, search, create with an idempotency key, autosave with a 409 retry,
finalize, amend, history, revoke), with nothing but the generated package. It is imported from
the repository (nothing is installed at test time); a second test builds it as a wheel,
offline. Loopback only, bounded in time."""

from __future__ import annotations

import asyncio
import datetime as dt
import subprocess
import sys
import time
import uuid
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from carevault.auth.scopes import EVERY_SCOPE
from tests.support.db import PgServer, admin_execute
from tests.support.processes import carevault_env, free_port

CLIENT_ROOT = Path(__file__).resolve().parents[3] / "clients" / "python"
if str(CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(CLIENT_ROOT))

from carevault_client import AuthenticatedClient, Client  # noqa: E402
from carevault_client.api.auth import (  # noqa: E402
    me_api_v1_auth_me_get as me,
)
from carevault_client.api.auth import (  # noqa: E402
    revoke_token_api_v1_auth_tokens_token_id_delete as revoke_token,
)
from carevault_client.api.clients import (  # noqa: E402
    batch_get_clients_api_v1_clients_batch_get_post as batch_get_clients,
)
from carevault_client.api.clients import (  # noqa: E402
    create_client_api_v1_clients_post as create_client,
)
from carevault_client.api.clients import (  # noqa: E402
    import_clients_api_v1_clients_import_post as import_clients,
)
from carevault_client.api.clients import (  # noqa: E402
    read_client_api_v1_clients_client_id_get as read_client,
)
from carevault_client.api.clients import (  # noqa: E402
    search_clients_api_v1_clients_search_post as search_clients,
)
from carevault_client.api.clients import (  # noqa: E402
    update_client_api_v1_clients_client_id_patch as update_client,
)
from carevault_client.api.clients import (  # noqa: E402
    upsert_client_api_v1_clients_external_external_id_put as upsert_client,
)
from carevault_client.api.session_notes import (  # noqa: E402
    create_session_note_api_v1_sessions_post as create_note,
)
from carevault_client.api.session_notes import (  # noqa: E402
    finalize_session_note_api_v1_sessions_note_id_finalize_post as finalize_note,
)
from carevault_client.api.session_notes import (  # noqa: E402
    list_session_note_versions_api_v1_sessions_note_id_versions_get as list_versions,
)
from carevault_client.api.session_notes import (  # noqa: E402
    list_session_notes_api_v1_sessions_get as list_notes,
)
from carevault_client.api.session_notes import (  # noqa: E402
    read_session_note_api_v1_sessions_note_id_get as read_note,
)
from carevault_client.api.session_notes import (  # noqa: E402
    update_session_note_api_v1_sessions_note_id_patch as update_note,
)
from carevault_client.models import (  # noqa: E402
    BatchClientRead,
    BatchGet,
    ClientCreate,
    ClientImportResult,
    ClientRead,
    ClientSearch,
    ClientUpdate,
    ClientUpsert,
    ClientUpsertMetadata,
    ErrorResponse,
    PageClientSummary,
    PageSessionNoteRead,
    PageSessionNoteVersionRead,
    SessionNoteCreate,
    SessionNoteFinalize,
    SessionNoteRead,
    SessionNoteUpdate,
)
from carevault_client.types import Unset  # noqa: E402

PASSWORD = "python-client-owner-pw"
EMAIL = "owner@client.example"
TIMEOUT = httpx.Timeout(15.0)


@dataclass(frozen=True)
class LiveServer:
    base: str
    token: str
    token_id: str
    cookie: str
    csrf: str


@pytest.fixture(scope="module")
def live_server(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """A `carevault serve` on its own database, as in test_schemathesis.py, with an owner
    signed in and an API token holding every scope."""
    name = f"cv_pyclient_{uuid.uuid4().hex[:8]}"
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    env = carevault_env(pg_server.url(name), tmp_path_factory.mktemp("pyclient-data"))
    subprocess.run(
        [sys.executable, "-m", "carevault", "keys", "init"],
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "carevault",
            "users",
            "create",
            "--workspace",
            "Client Clinic",
            "--email",
            EMAIL,
            "--role",
            "owner",
        ],
        input=PASSWORD + "\n",
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    port = free_port()
    log = (tmp_path_factory.mktemp("pyclient-logs") / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "carevault", "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None, "carevault serve exited"
            assert time.monotonic() < deadline, "carevault serve did not come up in 60 s"
            time.sleep(0.2)
        with httpx.Client(base_url=f"{base}/api/v1", timeout=TIMEOUT) as session:
            login = session.post("/auth/login", json={"email": EMAIL, "password": PASSWORD})
            login.raise_for_status()
            csrf = login.json()["csrf_token"]
            created = session.post(
                "/auth/tokens",
                json={"name": "python client", "scopes": list(EVERY_SCOPE)},
                headers={"X-CSRF-Token": csrf},
            )
            assert created.status_code == 201, created.text
            yield LiveServer(
                base=base,
                token=created.json()["token"],
                token_id=created.json()["id"],
                cookie=session.cookies["carevault_session"],
                csrf=csrf,
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


def test_the_generated_package_is_the_repositorys() -> None:
    import carevault_client

    assert Path(carevault_client.__file__).resolve().is_relative_to(CLIENT_ROOT)


def test_the_import_module_parses_every_status_the_document_declares() -> None:
    """The hand-written import module (tools/client_templates/extra) answers like a generated
    one: `ErrorResponse` for exactly the error statuses the document declares."""
    from carevault.api.app import create_app

    document = create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none").openapi()
    operation = document["paths"]["/api/v1/clients/import"]["post"]
    statuses = {int(status) for status in operation["responses"]}
    assert {status for status in statuses if status >= 400} == import_clients.ERROR_STATUSES
    assert {status for status in statuses if status < 400} == {201}
    assert set(operation["requestBody"]["content"]) == {"text/csv", "application/x-ndjson"}


def test_clients_are_imported_with_the_client_package(live_server: LiveServer) -> None:
    """`POST /clients/import` (a CSV or JSON-lines body, which the generator cannot write),
    through the package's hand-written module: with a token, an idempotent retry, JSON
    lines, a refused file, and async with a cookie session. Runs before the flow below,
    which revokes the token."""
    csv = "first_name,last_name,email\nImported,Example,imported@client.example\nSecond,Example,\n"
    key = str(uuid.uuid4())
    api = AuthenticatedClient(base_url=live_server.base, token=live_server.token, timeout=TIMEOUT)
    with api:
        first = import_clients.sync_detailed(client=api, body=csv, idempotency_key=key)
        assert first.status_code == 201, first.content
        assert isinstance(first.parsed, ClientImportResult)
        assert first.parsed.imported == 2
        retry = import_clients.sync_detailed(client=api, body=csv.encode(), idempotency_key=key)
        assert retry.status_code == 201, retry.content
        assert retry.headers.get("Idempotent-Replayed") == "true"
        found = search_clients.sync(client=api, body=ClientSearch(q="imported@client.example"))
        assert isinstance(found, PageClientSummary)
        assert found.total == 1  # the retry imported nothing
        assert found.items[0].first_name == "Imported"

        lines = '{"first_name": "Json", "last_name": "Lines"}\n'
        ndjson = import_clients.sync(client=api, body=lines, content_type="application/x-ndjson")
        assert isinstance(ndjson, ClientImportResult)
        assert ndjson.imported == 1

        bad = import_clients.sync_detailed(
            client=api, body="first_name,last_name,email\nBad,Row,not-an-email\n"
        )
        assert bad.status_code == 422
        assert isinstance(bad.parsed, ErrorResponse)
        assert bad.parsed.error.code == "import_rejected"
        rejected = bad.parsed.error.details
        assert isinstance(rejected, list)
        assert [(d["line"], d["field"]) for d in rejected] == [(2, "email")]

    async def import_with_the_browser_session() -> ClientImportResult | ErrorResponse | None:
        async with Client(
            base_url=live_server.base,
            cookies={"carevault_session": live_server.cookie},
            headers={"X-CSRF-Token": live_server.csrf},
            timeout=TIMEOUT,
        ) as browser:
            return await import_clients.asyncio(
                client=browser, body="first_name,last_name\nAsync,Example\n"
            )

    answer = asyncio.run(import_with_the_browser_session())
    assert isinstance(answer, ClientImportResult)
    assert answer.imported == 1


def test_sync_by_external_id_etag_and_batch_get(live_server: LiveServer) -> None:
    """What a sync needs over time (issue 25): an upsert by the integrator's own id (201, then
    200 on the same client), a change guarded by the ETag (412 when stale), a 304 for an
    unchanged record, the import's per-row ids, and a batch read. Runs before the flow below,
    which revokes the token."""
    api = AuthenticatedClient(base_url=live_server.base, token=live_server.token, timeout=TIMEOUT)
    with api:
        body = ClientUpsert(
            first_name="Sync",
            last_name="Example",
            metadata=ClientUpsertMetadata.from_dict({"crm_segment": "mornings"}),
        )
        created = upsert_client.sync_detailed("crm-sync-1", client=api, body=body)
        assert created.status_code == 201, created.content
        assert isinstance(created.parsed, ClientRead)
        assert created.parsed.external_id == "crm-sync-1"
        metadata = created.parsed.metadata
        assert not isinstance(metadata, Unset)
        assert metadata.to_dict() == {"crm_segment": "mornings"}
        again = upsert_client.sync_detailed("crm-sync-1", client=api, body=body)
        assert again.status_code == 200, again.content
        assert isinstance(again.parsed, ClientRead)
        assert again.parsed.id == created.parsed.id
        client_id = created.parsed.id

        read = read_client.sync_detailed(client_id, client=api)
        assert read.status_code == 200, read.content
        tag = read.headers["ETag"]
        unchanged = read_client.sync_detailed(client_id, client=api, if_none_match=tag)
        assert unchanged.status_code == 304
        assert unchanged.content == b""
        changed = update_client.sync_detailed(
            client_id, client=api, body=ClientUpdate(notes="Prefers mornings."), if_match=tag
        )
        assert changed.status_code == 200, changed.content
        assert changed.headers["ETag"] != tag
        stale = update_client.sync_detailed(
            client_id, client=api, body=ClientUpdate(notes="A lost update."), if_match=tag
        )
        assert stale.status_code == 412
        assert isinstance(stale.parsed, ErrorResponse)
        assert stale.parsed.error.code == "precondition_failed"

        imported = import_clients.sync(
            client=api, body="first_name,last_name,external_id\nRow,Two,crm-sync-2\n"
        )
        assert isinstance(imported, ClientImportResult)
        (row,) = imported.results
        assert (row.line, row.external_id, row.action.value) == (2, "crm-sync-2", "created")

        unknown = uuid.uuid4()
        batch = batch_get_clients.sync(client=api, body=BatchGet(ids=[row.id, unknown, client_id]))
        assert isinstance(batch, BatchClientRead)
        assert [item.id for item in batch.items] == [row.id, client_id]
        assert batch.items[1].notes == "Prefers mornings."
        assert batch.not_found == [unknown]


def test_integrator_flow_with_the_generated_client(live_server: LiveServer) -> None:
    api = AuthenticatedClient(base_url=live_server.base, token=live_server.token, timeout=TIMEOUT)
    with api:
        # The token works and says whose it is.
        who = me.sync_detailed(client=api)
        assert who.status_code == 200, who.content

        # A client to write about, then found again by the search (the term in the body).
        added = create_client.sync_detailed(
            client=api,
            body=ClientCreate(first_name="Ada", last_name="Integrator", email="ada@client.example"),
            idempotency_key=str(uuid.uuid4()),
        )
        assert added.status_code == 201, added.content
        assert isinstance(added.parsed, ClientRead)
        found = search_clients.sync_detailed(
            client=api, body=ClientSearch(q="ADA@client.example ", page=1, page_size=10)
        )
        assert found.status_code == 200, found.content
        assert isinstance(found.parsed, PageClientSummary)
        assert (found.parsed.total, found.parsed.page, found.parsed.page_size) == (1, 1, 10)
        client_id = found.parsed.items[0].id
        assert client_id == added.parsed.id

        # Create a note with an Idempotency-Key; the retry replays the first answer.
        key = str(uuid.uuid4())
        body = SessionNoteCreate(
            client_id=client_id,
            session_date=dt.date.today() - dt.timedelta(days=1),
            duration_minutes=50,
            subjective="Reports sleeping better.",
        )
        first = create_note.sync_detailed(client=api, body=body, idempotency_key=key)
        assert first.status_code == 201, first.content
        assert isinstance(first.parsed, SessionNoteRead)
        assert "Idempotent-Replayed" not in first.headers
        retry = create_note.sync_detailed(client=api, body=body, idempotency_key=key)
        assert retry.status_code == 201, retry.content
        assert retry.headers.get("Idempotent-Replayed") == "true"
        assert isinstance(retry.parsed, SessionNoteRead)
        assert retry.parsed.id == first.parsed.id
        note_id = first.parsed.id
        notes = list_notes.sync_detailed(client=api, client_id=client_id)
        assert isinstance(notes.parsed, PageSessionNoteRead)
        assert notes.parsed.total == 1
        assert [note.id for note in notes.parsed.items] == [note_id]
        # The same key with another body is refused, not replayed.
        other = SessionNoteCreate(
            client_id=client_id, session_date=body.session_date, subjective="Something else."
        )
        reused = create_note.sync_detailed(client=api, body=other, idempotency_key=key)
        assert reused.status_code == 409
        assert isinstance(reused.parsed, ErrorResponse)
        assert reused.parsed.error.code == "idempotency_key_reused"

        # Autosave at the version we saw.
        seen = first.parsed.version
        saved = update_note.sync_detailed(
            note_id, client=api, body=SessionNoteUpdate(version=seen, objective="Calm, engaged.")
        )
        assert saved.status_code == 200, saved.content
        assert isinstance(saved.parsed, SessionNoteRead)
        assert saved.parsed.version == seen + 1

        # Autosave again at the stale version: 409 with the current one; retry at it.
        stale = update_note.sync_detailed(
            note_id, client=api, body=SessionNoteUpdate(version=seen, assessment="Steady.")
        )
        assert stale.status_code == 409
        assert isinstance(stale.parsed, ErrorResponse)
        assert stale.parsed.error.code == "version_conflict"
        details = stale.parsed.error.details
        assert isinstance(details, dict)
        current = details["current_version"]
        assert current == saved.parsed.version
        merged = update_note.sync_detailed(
            note_id, client=api, body=SessionNoteUpdate(version=current, assessment="Steady.")
        )
        assert merged.status_code == 200, merged.content
        assert isinstance(merged.parsed, SessionNoteRead)
        assert merged.parsed.objective == "Calm, engaged."
        assert merged.parsed.assessment == "Steady."

        # Finalize, then amend (a PATCH on a finalized note keeps what it replaces).
        final = finalize_note.sync_detailed(
            note_id,
            client=api,
            body=SessionNoteFinalize(version=merged.parsed.version, attestation_version=1),
        )
        assert final.status_code == 200, final.content
        assert isinstance(final.parsed, SessionNoteRead)
        assert final.parsed.status.value == "finalized"
        assert final.parsed.version > merged.parsed.version
        amended = update_note.sync_detailed(
            note_id,
            client=api,
            body=SessionNoteUpdate(
                version=final.parsed.version,
                plan="Review in four weeks.",
                reason="Example reason: review date agreed.",
            ),
        )
        assert amended.status_code == 200, amended.content
        assert isinstance(amended.parsed, SessionNoteRead)
        assert amended.parsed.status.value == "finalized"
        assert amended.parsed.plan == "Review in four weeks."
        assert amended.parsed.version > final.parsed.version

        # History: a page holding the content the amendment replaced.
        history = list_versions.sync_detailed(note_id, client=api, page=1, page_size=20)
        assert history.status_code == 200, history.content
        assert isinstance(history.parsed, PageSessionNoteVersionRead)
        assert (history.parsed.total, history.parsed.page, history.parsed.page_size) == (1, 1, 20)
        kept = history.parsed.items[0]
        assert kept.note_id == note_id
        assert kept.version == final.parsed.version
        assert kept.plan is None
        assert kept.assessment == "Steady."

        # A token cannot revoke itself (token management needs a browser session) ...
        refused = revoke_token.sync_detailed(uuid.UUID(live_server.token_id), client=api)
        assert refused.status_code == 403
        assert isinstance(refused.parsed, ErrorResponse)
        assert refused.parsed.error.code == "login_session_required"

        # ... so the signed-in owner revokes it, with the generated client on the cookie.
        with Client(
            base_url=live_server.base,
            cookies={"carevault_session": live_server.cookie},
            headers={"X-CSRF-Token": live_server.csrf},
            timeout=TIMEOUT,
        ) as browser:
            # The generator types secured endpoints as bearer-only; the server also takes a
            # session cookie with its CSRF header, which is what this call shows.
            revoked = revoke_token.sync_detailed(
                uuid.UUID(live_server.token_id),
                client=browser,  # type: ignore[arg-type]
            )
            assert revoked.status_code == 204, revoked.content

        # The next call with the token is refused.
        after = read_note.sync_detailed(note_id, client=api)
        assert after.status_code == 401
        assert isinstance(after.parsed, ErrorResponse)
        assert after.parsed.error.code == "token_revoked"


def test_the_client_builds_as_a_wheel_offline(tmp_path: Path) -> None:
    """`pip wheel` with the venv's hatchling and no build isolation: no index is needed."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--quiet",
            "--wheel-dir",
            str(tmp_path),
            str(CLIENT_ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (wheel,) = tmp_path.glob("carevault_client-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "carevault_client/client.py" in names
    assert "carevault_client/py.typed" in names
    assert any(name.startswith("carevault_client/api/session_notes/") for name in names)
    metadata = next(name for name in names if name.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "Name: carevault-client" in text
    assert "Requires-Dist: httpx" in text


def test_a_service_account_with_the_generated_client(live_server: LiveServer) -> None:
    """Issue 25: an owner makes a service account and its token on the cookie session; the
    integration then runs on that token, which says it is the practice's, not a person's."""
    from carevault_client.api.service_accounts import (
        create_service_account_api_v1_service_accounts_post as create_account,
    )
    from carevault_client.api.service_accounts import (
        create_service_account_token_api_v1_service_accounts_service_account_id_tokens_post as issue,  # noqa: E501
    )
    from carevault_client.models import (
        MeResponse,
        ServiceAccountCreate,
        ServiceAccountCreateScopesItem,
        ServiceAccountRead,
        ServiceAccountRef,
        ServiceAccountTokenCreate,
        ServiceAccountTokenCreated,
    )

    cookies = {"carevault_session": live_server.cookie}
    csrf = {"X-CSRF-Token": live_server.csrf}
    # Creating credentials needs the password proved in the last 5 minutes.
    proved = httpx.post(
        f"{live_server.base}/api/v1/auth/reauth",
        json={"password": PASSWORD},
        cookies=cookies,
        headers=csrf,
        timeout=TIMEOUT,
    )
    assert proved.status_code == 200, proved.text
    with Client(base_url=live_server.base, cookies=cookies, headers=csrf, timeout=TIMEOUT) as owner:
        made = create_account.sync_detailed(
            client=owner,  # type: ignore[arg-type]
            body=ServiceAccountCreate(
                name="nightly sync",
                scopes=[ServiceAccountCreateScopesItem("clients:read")],
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
    integration = AuthenticatedClient(
        base_url=live_server.base, token=issued.parsed.token, timeout=TIMEOUT
    )
    with integration:
        who = me.sync_detailed(client=integration)
        assert isinstance(who.parsed, MeResponse)
        assert isinstance(who.parsed.service_account, ServiceAccountRef)
        assert who.parsed.service_account.name == "nightly sync"
        found = search_clients.sync_detailed(
            client=integration, body=ClientSearch(q="ada", page=1, page_size=10)
        )
        assert found.status_code == 200, found.content
        assert int(found.headers["RateLimit-Limit"]) > 0
