"""Issue 9, the edge of the app: security headers, what /health, /health/ready and /metrics
tell whom, search terms out of URLs, and the smaller defects found by the security review."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from carevault.api.errors import install_error_handlers
from carevault.api.frontend import mount_frontend
from carevault.auth.models import Role
from carevault.crypto import KeyRing
from carevault.observability.logging import configure_logging
from tests.support.db import NewDatabase, sql
from tests.support.http import PASSWORD, ApiContext, running_api

METRICS_TOKEN = "a-metrics-token-for-tests"


@pytest.fixture
async def production_api(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[ApiContext]:
    url = await new_database()
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", url)  # production refuses to start without
    async with running_api(
        url,
        data_dir,
        env="production",
        key_provider="env",
        keyring_json=KeyRing.generate().to_json(),
        metrics_token=METRICS_TOKEN,
    ) as context:
        yield context


# --- security headers ------------------------------------------------------------------------

EXPECTED = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def assert_security_headers(response: httpx.Response, *, production: bool) -> None:
    for name, value in EXPECTED.items():
        assert response.headers.get(name) == value, (response.request.url, name)
    policy = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert ("strict-transport-security" in response.headers) is production


async def test_every_response_has_security_headers(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        responses = [
            await client.get("/auth/me"),
            await client.get("/clients/not-a-uuid"),
            await client.get("http://testserver/health"),
            await client.get("http://testserver/"),
            await client.get("http://testserver/calendar"),
            await client.get("http://testserver/metrics"),
            await client.post("/auth/login", content=b"x" * (2 * 1024 * 1024)),
        ]
    assert [r.status_code for r in responses] == [200, 422, 200, 200, 200, 403, 413]
    for response in responses:
        assert_security_headers(response, production=False)
    ui_policy = responses[3].headers["content-security-policy"]
    assert "script-src 'self';" in ui_policy and "unsafe-inline" not in ui_policy
    assert responses[0].headers["cache-control"] == "no-store"  # API answers carry PHI


async def test_hsts_in_production_and_the_docs_page_is_same_origin_under_the_strict_policy(
    production_api: ApiContext,
) -> None:
    """/docs is Swagger UI served by the app: nothing from another origin (a CDN, fonts),
    no inline script or style, so the web UI's policy covers it and it works offline."""
    async with production_api.client() as client:
        health = await client.get("http://testserver/health")
        docs = await client.get("http://testserver/docs")
        sources = re.findall(r'(?:src|href)="([^"]*)"', docs.text)
        assets = [await client.get(f"http://testserver{source}") for source in sources]
        redoc = await client.get("http://testserver/redoc")
        unknown = await client.get("http://testserver/docs/assets/index.html")
        outside = await client.get("http://testserver/docs/assets/..%2F..%2Fcore.py")
    assert_security_headers(health, production=True)
    assert health.headers["strict-transport-security"].startswith("max-age=63072000")
    assert docs.status_code == 200
    assert_security_headers(docs, production=True)
    policy = docs.headers["content-security-policy"]
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "http" not in policy  # no other origin
    assert "script-src 'self';" in policy and "style-src 'self';" in policy
    # Every script is a file (no inline code), every reference a path on this origin.
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", docs.text, flags=re.DOTALL)
    assert len(scripts) == 2 and all('src="/' in attrs and not body for attrs, body in scripts)
    assert "<style" not in docs.text and "style=" not in docs.text
    assert sources and all(s.startswith("/docs/assets/") for s in sources), sources
    assert [a.status_code for a in assets] == [200] * len(sources)
    assert {a.headers["content-type"].split(";")[0] for a in assets} == {
        "image/png",
        "text/css",
        "text/javascript",
    }
    assert all(a.headers["x-content-type-options"] == "nosniff" for a in assets)
    assert (
        b"SwaggerUIBundle" in assets[sources.index(next(s for s in sources if "init" in s))].content
    )
    assert redoc.status_code == unknown.status_code == outside.status_code == 404


# --- health and metrics ----------------------------------------------------------------------


async def test_public_readiness_says_only_ready_or_not(api: ApiContext) -> None:
    async with api.client() as client:
        ready = await client.get("http://testserver/health/ready")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready"}  # no key source, secret name or versions


async def test_detailed_readiness_is_for_owners_only(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.client() as anonymous:
        assert (await anonymous.get("/system/readiness")).status_code == 401
    async with api.signed_in(clinician) as client:
        refused = await client.get("/system/readiness")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "owner_required"
    async with api.signed_in(owner) as client:
        details = await client.get("/system/readiness")
    assert details.status_code == 200
    body = details.json()
    assert body["status"] == "ready" and body["key_ring"]["source"].startswith("local file")


async def test_metrics_need_the_configured_token(
    api: ApiContext, production_api: ApiContext
) -> None:
    async with api.client() as client:
        unconfigured = await client.get("http://testserver/metrics")
    assert unconfigured.status_code == 403
    assert unconfigured.json()["error"]["code"] == "metrics_disabled"
    async with production_api.client() as client:
        anonymous = await client.get("http://testserver/metrics")
        wrong = await client.get(
            "http://testserver/metrics", headers={"Authorization": "Bearer not-it"}
        )
        right = await client.get(
            "http://testserver/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
        )
    assert anonymous.status_code == 401 and wrong.status_code == 401
    assert anonymous.headers["www-authenticate"] == "Bearer"
    assert right.status_code == 200 and "carevault_keyring_active_version" in right.text


# --- PHI out of URLs and logs ----------------------------------------------------------------


async def test_client_search_is_a_post_and_get_refuses_a_search_term(api: ApiContext) -> None:
    _, (clinician,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(clinician) as client:
        created = await client.post(
            "/clients",
            json={"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.org"},
        )
        assert created.status_code == 201
        found = await client.post(
            "/clients/search", json={"q": "ADA@example.org", "page": 1, "page_size": 5}
        )
        in_url = await client.get("/clients", params={"q": "ada@example.org"})
        bad_page = await client.post("/clients/search", json={"q": "a", "page_size": 101})
        unknown = await client.post("/clients/search", json={"query": "a"})
        del client.headers["X-CSRF-Token"]
        no_csrf = await client.post("/clients/search", json={"q": "a"})
    assert found.status_code == 200
    assert [c["id"] for c in found.json()["items"]] == [created.json()["id"]]
    assert found.json()["page_size"] == 5
    assert in_url.status_code == 400 and in_url.json()["error"]["code"] == "search_in_body"
    assert bad_page.status_code == 422 and unknown.status_code == 422
    assert no_csrf.status_code == 403


def test_uvicorn_access_log_stays_off_after_logging_is_configured() -> None:
    """uvicorn logs raw request lines (query strings) whenever its access logger has a
    handler up the chain; configuring CareVault's logging must never give it one."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    configure_logging("info", json_format=True)
    try:
        access = logging.getLogger("uvicorn.access")
        assert not access.hasHandlers()
        assert access.disabled
    finally:
        # The level too: left at INFO, httpx logs request URLs into later tests' caplog.
        root.handlers[:] = handlers
        root.setLevel(level)


# --- smaller defects -------------------------------------------------------------------------


async def test_nul_byte_in_a_web_ui_path_is_404(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>ui</title>")
    app = FastAPI()
    install_error_handlers(app)
    mount_frontend(app, tmp_path)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        for path in ("/%00", "/calendar%00.html", "/assets/%00x.js"):
            response = await client.get(path)
            assert response.status_code == 404, path
            assert response.json()["error"]["code"] == "not_found"
        assert (await client.get("/calendar")).status_code == 200


async def test_audit_filter_times_out_of_range_are_422(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        for name, value in (
            ("since", "0001-01-01T00:00:00+14:00"),
            ("until", "9999-12-31T23:59:59-14:00"),
        ):
            response = await client.get("/audit-events", params={name: value})
            assert response.status_code == 422, (name, response.text)
            assert response.json()["error"]["details"][0]["field"] == f"query.{name}"
        fine = await client.get("/audit-events", params={"since": "0001-01-02T00:00:00+14:00"})
    assert fine.status_code == 200


async def test_adding_a_user_does_not_tell_whether_another_practice_has_the_email(
    api: ApiContext,
) -> None:
    _, (owner_a, clinician_a) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    _, (owner_b,) = await api.workspace_with_users(None, Role.OWNER)
    body = {"password": "another long password", "role": "clinician"}
    async with api.signed_in(owner_b) as client:
        elsewhere = await client.post("/users", json={**body, "email": clinician_a.upper()})
        nowhere = await client.post("/users", json={**body, "email": "nobody@example.test"})
        here = await client.post("/users", json={**body, "email": "NOBODY@example.test"})
    assert elsewhere.status_code == nowhere.status_code == 201
    assert set(elsewhere.json()) == set(nowhere.json())
    assert here.status_code == 409  # the owner's own team: nothing to hide from them
    # Each account signs in with its own password.
    async with api.client() as client:
        mine = await client.post("/auth/login", json={"email": clinician_a, "password": PASSWORD})
        theirs = await client.post(
            "/auth/login", json={"email": clinician_a, "password": body["password"]}
        )
        wrong = await client.post("/auth/login", json={"email": clinician_a, "password": "nope"})
    assert mine.status_code == theirs.status_code == 200
    assert mine.json()["workspace"]["id"] != theirs.json()["workspace"]["id"]
    assert mine.json()["user"]["id"] != elsewhere.json()["id"] == theirs.json()["user"]["id"]
    assert wrong.status_code == 401
    assert owner_a  # the first practice is untouched
    rows = await sql(
        api, "SELECT count(*) AS n FROM users WHERE lower(email) = lower($1)", clinician_a
    )
    assert rows[0]["n"] == 2


async def test_import_refuses_more_rows_than_the_cap(
    new_database: NewDatabase, data_dir: Path
) -> None:
    async with running_api(await new_database(), data_dir, import_max_rows=3) as capped:
        _, (owner,) = await capped.workspace_with_users(None, Role.OWNER)
        rows = "".join(f"First{i},Last{i}\n" for i in range(4))
        headers = {"Content-Type": "text/csv"}
        async with capped.signed_in(owner) as client:
            refused = await client.post(
                "/clients/import", content="first_name,last_name\n" + rows, headers=headers
            )
            lines = "".join(f'{{"first_name": "F{i}", "last_name": "L"}}\n' for i in range(4))
            refused_jsonl = await client.post(
                "/clients/import", content=lines, headers={"Content-Type": "application/x-ndjson"}
            )
            fits = await client.post(
                "/clients/import",
                content="first_name,last_name\n" + rows.split("First3")[0],
                headers=headers,
            )
            total = (await client.get("/clients")).json()["total"]
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "import_rejected"
    detail = refused.json()["error"]["details"][0]
    assert detail["line"] == 5 and "more than 3 rows" in detail["message"]
    assert refused_jsonl.status_code == 422
    assert fits.status_code == 201 and fits.json()["imported"] == 3
    assert total == 3


async def test_import_rejects_ragged_csv_rows_and_huge_json_numbers(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    csv_file = (
        "first_name,last_name,email\n"
        "Ada,Lovelace,ada@example.org\n"
        "Grace,Hopper,grace@example.org,surplus\n"  # line 3: one field too many
        "\n"
        "Alan,Turing\n"  # line 5: one field short
    )
    huge = '{"first_name": "A", "last_name": "B", "phone": ' + "9" * 5000 + "}\n"
    deep = "[" * 100_000 + "]" * 100_000 + "\n"
    async with api.signed_in(owner) as client:
        ragged = await client.post(
            "/clients/import", content=csv_file, headers={"Content-Type": "text/csv"}
        )
        numbers = await client.post(
            "/clients/import",
            content='{"first_name": "C", "last_name": "D"}\n' + huge + deep,
            headers={"Content-Type": "application/x-ndjson"},
        )
        total = (await client.get("/clients")).json()["total"]
    assert ragged.status_code == 422
    details = ragged.json()["error"]["details"]
    assert [(d["line"], d["message"]) for d in details] == [
        (3, "4 field(s) where the header has 3"),
        (5, "2 field(s) where the header has 3"),
    ]
    assert numbers.status_code == 422, numbers.text
    assert [d["line"] for d in numbers.json()["error"]["details"]] == [2, 3]
    assert total == 0


async def test_an_unhandled_error_still_carries_the_security_headers(api: ApiContext) -> None:
    async def boom() -> None:
        raise RuntimeError("a bug")

    api.app.add_api_route("/boom", boom, methods=["POST"])
    api.app.middleware_stack = None  # rebuilt on the next call, with the new route
    transport = httpx.ASGITransport(app=api.app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        response = await client.post("/boom")
    assert response.status_code == 500
    assert_security_headers(response, production=False)
