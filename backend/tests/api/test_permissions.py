"""Permissions declared per operation, and every disclosure of PHI audited (issue 23).

Every route of the app declares what it does (carevault.auth.permissions); a token receives a
resource's PHI only with that resource's `:read` scope, whatever the HTTP method; every route
whose answer carries encrypted fields writes an audit event naming the records it returned,
and so does an idempotent replay of one.
"""

from __future__ import annotations

import json
import typing
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pydantic
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute, iter_route_contexts
from starlette.requests import Request

from carevault.api.app import create_app
from carevault.api.errors import ApiError
from carevault.api.openapi_examples import authenticated_operations
from carevault.appointments import service as appointments_service
from carevault.auth.dependencies import _check_token_scope
from carevault.auth.models import Role
from carevault.auth.permissions import PHI_RESOURCES, operation_of
from carevault.auth.scopes import EVERY_SCOPE
from carevault.clients import service as clients_service
from carevault.crypto.types import EncryptedDate, EncryptedString
from carevault.db.base import Base
from carevault.notes import service as notes_service
from tests.support.db import sql
from tests.support.http import ApiContext, error_of

# The tables whose encrypted columns are each resource's PHI.
PHI_TABLES = {
    "clients": "clients",
    "appointments": "appointments",
    "sessions": "notes",
    "session_versions": "notes",
}
# Tables with encrypted columns whose values are no resource's record.
# (webhook_endpoints: the signing secret, shown once to the owner who made or rotated it.)
NOT_RETURNED = {"idempotency_records", "chart_access_grants", "webhook_endpoints", "export_jobs"}
# Response fields named like an encrypted column that are not PHI, and why.
NOT_PHI = {
    ("UserRead", "email"): "a user's sign-in address, not a client's",
    ("ImportedClient", "external_id"): "the import's own file's opaque ids, echoed to the "
    "owner who sent them (the rows' PHI is never in the answer)",
}
# Encrypted values of no PHI resource, whose route audits them by its own event (the field
# name alone would match a resource's: a note amendment's `reason`).
OWN_DISCLOSURE = {
    ("ChartAccessGrantReview", "reason"): "a break-the-glass reason (chart_access_grants): "
    "owners only, signed in, audited as client.break_the_glass_review",
}


@pytest.fixture(scope="module")
def app() -> FastAPI:
    return create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none")


def api_routes(app: FastAPI) -> Iterator[tuple[str, str, APIRoute]]:
    """(method, path template, route) of every FastAPI route of the app."""
    for context in iter_route_contexts(list(app.routes)):
        route = context.original_route
        if isinstance(route, APIRoute) and context.path_format is not None:
            for method in sorted(context.methods or ()):
                yield method, context.path_format, route


def _encrypted_columns() -> dict[str, set[str]]:
    """Encrypted column names of each PHI resource, from the models."""
    by_resource: dict[str, set[str]] = {}
    for mapper in Base.registry.mappers:
        table = mapper.local_table
        name = str(getattr(table, "name", ""))
        resource = PHI_TABLES.get(name)
        for column in table.columns:
            if isinstance(column.type, EncryptedString | EncryptedDate):
                # The idempotency store's sealed answers are replayed through an audited path;
                # break-the-glass reasons go only to owners, audited by their own event.
                assert resource is not None or name in NOT_RETURNED, name
                if resource is not None:
                    by_resource.setdefault(resource, set()).add(column.name)
    return by_resource


def _model_fields(annotation: Any, seen: set[type]) -> Iterator[tuple[str, str]]:
    """(model name, field name) of every pydantic model reachable from `annotation`."""
    for argument in typing.get_args(annotation):
        yield from _model_fields(argument, seen)
    if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
        if annotation in seen:
            return
        seen.add(annotation)
        for name, info in annotation.model_fields.items():
            yield annotation.__name__, name
            yield from _model_fields(info.annotation, seen)


def phi_in_response_model(route: APIRoute) -> set[str]:
    """The resources whose encrypted fields the route's response model carries."""
    encrypted = _encrypted_columns()
    found: set[str] = set()
    by_model: dict[str, set[str]] = {}
    for model, name in _model_fields(route.response_model, set()):
        if (model, name) not in NOT_PHI and (model, name) not in OWN_DISCLOSURE:
            by_model.setdefault(model, set()).add(name)
    for names in by_model.values():
        overlaps = {resource: len(names & columns) for resource, columns in encrypted.items()}
        best = max(overlaps, key=lambda resource: overlaps[resource])
        if overlaps[best]:
            found.add(best)  # the model is the resource it shares most encrypted fields with
    return found


# --- every route declares what it does --------------------------------------------------------


def test_every_route_declares_its_operation(app: FastAPI) -> None:
    routes = list(api_routes(app))
    assert len(routes) > 35
    authenticated = authenticated_operations(app.routes)
    undeclared = [(m, p) for m, p, route in routes if operation_of(route.endpoint) is None]
    assert undeclared == [], "declare these routes' operations (carevault.auth.permissions)"
    for method, path, route in routes:
        operation = operation_of(route.endpoint)
        assert operation is not None
        # Public exactly when no credential is resolved.
        assert operation.public == ((method.lower(), path) not in authenticated), (method, path)
        # Whatever it discloses needs that resource's read scope.
        for resource in operation.discloses:
            assert resource in PHI_RESOURCES
            assert f"{resource}:read" in (operation.token_scopes or ()), (method, path)
        assert set(operation.token_scopes or ()) <= set(EVERY_SCOPE), (method, path)


def test_phi_resources_use_the_audit_names_of_their_services() -> None:
    """A replay's event names its records as the resource's own reads do."""
    assert PHI_RESOURCES == {
        "notes": notes_service.RESOURCE_TYPE,
        "clients": clients_service.RESOURCE_TYPE,
        "appointments": appointments_service.RESOURCE_TYPE,
    }


def test_a_route_whose_answer_carries_encrypted_fields_declares_the_disclosure(
    app: FastAPI,
) -> None:
    disclosing = set()
    for method, path, route in api_routes(app):
        operation = operation_of(route.endpoint)
        assert operation is not None
        if path.startswith("/fhir/"):
            continue  # FHIR JSON has no response model: tests/api/test_fhir_permissions.py
        carried = phi_in_response_model(route)
        declared = set(operation.discloses) | set(operation.discloses_if_readable)
        assert declared == carried, (method, path, carried)
        assert not set(operation.discloses) & set(operation.discloses_if_readable)
        if carried:
            disclosing.add((method, path))
    # The walk below exercises each of them.
    assert disclosing == set(WALK), "add the route to WALK (or drop it from there)"


def test_an_undeclared_route_is_closed_to_tokens() -> None:
    async def undeclared() -> None:
        return None

    request = Request({"type": "http", "route": APIRoute("/x", undeclared), "headers": []})
    with pytest.raises(ApiError) as refused:
        _check_token_scope(request, list(EVERY_SCOPE))
    assert (refused.value.status_code, refused.value.code) == (403, "login_session_required")


# --- write-only tokens read no PHI (the attempts) -------------------------------------

MARK = {"clients": "zqclientmark", "appointments": "zqappointmentmark", "notes": "zqnotemark"}


def client_body(**fields: Any) -> dict[str, Any]:
    mark = MARK["clients"]
    return {
        "first_name": f"Mara {mark}",
        "last_name": "Example",
        "address": f"1 {mark} Street",
        "medical_history": f"History {mark}",
        "notes": f"Notes {mark}",
        **fields,
    }


def appointment_body(client_id: str, hour: int, **fields: Any) -> dict[str, Any]:
    return {
        "client_id": client_id,
        "starts_at": f"2026-03-02T{hour:02d}:00:00Z",
        "ends_at": f"2026-03-02T{hour:02d}:50:00Z",
        "location": f"Room {MARK['appointments']}",
        "notes": f"Bring {MARK['appointments']}",
        **fields,
    }


def note_body(client_id: str) -> dict[str, Any]:
    return {
        "client_id": client_id,
        "session_date": "2025-01-15",
        "subjective": f"Reports {MARK['notes']}",
        "plan": f"Plan {MARK['notes']}",
    }


def carries_phi(response: httpx.Response) -> set[str]:
    return {resource for resource, mark in MARK.items() if mark in response.text}


def scopes_without(*missing: str) -> tuple[str, ...]:
    return tuple(scope for scope in EVERY_SCOPE if scope not in missing)


async def test_write_scopes_never_answer_with_phi(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.with_token(owner) as (full, _):
        person = (await full.post("/clients", json=client_body())).json()
        booked = (await full.post("/appointments", json=appointment_body(person["id"], 9))).json()
        note = (await full.post("/sessions", json=note_body(person["id"]))).json()
    writes_only = scopes_without("notes:read", "clients:read", "appointments:read")
    async with api.with_token(owner, writes_only) as (token, _):
        attempts = {
            # restore of a note that was never deleted answered with the whole note
            "notes:read": [await token.post(f"/sessions/{note['id']}/restore")],
            # clients:write read any client the same ways
            "clients:read": [
                await token.post(f"/clients/{person['id']}/restore"),
                await token.patch(f"/clients/{person['id']}", json={"phone": "+1 555 010 4477"}),
            ],
            # appointments:write learned ids from a conflict and read them with a PATCH
            "appointments:read": [
                await token.post("/appointments", json=appointment_body(person["id"], 9)),
                await token.patch(f"/appointments/{booked['id']}", json={"status": "scheduled"}),
            ],
        }
        for needed, answers in attempts.items():
            for answer in answers:
                assert answer.status_code == 403, answer.text
                assert error_of(answer)["code"] == "insufficient_scope"
                assert error_of(answer)["details"]["required_scope"] == needed
                assert carries_phi(answer) == set()
                assert "conflicting_ids" not in answer.text
        # Changes that answer without PHI still work with write alone.
        assert (await token.delete(f"/appointments/{booked['id']}")).status_code == 204
        assert (await token.delete(f"/sessions/{note['id']}")).status_code == 204
    # Nothing was changed or disclosed by the refused attempts.
    reads = await sql(
        api,
        "SELECT action FROM audit_events WHERE actor_token_id IS NOT NULL AND action IN "
        "('client.update', 'client.restore', 'session.restore', 'appointment.update')",
    )
    assert reads == []


async def test_token_scopes_are_limited_to_the_role(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.signed_in(clinician) as session:
        for scope in ("audit:read", "system:read"):
            refused = await session.post("/auth/tokens", json={"name": "x", "scopes": [scope]})
            assert refused.status_code == 422, refused.text
            assert scope in error_of(refused)["message"]
        allowed = await session.post("/auth/tokens", json={"name": "x", "scopes": ["notes:read"]})
        assert allowed.status_code == 201
    async with api.signed_in(owner) as session:
        owners = {"name": "x", "scopes": ["audit:read", "system:read"]}
        assert (await session.post("/auth/tokens", json=owners)).status_code == 201
    assert len(await sql(api, "SELECT 1 FROM api_tokens")) == 2


async def test_an_owner_token_with_system_read_reads_the_readiness_report(
    api: ApiContext,
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.with_token(owner, ("system:read",)) as (token, _):
        report = await token.get("/system/readiness")
        assert report.status_code == 200, report.text
        assert report.json()["status"] in ("ready", "degraded")
        assert "key_ring" in report.json()
    async with api.with_token(owner, ("clients:read",)) as (token, _):
        refused = await token.get("/system/readiness")
    assert refused.status_code == 403
    assert error_of(refused)["details"]["required_scope"] == "system:read"


# --- every disclosure is audited, replays included ----------------------------------------------


@dataclass
class Walk:
    """What the walk has created, for the requests that need ids."""

    client_id: str = ""
    appointment_id: str = ""
    note_id: str = ""
    finalized_id: str = ""
    awaiting_id: str = ""  # a trainee's signed note, awaiting a co-signature
    versions: dict[str, int] = field(default_factory=dict)


Call = Callable[[httpx.AsyncClient, Walk], Awaitable[httpx.Response]]


async def _create_client(http: httpx.AsyncClient, walk: Walk) -> httpx.Response:
    return await http.post("/clients", json=client_body(), headers={"Idempotency-Key": "c1"})


async def _create_appointment(http: httpx.AsyncClient, walk: Walk) -> httpx.Response:
    # allow_overlap: the walk books it again with a token of other scopes.
    body = appointment_body(walk.client_id, 10, allow_overlap=True)
    return await http.post("/appointments", json=body, headers={"Idempotency-Key": "a1"})


async def _create_series(http: httpx.AsyncClient, walk: Walk) -> httpx.Response:
    body = appointment_body(walk.client_id, 12, allow_overlap=True, recurrence={"count": 2})
    return await http.post("/appointments/series", json=body, headers={"Idempotency-Key": "s1"})


async def _create_note(http: httpx.AsyncClient, walk: Walk) -> httpx.Response:
    body = note_body(walk.client_id)
    return await http.post("/sessions", json=body, headers={"Idempotency-Key": "n1"})


async def _finalize(http: httpx.AsyncClient, walk: Walk) -> httpx.Response:
    version = walk.versions[walk.finalized_id]
    return await http.post(
        f"/sessions/{walk.finalized_id}/finalize",
        json={"version": version, "attestation_version": 1},
    )


async def _cosign(http: httpx.AsyncClient, walk: Walk) -> httpx.Response:
    version = walk.versions[walk.awaiting_id]
    return await http.post(
        f"/sessions/{walk.awaiting_id}/cosign", json={"version": version, "attestation_version": 1}
    )


async def _versions(http: httpx.AsyncClient, walk: Walk) -> httpx.Response:
    return await http.get(f"/sessions/{walk.finalized_id}/versions")


WEEK = {"start": "2026-03-01T00:00:00Z", "end": "2026-03-08T00:00:00Z"}

# Every route whose answer carries PHI, and a request to it, in the order the walk takes
# (finalize before the amendment, the amendment before the versions it leaves).
WALK: dict[tuple[str, str], Call] = {
    ("POST", "/api/v1/clients"): _create_client,
    ("GET", "/api/v1/clients"): lambda http, walk: http.get("/clients"),
    ("POST", "/api/v1/clients/search"): lambda http, walk: http.post(
        "/clients/search", json={"q": "Mara"}
    ),
    ("GET", "/api/v1/clients/{client_id}"): lambda http, walk: http.get(
        f"/clients/{walk.client_id}"
    ),
    ("PATCH", "/api/v1/clients/{client_id}"): lambda http, walk: http.patch(
        f"/clients/{walk.client_id}", json={"last_name": "Changed"}
    ),
    ("POST", "/api/v1/clients/{client_id}/restore"): lambda http, walk: http.post(
        f"/clients/{walk.client_id}/restore"
    ),
    ("POST", "/api/v1/appointments"): _create_appointment,
    ("POST", "/api/v1/appointments/series"): _create_series,
    ("GET", "/api/v1/appointments"): lambda http, walk: http.get("/appointments", params=WEEK),
    ("GET", "/api/v1/appointments/{appointment_id}"): lambda http, walk: http.get(
        f"/appointments/{walk.appointment_id}"
    ),
    ("PATCH", "/api/v1/appointments/{appointment_id}"): lambda http, walk: http.patch(
        f"/appointments/{walk.appointment_id}", json={"status": "scheduled"}
    ),
    ("POST", "/api/v1/sessions"): _create_note,
    ("GET", "/api/v1/sessions"): lambda http, walk: http.get("/sessions"),
    ("GET", "/api/v1/sessions/{note_id}"): lambda http, walk: http.get(f"/sessions/{walk.note_id}"),
    ("POST", "/api/v1/sessions/{note_id}/finalize"): _finalize,
    ("GET", "/api/v1/sessions/awaiting-cosign"): lambda http, walk: http.get(
        "/sessions/awaiting-cosign"
    ),
    ("POST", "/api/v1/sessions/{note_id}/cosign"): _cosign,
    ("PATCH", "/api/v1/sessions/{note_id}"): lambda http, walk: http.patch(
        f"/sessions/{walk.finalized_id}",
        json={
            "version": walk.versions[walk.finalized_id],
            "objective": "amended",
            "reason": "Example reason.",
        },
    ),
    ("GET", "/api/v1/sessions/{note_id}/versions"): _versions,
    ("POST", "/api/v1/sessions/{note_id}/restore"): lambda http, walk: http.post(
        f"/sessions/{walk.note_id}/restore"
    ),
    ("PUT", "/api/v1/clients/external/{external_id}"): lambda http, walk: http.put(
        "/clients/external/walk-client", json=client_body()
    ),
    ("PUT", "/api/v1/appointments/external/{external_id}"): lambda http, walk: http.put(
        "/appointments/external/walk-appointment",
        json=appointment_body(walk.client_id, 15, allow_overlap=True),
    ),
    ("POST", "/api/v1/clients/batch-get"): lambda http, walk: http.post(
        "/clients/batch-get", json={"ids": [walk.client_id]}
    ),
    ("POST", "/api/v1/appointments/batch-get"): lambda http, walk: http.post(
        "/appointments/batch-get", json={"ids": [walk.appointment_id]}
    ),
    ("POST", "/api/v1/sessions/batch-get"): lambda http, walk: http.post(
        "/sessions/batch-get", json={"ids": [walk.note_id]}
    ),
}


async def create_and_sign(http: httpx.AsyncClient, client_id: str) -> dict[str, Any]:
    draft = (await http.post("/sessions", json=note_body(client_id))).json()
    signed = await http.post(
        f"/sessions/{draft['id']}/finalize",
        json={"version": draft["version"], "attestation_version": 1},
    )
    assert signed.status_code == 200, signed.text
    answer: dict[str, Any] = signed.json()
    return answer


def returned_records(body: Any, nested: str | None = None) -> set[str]:
    """Ids of the records an answer holds (a version names its note), or of the `nested`
    objects they carry (an appointment's `client`)."""
    items = body["items"] if isinstance(body, dict) and "items" in body else body
    items = items if isinstance(items, list) else [items]
    if nested is not None:
        return {str(item[nested]["id"]) for item in items if item.get(nested)}
    return {str(item.get("note_id") or item["id"]) for item in items}


async def audited_records(api: ApiContext, response: httpx.Response) -> dict[str, set[str]]:
    """Record ids named by the audit events of the request that gave `response`, by type."""
    rows = await sql(
        api,
        "SELECT resource_type, resource_ids FROM audit_events WHERE details->>'request_id' = $1",
        response.headers["X-Request-ID"],
    )
    named: dict[str, set[str]] = {}
    for row in rows:
        named.setdefault(row["resource_type"], set()).update(
            str(i) for i in row["resource_ids"] or ()
        )
    return named


async def test_every_route_that_answers_with_phi_audits_the_records_and_needs_read(
    app: FastAPI, api: ApiContext
) -> None:
    declared = {(m, p): operation_of(r.endpoint) for m, p, r in api_routes(app)}
    space, (owner, trainee) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    await sql(api, "UPDATE users SET requires_cosign = true WHERE email = $1", trainee)
    walk = Walk()
    async with api.with_token(trainee) as (http, _):
        # A trainee's signed note, for the co-signature list and the co-signature.
        theirs = (await http.post("/clients", json=client_body(first_name="Third"))).json()
        signed = await create_and_sign(http, theirs["id"])
        assert signed["cosign_status"] == "awaiting"
        walk.awaiting_id, walk.versions[signed["id"]] = signed["id"], signed["version"]
    async with api.with_token(owner) as (http, _):
        # A second note, to finalize and amend; a client named apart, for the search.
        other = (await http.post("/clients", json=client_body(first_name="Other"))).json()
        draft = (await http.post("/sessions", json=note_body(other["id"]))).json()
        walk.finalized_id, walk.versions[draft["id"]] = draft["id"], draft["version"]
        for route in WALK:
            operation = declared[route]
            assert operation is not None and operation.discloses, route
            (resource,) = operation.discloses
            answer = await WALK[route](http, walk)
            assert answer.status_code in (200, 201), (route, answer.text)
            assert carries_phi(answer) == {resource, *operation.discloses_if_readable}, route
            body = answer.json()
            if isinstance(body, dict) and "version" in body:
                walk.versions[body["id"]] = body["version"]
            if route == ("POST", "/api/v1/clients"):
                walk.client_id = body["id"]
            elif route == ("POST", "/api/v1/appointments"):
                walk.appointment_id = body["id"]
            elif route == ("POST", "/api/v1/sessions"):
                walk.note_id = body["id"]
            records = returned_records(body)
            assert records
            audited = await audited_records(api, answer)
            assert records <= audited.get(PHI_RESOURCES[resource], set()), route
            for inner in operation.discloses_if_readable:
                carried = returned_records(body, PHI_RESOURCES[inner])
                assert carried and carried <= audited[PHI_RESOURCES[inner]], (route, inner)
            if "Idempotency-Key" in answer.request.headers:
                # The replay answers the same and is audited like a read of the same records.
                again = await WALK[route](http, walk)
                assert again.headers["Idempotent-Replayed"] == "true"
                assert again.json() == body
                replay_events = await sql(
                    api,
                    "SELECT action, resource_ids, details FROM audit_events "
                    "WHERE details->>'request_id' = $1 AND resource_type <> 'api_token'",
                    again.headers["X-Request-ID"],
                )
                # One event per disclosure, in whichever order they were written.
                replayed = {e["action"]: {str(i) for i in e["resource_ids"]} for e in replay_events}
                assert len(replayed) == len(replay_events), route
                assert replayed == {f"{PHI_RESOURCES[resource]}.read": records} | {
                    f"{PHI_RESOURCES[inner]}.names": returned_records(body, PHI_RESOURCES[inner])
                    for inner in operation.discloses_if_readable
                }, route
                assert all(
                    json.loads(event["details"])["idempotent_replay"] is True
                    for event in replay_events
                )
    # And none of them answers a token without the resource's read scope.
    for route in WALK:
        (resource,) = declared[route].discloses  # type: ignore[union-attr]
        async with api.with_token(owner, scopes_without(f"{resource}:read")) as (http, _):
            answer = await WALK[route](http, walk)
        assert answer.status_code == 403, (route, answer.text)
        assert error_of(answer)["details"]["required_scope"] == f"{resource}:read"
        assert carries_phi(answer) == set()
    # Without the read scope of what the records carry only when readable, the answer comes
    # without it, and no event says it was disclosed.
    optional = [route for route in WALK if declared[route].discloses_if_readable]  # type: ignore[union-attr]
    assert optional
    for route in optional:
        operation = declared[route]
        assert operation is not None
        (resource,) = operation.discloses
        for inner in operation.discloses_if_readable:
            async with api.with_token(owner, scopes_without(f"{inner}:read")) as (http, _):
                answer = await WALK[route](http, walk)
            assert answer.status_code in (200, 201), (route, answer.text)
            assert carries_phi(answer) == {resource}, route
            assert returned_records(answer.json(), PHI_RESOURCES[inner]) == set()
            assert PHI_RESOURCES[inner] not in await audited_records(api, answer), route
    assert space.id is not None


async def test_a_replay_after_the_client_changed_and_was_archived_is_audited(
    api: ApiContext,
) -> None:
    """The issue's attempt: the replay still answers with the first response (Stripe's rule),
    and now writes the event a read of that client writes."""
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    headers = {"Idempotency-Key": "client-create-1"}
    async with api.with_token(owner) as (http, token_id):
        first = await http.post("/clients", json=client_body(), headers=headers)
        client_id = first.json()["id"]
        assert (await http.patch(f"/clients/{client_id}", json={"address": "moved"})).is_success
        assert (await http.delete(f"/clients/{client_id}")).status_code == 204
        replayed = await http.post("/clients", json=client_body(), headers=headers)
    assert replayed.status_code == 201 and replayed.json() == first.json()
    events = await sql(
        api,
        "SELECT action, resource_type, resource_ids, actor_token_id, details "
        "FROM audit_events WHERE details->>'request_id' = $1 AND resource_type <> 'api_token'",
        replayed.headers["X-Request-ID"],
    )
    assert len(events) == 1
    assert (events[0]["action"], events[0]["resource_type"]) == ("client.read", "client")
    assert [str(i) for i in events[0]["resource_ids"]] == [client_id]
    assert str(events[0]["actor_token_id"]) == token_id
    assert json.loads(events[0]["details"])["idempotent_replay"] is True
    assert uuid.UUID(client_id)
