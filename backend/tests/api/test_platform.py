"""Cross-cutting behaviour: error shape, body limits, metrics, logs, OpenAPI."""

from __future__ import annotations

import logging
import uuid

import pytest

from carevault.auth.models import Role
from tests.api_support import ApiContext


async def test_malformed_json_and_unknown_fields_are_422_in_the_error_shape(
    api: ApiContext,
) -> None:
    async with api.client() as client:
        broken = await client.post(
            "/auth/login", content=b'{"email": ', headers={"Content-Type": "application/json"}
        )
        unknown = await client.post(
            "/auth/login", json={"email": "a@b.c", "password": "x", "admin": True}
        )
        wrong_type = await client.post("/auth/login", json={"email": 5, "password": []})
    for response in (broken, unknown, wrong_type):
        assert response.status_code == 422
        assert response.json()["error"]["code"] == "validation_error"
    assert {d["field"] for d in unknown.json()["error"]["details"]} == {"admin"}
    assert {d["field"] for d in wrong_type.json()["error"]["details"]} == {"email", "password"}


async def test_oversized_bodies_are_413(api: ApiContext) -> None:
    async with api.client() as client:
        response = await client.post(
            "/auth/login",
            content=b'{"email": "' + b"a" * (2 * 1024 * 1024) + b'"}',
            headers={"Content-Type": "application/json"},
        )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"


async def test_bad_ids_and_unknown_routes_are_4xx(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        bad_id = await client.delete("/auth/tokens/not-a-uuid")
        missing = await client.get("/no/such/route")
    assert bad_id.status_code == 422 and bad_id.json()["error"]["details"][0]["field"]
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


async def test_metrics_report_route_latency_and_field_operations(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        await client.get("/auth/me")
    async with api.client() as client:
        text = (await client.get("http://testserver/metrics")).text
    series = 'method="GET",route="/api/v1/auth/me",status="200"'
    assert f"carevault_http_request_duration_seconds_count{{{series}}} 1.0" in text
    assert 'carevault_field_operations_total{operation="encrypt"}' in text
    assert "carevault_keyring_active_version 1.0" in text
    assert "carevault_keyring_consecutive_refresh_failures 0.0" in text


async def test_access_log_names_route_templates_not_query_strings(
    api: ApiContext, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="carevault.access")
    async with api.client() as client:
        await client.get("/auth/me", params={"q": "jane.doe@example.com"})
    records = [r for r in caplog.records if r.name == "carevault.access"]
    assert records and records[-1].route == "/api/v1/auth/me"  # type: ignore[attr-defined]
    assert "jane.doe" not in caplog.text


async def test_openapi_documents_every_route_with_the_error_shape(api: ApiContext) -> None:
    async with api.client() as client:
        document = (await client.get("http://testserver/openapi.json")).json()
    assert "HTTPValidationError" not in document["components"]["schemas"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert operation.get("summary") or operation.get("description"), (method, path)
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")) and path != "/health/ready":
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/ErrorResponse"}, (path, status)


async def test_a_value_that_fails_to_decrypt_is_a_specific_error_audited_and_contained(
    api: ApiContext, caplog: pytest.LogCaptureFixture
) -> None:
    from tests.api.test_auth import sql
    from tests.api.test_session_notes import practice

    setup = await practice(api, Role.OWNER, clients=1)
    async with api.signed_in(setup.emails[0]) as client:
        notes = []
        for text in ("first private note", "second private note"):
            created = await client.post(
                "/sessions",
                json={
                    "client_id": setup.client_ids[0],
                    "session_date": "2026-11-02",
                    "subjective": text,
                },
            )
            assert created.status_code == 201
            notes.append(created.json()["id"])
        await sql(
            api,
            "UPDATE sessions SET subjective = set_byte(subjective, 25, "
            "get_byte(subjective, 25) # 1) WHERE id = $1",
            uuid.UUID(notes[0]),
        )
        broken = await client.get(f"/sessions/{notes[0]}")
        intact = await client.get(f"/sessions/{notes[1]}")
    assert broken.status_code == 500
    assert broken.json()["error"]["code"] == "phi_decryption_failed"
    assert "private" not in broken.text
    assert intact.status_code == 200 and intact.json()["subjective"] == "second private note"
    events = await sql(
        api, "SELECT resource_ids, details FROM audit_events WHERE action = 'phi.decryption_failed'"
    )
    assert len(events) == 1 and notes[0] in events[0]["resource_ids"]
    assert "private" not in caplog.text
    assert any(r.getMessage() == "PHI decryption failed" for r in caplog.records)
