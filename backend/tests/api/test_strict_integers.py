"""Every integer a request carries is strict: in a JSON body, `true`, `"2"` and `3.0` are
refused with 422 (pydantic's lax mode saved `{"version": true}` as version 1); in a query
string, only decimal digits are taken. The test walks the OpenAPI document, so an integer
field added later is covered without being listed here."""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx
import pytest

from carevault.auth.models import Role
from tests.support.http import ApiContext
from tests.support.notes import create_note, practice

BAD_BODY_INTEGERS: list[Any] = [True, False, "2", 3.0, 2.5]
BAD_QUERY_INTEGERS = ["true", "3.0", " 2", "2e0", "\u0663"]  # the last: ARABIC-INDIC THREE


def _resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _is_integer(document: dict[str, Any], schema: dict[str, Any]) -> bool:
    schema = _resolve(document, schema)
    alternatives = schema.get("anyOf", []) + schema.get("oneOf", []) + schema.get("allOf", [])
    return schema.get("type") == "integer" or any(
        _is_integer(document, alternative) for alternative in alternatives
    )


def _integer_inside(document: dict[str, Any], schema: dict[str, Any]) -> bool:
    """Whether an array's items or an object's properties hold an integer, at any depth."""
    schema = _resolve(document, schema)
    inner = [*schema.get("properties", {}).values()]
    if "items" in schema:
        inner.append(schema["items"])
    alternatives = schema.get("anyOf", []) + schema.get("oneOf", []) + schema.get("allOf", [])
    return any(
        _is_integer(document, part) or _integer_inside(document, part) for part in inner
    ) or any(_integer_inside(document, alternative) for alternative in alternatives)


def _integer_fields(document: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(method, path, "body" or "query", name) of every integer a request can carry."""
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                if _is_integer(document, parameter.get("schema", {})):
                    assert parameter["in"] == "query", parameter  # extend the walk if not
                    found.append((method, path, "query", parameter["name"]))
            content = operation.get("requestBody", {}).get("content", {})
            for media, body in content.items():
                for name, field in _body_fields(document, body["schema"]):
                    assert not _integer_inside(document, field), (
                        f"{method} {path} {name}: an integer nested in a body; extend the walk"
                    )
                    if _is_integer(document, field):
                        assert media == "application/json", (method, path, media)
                        found.append((method, path, "body", name))
    return found


def _body_fields(
    document: dict[str, Any], schema: dict[str, Any], prefix: str = ""
) -> list[tuple[str, dict[str, Any]]]:
    """(dotted name, schema) of a body's properties, those of nested objects (a series'
    `recurrence.count`) named through their object."""
    fields = []
    for name, field in _resolve(document, schema).get("properties", {}).items():
        resolved = _resolve(document, field)
        if "properties" in resolved:
            fields += _body_fields(document, resolved, f"{prefix}{name}.")
        else:
            fields.append((f"{prefix}{name}", field))
    return fields


def _nested(name: str, value: Any) -> dict[str, Any]:
    """The body holding `value` at the dotted `name`."""
    head, _, rest = name.partition(".")
    return {head: _nested(rest, value) if rest else value}


def _fields_named(answer: httpx.Response) -> set[str]:
    return {detail["field"] for detail in answer.json()["error"].get("details") or []}


async def test_every_integer_in_a_request_refuses_booleans_strings_and_floats(
    api: ApiContext,
) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    document = api.app.openapi()
    fields = _integer_fields(document)
    # The walk found what is known to be there (it would pass vacuously otherwise).
    assert {("patch", "/api/v1/sessions/{note_id}", "body", "version")} <= set(fields)
    assert {("get", "/api/v1/clients", "query", "page")} <= set(fields)
    assert {("post", "/api/v1/appointments/series", "body", "recurrence.count")} <= set(fields)
    accepted = []
    async with api.signed_in(email) as client:
        for method, path, where, name in fields:
            url = re.sub(r"\{[^}]+\}", lambda _: str(uuid.uuid4()), path)
            url = url.removeprefix("/api/v1")
            bad_values: list[Any] = BAD_BODY_INTEGERS if where == "body" else BAD_QUERY_INTEGERS
            for bad in bad_values:
                if where == "body":
                    answer = await client.request(method, url, json=_nested(name, bad))
                else:
                    answer = await client.request(method, url, params={name: bad})
                if answer.status_code != 422 or f"{where}.{name}" not in _fields_named(answer):
                    accepted.append((method, path, name, bad, answer.status_code, answer.text))
    assert not accepted, "\n".join(map(str, accepted))


@pytest.mark.parametrize("value", [1, 7])
async def test_a_real_integer_is_still_taken(api: ApiContext, value: int) -> None:
    """The control: the same requests with an integer are not refused for that field."""
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(email) as client:
        body = await client.post("/clients/search", json={"page": value, "page_size": value})
        query = await client.get("/clients", params={"page": str(value)})
    assert body.status_code == 200, body.text
    assert query.status_code == 200, query.text


@pytest.mark.parametrize("version", [True, "1", 1.0])
async def test_an_autosave_with_a_version_that_is_not_an_integer_is_not_saved(
    api: ApiContext, version: Any
) -> None:
    """`{"version": true}` was taken as version 1 and the autosave stored."""
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
        assert note["version"] == 1
        saved = await client.patch(
            f"/sessions/{note['id']}", json={"version": version, "plan": "not an integer"}
        )
        after = await client.get(f"/sessions/{note['id']}")
    assert saved.status_code == 422, saved.text
    assert "body.version" in _fields_named(saved)
    assert after.json()["version"] == 1 and after.json()["plan"] == note["plan"]
