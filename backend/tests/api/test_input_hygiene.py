"""Input hygiene at the edge: control characters refused (422, naming the field) wherever
text is not free clinical text, emails checked by email-validator, NUL never a 500."""

from __future__ import annotations

import pytest

from carevault.auth.models import Role
from tests.support.http import ApiContext, fields_named
from tests.support.notes import create_note, practice

NUL = "\u0000"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("first_name", f"Jane{NUL}"),
        ("last_name", "Doe\u0007"),
        ("email", f"jane{NUL}@example.org"),
        ("email", "jane@example"),  # the old regex let this through
        ("email", "jane doe@example.org"),
        ("phone", "+1 555\u001b0100"),
        ("emergency_contact_phone", f"555{NUL}"),
        ("address", f"1 Example Street{NUL}"),
        ("medical_history", "history\u0008"),
    ],
)
async def test_client_fields_refuse_control_characters_and_bad_emails(
    api: ApiContext, field: str, value: str
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    body = {"first_name": "Example", "last_name": "Client", field: value}
    async with api.signed_in(owner) as client:
        created = await client.post("/clients", json=body)
        patched_body = {field: value}
        existing = await client.post("/clients", json={"first_name": "A", "last_name": "B"})
        patched = await client.patch(f"/clients/{existing.json()['id']}", json=patched_body)
    assert fields_named(created) == {f"body.{field}"}
    assert fields_named(patched) == {f"body.{field}"}


async def test_free_text_keeps_line_breaks_and_tabs_and_addresses_keep_line_breaks(
    api: ApiContext,
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    text = "line one\n\tline two\r\nline three"
    address = "1 Example Street\r\nFlat 2\nExample Town"
    name = "\u0646\u0627\u0645\u200c\u0647\u0627"  # Persian: spelled with a non-joiner
    async with api.signed_in(owner) as client:
        created = await client.post(
            "/clients",
            json={
                "first_name": name,
                "last_name": "Client",
                "email": "example.client@example.org",
                "address": address,
                "emergency_contact_name": "Émile O'Brien-Zoë",
                "notes": text,
            },
        )
    assert created.status_code == 201, created.text
    assert created.json()["notes"] == text and created.json()["address"] == address
    assert created.json()["first_name"] == name


# Control and invisible characters a single-line field must refuse: C1 controls (NEL, CSI),
# tab and line breaks, bidi override, line separator, zero-width space, BOM.
_NOT_ONE_LINE = ["\x85", "\x9b", "\t", "\n", "\r", "\u202e", "\u2028", "\u200b", "\ufeff"]


@pytest.mark.parametrize("bad", _NOT_ONE_LINE)
@pytest.mark.parametrize("field", ["first_name", "last_name", "emergency_contact_name"])
async def test_names_are_one_line_without_control_or_invisible_characters(
    api: ApiContext, field: str, bad: str
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    body = {"first_name": "Example", "last_name": "Client", field: f"Ann{bad}Lee"}
    async with api.signed_in(owner) as client:
        created = await client.post("/clients", json=body)
    assert fields_named(created) == {f"body.{field}"}


@pytest.mark.parametrize("bad", ["\x85", "\x9b", "\t", "\x0b", "\u202e", "\u2028", "\u200b"])
async def test_addresses_refuse_control_characters_other_than_line_breaks(
    api: ApiContext, bad: str
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    body = {"first_name": "Example", "last_name": "Client", "address": f"1 Example{bad}Street"}
    async with api.signed_in(owner) as client:
        created = await client.post("/clients", json=body)
    assert fields_named(created) == {"body.address"}


@pytest.mark.parametrize("bad", ["\x85", "\x9b", "\t", "\n", "\u202e", "\u2028", "\u200b"])
async def test_appointment_location_is_one_line(api: ApiContext, bad: str) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        moved = await client.patch(
            f"/appointments/{place.appointment_id}", json={"location": f"Room{bad}4"}
        )
        fine = await client.patch(
            f"/appointments/{place.appointment_id}", json={"location": "Room 4, 2nd floor"}
        )
    assert fields_named(moved) == {"body.location"}
    assert fine.status_code == 200, fine.text


async def test_import_refuses_control_characters_in_names_and_addresses(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    csv = (
        "first_name,last_name,address,emergency_contact_name\n"
        'Example,Client,"1 Example Street\nExample Town",Ann Lee\n'
        "Other,Client,1 Example\u0085Street,\n"
        "Third,Client,,Ann\u202eLee\n"
        "Fourth\u200b,Client,,\n"
    )
    async with api.signed_in(owner) as client:
        response = await client.post(
            "/clients/import", content=csv.encode(), headers={"Content-Type": "text/csv"}
        )
    assert response.status_code == 422, response.text
    problems = {(d["line"], d["field"]) for d in response.json()["error"]["details"]}
    assert problems == {(4, "address"), (5, "emergency_contact_name"), (6, "first_name")}


async def test_soap_sections_and_appointment_text_refuse_nul(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0], plan="plan:\n\t- rest")
        bad_create = await client.post(
            "/sessions",
            json={
                "client_id": place.client_ids[0],
                "session_date": "2025-01-15",
                "subjective": f"reports{NUL}",
            },
        )
        bad_autosave = await client.patch(
            f"/sessions/{note['id']}", json={"version": note["version"], "plan": f"x{NUL}"}
        )
        bad_appointment = await client.patch(
            f"/appointments/{place.appointment_id}", json={"location": f"Room{NUL}"}
        )
    assert note["plan"] == "plan:\n\t- rest"
    assert fields_named(bad_create) == {"body.subjective"}
    assert fields_named(bad_autosave) == {"body.plan"}
    assert fields_named(bad_appointment) == {"body.location"}


async def test_account_fields_refuse_control_characters(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        token = await client.post(
            "/auth/tokens", json={"name": "export\njob", "scopes": ["notes:read"]}
        )
        display = await client.post(
            "/users",
            json={
                "email": "new.user@example.org",
                "display_name": f"New{NUL}",
                "password": "a long enough password",
            },
        )
        email = await client.post(
            "/users",
            json={"email": "new.user@@example.org", "password": "a long enough password"},
        )
    async with api.client() as anonymous:
        login = await anonymous.post(
            "/auth/login", json={"email": f"{owner}{NUL}", "password": "whatever"}
        )
    assert fields_named(token) == {"body.name"}
    assert fields_named(display) == {"body.display_name"}
    assert fields_named(email) == {"body.email"}
    assert fields_named(login) == {"body.email"}


@pytest.mark.parametrize(
    ("path", "parameter"),
    [
        ("/audit-events", "action"),
        ("/audit-events", "resource_type"),
        ("/audit-events", "resource_id"),
    ],
)
async def test_query_filters_refuse_nul_with_422_not_500(
    api: ApiContext, path: str, parameter: str
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        response = await client.get(path, params={parameter: f"client{NUL}read"})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["details"][0]["field"] == f"query.{parameter}"


async def test_a_search_term_with_nul_is_422_not_500(api: ApiContext) -> None:
    """Client search moved into a request body (POST /clients/search); the same rule holds."""
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        response = await client.post("/clients/search", json={"q": f"client{NUL}read"})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["details"][0]["field"] == "body.q"


async def test_import_refuses_control_characters_and_bad_emails(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    csv = (
        "first_name,last_name,email\n"
        "Example,Client,example.client@example.org\n"
        "Bad\u0007Name,Client,\n"
        "Other,Client,other@example\n"
    )
    async with api.signed_in(owner) as client:
        response = await client.post(
            "/clients/import", content=csv.encode(), headers={"Content-Type": "text/csv"}
        )
    assert response.status_code == 422, response.text
    problems = {(d["line"], d["field"]) for d in response.json()["error"]["details"]}
    assert problems == {(3, "first_name"), (4, "email")}
