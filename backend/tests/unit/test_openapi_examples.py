"""The OpenAPI document shows an example of every request body, every success body and every
error response (issue 14); each example fits its schema, and each error example names a code
the API really answers with, at that status (the table tools/error_codes.py reads from the
code)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from carevault.api.app import create_app
from carevault.api.error_examples import EXAMPLES

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.error_codes import all_codes  # noqa: E402

# Codes no operation in the document can answer with: the framework's fallbacks for routes
# that do not exist or methods a path does not have, /metrics (not in the document), and
# the 500s, which are defects or tampering rather than part of an operation's contract.
NOT_IN_ANY_OPERATION = {
    "conflict",
    "forbidden",
    "internal_error",
    "method_not_allowed",
    "metrics_disabled",
    "phi_decryption_failed",
    "unauthorized",
    # /fhir/R4's own (it is outside the OpenAPI document: FHIR describes itself in
    # /fhir/R4/metadata; docs/reference/fhir.md lists them).
    "multiple_matches",
    # The bulk export's (carevault.exports, also under /fhir/R4; docs/how-to/export.md lists them).
    "export_failed",
    "export_in_progress",
    "respond_async_required",
    "unsupported_output_format",
    "unsupported_resource_type",
    "too_costly",
    "version_not_found",
}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    app = create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none")
    return app.openapi()


def operations(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{method.upper()} {path}", operation)
        for path, by_method in document["paths"].items()
        for method, operation in by_method.items()
    ]


def resolve(node: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        found: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            found = found[part]
        node = found
    return node


def examples_of(media: dict[str, Any], document: dict[str, Any]) -> list[Any]:
    """The example values a media type shows: its own, or else its schema's."""
    if "example" in media:
        return [media["example"]]
    if media.get("examples"):
        return [resolve(entry, document)["value"] for entry in media["examples"].values()]
    return list(resolve(media.get("schema", {}), document).get("examples", []))


def test_every_body_and_response_has_an_example(document: dict[str, Any]) -> None:
    missing = []
    for name, operation in operations(document):
        for media_type, media in operation.get("requestBody", {}).get("content", {}).items():
            if not examples_of(media, document):
                missing.append(f"{name} request {media_type}")
        for status, response in operation["responses"].items():
            for media_type, media in response.get("content", {}).items():
                if not examples_of(media, document):
                    missing.append(f"{name} {status} {media_type}")
                error = media.get("schema") == {"$ref": "#/components/schemas/ErrorResponse"}
                if error and not media.get("examples"):
                    missing.append(f"{name} {status}: no example of its own error codes")
    assert missing == []
    assert len(operations(document)) > 30


def test_every_example_fits_its_schema(document: dict[str, Any]) -> None:
    checked = 0
    for name, operation in operations(document):
        bodies = operation.get("requestBody", {}).get("content", {}).items()
        answers = [
            (f"{status} {media_type}", media)
            for status, response in operation["responses"].items()
            for media_type, media in response.get("content", {}).items()
        ]
        for where, media in [(f"request {t}", m) for t, m in bodies] + answers:
            schema = {**media.get("schema", {}), "components": document["components"]}
            validator = Draft202012Validator(schema)
            for example in examples_of(media, document):
                problems = [error.message for error in validator.iter_errors(example)]
                assert problems == [], (name, where, example)
                checked += 1
    assert checked > 300


def test_error_examples_name_codes_the_api_answers_with_at_that_status(
    document: dict[str, Any],
) -> None:
    table = all_codes()
    shown: set[str] = set()
    for name, operation in operations(document):
        for status, response in operation["responses"].items():
            media = response.get("content", {}).get("application/json", {})
            if int(status) < 400 or media.get("schema") != {
                "$ref": "#/components/schemas/ErrorResponse"
            }:
                continue
            for key, entry in media["examples"].items():
                code = resolve(entry, document)["value"]["error"]["code"]
                assert key == code, (name, status)
                assert code in table.get(int(status), []), (name, status, code)
                shown.add(code)
    every_code = {code for codes in table.values() for code in codes}
    assert every_code - shown == NOT_IN_ANY_OPERATION
    for code, example in EXAMPLES.items():
        assert code in table[example.status], code


def test_operations_show_the_errors_their_dependencies_can_give(
    document: dict[str, Any],
) -> None:
    """Spot checks of what `add_error_examples` infers from an operation: the CSRF header
    for cookie changes, owners only, re-authentication, token scopes, Idempotency-Key."""

    def codes(method: str, path: str, status: int) -> set[str]:
        response = document["paths"][path][method]["responses"][str(status)]
        return set(response["content"]["application/json"]["examples"])

    assert codes("post", "/api/v1/users", 403) == {
        "csrf_failed",
        "login_session_required",
        "owner_required",
        "password_change_required",
        "reauthentication_required",
    }
    assert codes("get", "/api/v1/sessions", 403) == {
        "insufficient_scope",
        "password_change_required",
    }
    assert codes("post", "/api/v1/sessions", 409) == {
        "idempotency_key_reused",
        "external_id_taken",
    }
    assert codes("post", "/api/v1/appointments", 409) == {
        "appointment_conflict",
        "idempotency_key_reused",
        "external_id_taken",
    }
    assert codes("patch", "/api/v1/sessions/{note_id}", 422) == {
        "validation_error",
        "no_changes",
        "finalized_field_locked",
        "empty_note",
        "reason_required",
    }
    # The body is not JSON (no body validation_error); `?upsert=` is a query parameter.
    assert codes("post", "/api/v1/clients/import", 422) == {"import_rejected", "validation_error"}
    assert "validation_error" not in codes("post", "/api/v1/clients/import", 400)
    assert codes("put", "/api/v1/clients/external/{external_id}", 412) == {"precondition_failed"}
    read = document["paths"]["/api/v1/clients/{client_id}"]["get"]["responses"]
    assert "ETag" in read["200"]["headers"] and "304" in read
    # Nothing in GET /auth/me can be refused with 403 or 422, so neither is declared.
    assert {"403", "422"}.isdisjoint(document["paths"]["/api/v1/auth/me"]["get"]["responses"])
    invalid = document["paths"]["/api/v1/sessions/{note_id}"]["get"]["responses"]["422"]
    detail = invalid["content"]["application/json"]["examples"]["validation_error"]
    assert detail["value"]["error"]["details"][0]["field"] == "path.note_id"
