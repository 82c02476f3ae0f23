"""The OpenAPI document tells clients which credentials each operation takes (issue 14):
Bearer tokens with the scope they need, or the login-session cookie only, and the errors
every authenticated operation can answer."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

from carevault.api.app import create_app
from carevault.api.openapi_examples import declared_operations

PUBLIC = {("POST", "/api/v1/auth/login")}


@pytest.fixture(scope="module")
def app() -> FastAPI:
    return create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none")


@pytest.fixture(scope="module")
def document(app: FastAPI) -> dict[str, Any]:
    return app.openapi()


def api_operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, operations in document["paths"].items()
        if path.startswith("/api/v1/")
        for method, operation in operations.items()
    ]


def test_both_schemes_are_declared(document: dict[str, Any]) -> None:
    schemes = document["components"]["securitySchemes"]
    assert schemes["bearerToken"] == {**schemes["bearerToken"], "type": "http", "scheme": "bearer"}
    assert schemes["sessionCookie"]["in"] == "cookie"
    assert schemes["sessionCookie"]["name"] == "carevault_session"


def test_every_operation_names_its_credentials_and_the_token_scopes(
    app: FastAPI, document: dict[str, Any]
) -> None:
    declared = declared_operations(app.routes)
    operations = api_operations(document)
    assert len(operations) > 30
    for method, path, operation in operations:
        if (method, path) in PUBLIC:
            assert "security" not in operation, path
            continue
        scopes = declared[(method.lower(), path)].token_scopes  # type: ignore[union-attr]
        if scopes is None:
            assert operation["security"] == [{"sessionCookie": []}], (method, path)
            assert operation["x-token-scopes"] is None
        else:
            assert operation["security"] == [{"bearerToken": []}, {"sessionCookie": []}], path
            assert operation["x-token-scopes"] == list(scopes), (method, path)
        for status in ("400", "401", "403", "429", "503"):
            if status == "503" and path == "/api/v1/system/readiness":
                continue  # "not ready" is that report itself, not an error
            if status == "403" and (method, path) == ("GET", "/api/v1/auth/me"):
                continue  # any token and any session may ask who they are
            content = operation["responses"][status]["content"]["application/json"]
            assert content["schema"] == {"$ref": "#/components/schemas/ErrorResponse"}


def test_token_routes_and_user_management_are_cookie_only(document: dict[str, Any]) -> None:
    paths = document["paths"]
    assert paths["/api/v1/users"]["post"]["security"] == [{"sessionCookie": []}]
    assert paths["/api/v1/auth/tokens"]["post"]["security"] == [{"sessionCookie": []}]
    # A change that answers with the note discloses it: it needs read as well as write.
    note = paths["/api/v1/sessions/{note_id}"]
    assert note["patch"]["x-token-scopes"] == ["notes:write", "notes:read"]
    assert note["delete"]["x-token-scopes"] == ["notes:write"]
    assert paths["/api/v1/system/readiness"]["get"]["x-token-scopes"] == ["system:read"]


def test_creates_with_an_idempotency_key_declare_its_409(document: dict[str, Any]) -> None:
    """`409 idempotency_key_reused` is declared wherever `Idempotency-Key` is accepted, so a
    generated client parses it (clients/python), next to a create's own 409."""
    idempotent = {
        (method, path): operation
        for method, path, operation in api_operations(document)
        if any(
            parameter["in"] == "header" and parameter["name"] == "Idempotency-Key"
            for parameter in operation.get("parameters", [])
        )
    }
    assert set(idempotent) == {
        ("POST", "/api/v1/sessions"),
        ("POST", "/api/v1/clients"),
        ("POST", "/api/v1/clients/import"),
        ("POST", "/api/v1/appointments"),
        ("POST", "/api/v1/appointments/series"),
        ("POST", "/api/v1/auth/tokens"),
        ("POST", "/api/v1/webhooks"),
        ("POST", "/api/v1/service-accounts"),
        ("POST", "/api/v1/service-accounts/{service_account_id}/tokens"),
    }
    for operation in idempotent.values():
        conflict = operation["responses"]["409"]
        assert "idempotency_key_reused" in conflict["description"]
        assert conflict["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/ErrorResponse"
        }
    overlap = idempotent[("POST", "/api/v1/appointments")]["responses"]["409"]["description"]
    assert overlap.startswith("Conflict with the current state; ")
