"""A client's record exported for the client (issue 26, HIPAA right of access): every note
with each version and amendment, the signatures, psychotherapy notes left out and counted,
the care team's limits, an audit event, and a PDF that reads back."""

from __future__ import annotations

import base64
import io
import json
from dataclasses import dataclass
from typing import Any

import httpx
from fhir.resources.R4B.bundle import Bundle
from pypdf import PdfReader

from carevault.auth.models import Role
from tests.support.db import sql
from tests.support.fhir import audited_records, fhir_of, fhir_with_token, outcome_code
from tests.support.http import ApiContext, error_of

SECRET = "zqpsychotherapymark"


@dataclass
class Record:
    owner: str
    client_id: str
    signed_id: str
    draft_id: str
    psychotherapy_id: str
    appointment_id: str


async def _note(http: httpx.AsyncClient, client_id: str, **fields: Any) -> dict[str, Any]:
    made = await http.post(
        "/sessions", json={"client_id": client_id, "session_date": "2025-01-15", **fields}
    )
    assert made.status_code == 201, made.text
    created: dict[str, Any] = made.json()
    return created


async def record(api: ApiContext, owner: str) -> Record:
    """A client with an appointment, a signed note amended twice, a draft, and a
    psychotherapy note."""
    async with api.signed_in(owner) as http:
        person = await http.post(
            "/clients",
            json={"first_name": "Mara", "last_name": "Exportwell", "medical_history": "Asthma"},
        )
        assert person.status_code == 201, person.text
        client_id = person.json()["id"]
        booked = await http.post(
            "/appointments",
            json={
                "client_id": client_id,
                "starts_at": "2026-03-02T09:00:00Z",
                "ends_at": "2026-03-02T09:50:00Z",
            },
        )
        assert booked.status_code == 201, booked.text
        signed = await _note(http, client_id, subjective="First words", plan="Plan one")
        final = await http.post(
            f"/sessions/{signed['id']}/finalize", json={"version": 1, "attestation_version": 1}
        )
        assert final.status_code == 200, final.text
        for version, plan, reason in (
            (2, "Plan two", "Reason alpha"),
            (3, "Plan three", "Reason beta"),
        ):
            amended = await http.patch(
                f"/sessions/{signed['id']}",
                json={"version": version, "plan": plan, "reason": reason},
            )
            assert amended.status_code == 200, amended.text
        draft = await _note(http, client_id, assessment="Still a draft")
        psychotherapy = await _note(
            http, client_id, subjective=f"Process notes {SECRET}", psychotherapy_note=True
        )
        assert psychotherapy["psychotherapy_note"] is True
    return Record(
        owner, client_id, signed["id"], draft["id"], psychotherapy["id"], booked.json()["id"]
    )


def _pdf_text(content: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(content))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


async def test_the_pdf_holds_every_version_and_amendment_and_says_what_it_left_out(
    api: ApiContext,
) -> None:
    space, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    found = await record(api, owner)
    async with api.signed_in(owner) as http:
        answer = await http.get(f"/clients/{found.client_id}/export", params={"format": "pdf"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/pdf"
    disposition = answer.headers["content-disposition"]
    assert disposition == f'attachment; filename="record-{found.client_id}.pdf"'
    assert "Exportwell" not in disposition
    pages, text = _pdf_text(answer.content)
    assert pages >= 1
    for expected in (
        space.name,
        "Mara Exportwell",
        "Page 1",
        "Asthma",
        "Plan one",  # the signed version, replaced twice
        "Plan two",
        "Plan three",  # the current one
        "Reason alpha",
        "Reason beta",
        "Still a draft",
        "Signed by",
        "1 psychotherapy note is not included",
    ):
        assert expected in text, expected
    assert SECRET not in text


async def test_the_fhir_bundle_holds_every_version_signature_and_the_exclusion(
    api: ApiContext,
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    found = await record(api, owner)
    async with api.signed_in(owner) as http:
        answer = await http.get(f"/clients/{found.client_id}/export", params={"format": "fhir"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/fhir+json")
    assert answer.headers["content-disposition"].endswith(f'"record-{found.client_id}.json"')
    assert SECRET not in answer.text
    bundle = answer.json()
    assert bundle["resourceType"] == "Bundle" and bundle["type"] == "searchset"
    resources = [entry["resource"] for entry in bundle["entry"]]
    kinds = [resource["resourceType"] for resource in resources]
    assert kinds[0] == "Patient" and resources[0]["id"] == found.client_id
    assert kinds.count("Appointment") == 1
    assert kinds.count("Encounter") == 2  # the signed note and the draft
    assert kinds.count("Provenance") == 1  # the signature
    documents = [r for r in resources if r["resourceType"] == "DocumentReference"]
    signed = [d for d in documents if d["id"] == found.signed_id]
    # Signed at 2, amended twice: versions 2 and 3 as they were, then 4 as it is.
    assert [d["meta"]["versionId"] for d in signed] == ["2", "3", "4"]
    texts = [base64.b64decode(d["content"][0]["attachment"]["data"]).decode() for d in signed]
    assert ["Plan one" in texts[0], "Plan two" in texts[1], "Plan three" in texts[2]] == [True] * 3
    current = signed[-1]
    assert [r["code"] for r in current["relatesTo"]] == ["appends", "appends"]
    assert "Reason beta" in json.dumps(current["relatesTo"])
    (draft,) = [d for d in documents if d["id"] == found.draft_id]
    assert draft["docStatus"] == "preliminary"
    Bundle.model_validate(bundle)  # R4B models (fhir.resources, pinned)
    (outcome,) = [r for r in resources if r["resourceType"] == "OperationOutcome"]
    assert outcome["issue"][0]["diagnostics"].startswith("1 note left out")
    assert bundle["total"] == len(resources) - 1


async def test_a_clinician_outside_the_care_team_cannot_export(api: ApiContext) -> None:
    _, (owner, outsider) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    found = await record(api, owner)
    async with api.signed_in(owner) as http:
        changed = await http.patch("/workspace", json={"chart_access": "care_team"})
        assert changed.status_code == 200, changed.text
    async with api.signed_in(outsider) as http:
        for export_format in ("pdf", "fhir"):
            refused = await http.get(
                f"/clients/{found.client_id}/export", params={"format": export_format}
            )
            assert refused.status_code == 404, refused.text
            assert "Exportwell" not in refused.text
    assert await sql(api, "SELECT 1 FROM audit_events WHERE action = 'client.export'") == []


async def test_every_export_is_audited_with_what_it_disclosed(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    found = await record(api, owner)
    async with api.with_token(owner) as (http, token_id):
        answer = await http.get(f"/clients/{found.client_id}/export", params={"format": "fhir"})
    assert answer.status_code == 200, answer.text
    rows = await sql(
        api,
        "SELECT action, resource_ids, details, actor_token_id FROM audit_events "
        "WHERE details->>'request_id' = $1 AND action LIKE '%.export' ORDER BY action",
        answer.headers["X-Request-ID"],
    )
    by_action = {row["action"]: row for row in rows}
    assert set(by_action) == {"client.export", "session.export", "appointment.export"}
    client_event = by_action["client.export"]
    assert [str(i) for i in client_event["resource_ids"]] == [found.client_id]
    assert str(client_event["actor_token_id"]) == token_id
    details = json.loads(client_event["details"])
    assert details["format"] == "fhir"
    assert details["psychotherapy_notes_excluded"] == 1
    assert (details["notes"], details["versions"], details["appointments"]) == (2, 2, 1)
    notes = {str(i) for i in by_action["session.export"]["resource_ids"]}
    assert notes == {found.signed_id, found.draft_id}  # never the psychotherapy note
    assert "Exportwell" not in json.dumps([dict(row) for row in rows], default=str)


async def test_a_token_needs_every_read_scope_to_export(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    found = await record(api, owner)
    async with api.with_token(owner, ("clients:read", "appointments:read")) as (http, _):
        refused = await http.get(f"/clients/{found.client_id}/export")
    assert refused.status_code == 403
    assert error_of(refused)["details"]["required_scope"] == "notes:read"


async def test_marking_a_note_as_psychotherapy_is_audited_and_amends_a_signed_note(
    api: ApiContext,
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    found = await record(api, owner)
    async with api.signed_in(owner) as http:
        draft = await http.patch(
            f"/sessions/{found.draft_id}", json={"version": 1, "psychotherapy_note": True}
        )
        assert draft.status_code == 200, draft.text
        assert draft.json()["psychotherapy_note"] is True
        unsigned_mark = await http.patch(
            f"/sessions/{found.signed_id}", json={"version": 4, "psychotherapy_note": True}
        )
        assert unsigned_mark.status_code == 422
        assert error_of(unsigned_mark)["code"] == "reason_required"
        signed = await http.patch(
            f"/sessions/{found.signed_id}",
            json={"version": 4, "psychotherapy_note": True, "reason": "Process notes."},
        )
        assert signed.status_code == 200, signed.text
        assert signed.json()["psychotherapy_note"] is True
        assert (await http.get(f"/sessions/{found.signed_id}")).json()["psychotherapy_note"]
        refused_null = await http.patch(
            f"/sessions/{found.draft_id}", json={"version": 2, "psychotherapy_note": None}
        )
        assert refused_null.status_code == 422
        exported = await http.get(f"/clients/{found.client_id}/export", params={"format": "fhir"})
    assert [e["resource"]["resourceType"] for e in exported.json()["entry"]] == [
        "Patient",
        "Appointment",
        "OperationOutcome",
    ]
    assert "3 notes left out" in exported.text
    events = await sql(
        api,
        "SELECT action, details->>'psychotherapy_note' AS mark FROM audit_events "
        "WHERE action IN ('session.update', 'session.amend', 'session.create') "
        "AND details ? 'psychotherapy_note' ORDER BY id",
    )
    assert [(e["action"], e["mark"]) for e in events] == [
        ("session.create", "true"),
        ("session.update", "true"),
        ("session.amend", "true"),
    ]


async def test_patient_everything_is_the_same_record_with_the_same_rules(api: ApiContext) -> None:
    _, (owner, outsider) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    found = await record(api, owner)
    async with api.signed_in(owner) as http:
        changed = await http.patch("/workspace", json={"chart_access": "care_team"})
        assert changed.status_code == 200, changed.text
        exported = (await http.get(f"/clients/{found.client_id}/export?format=fhir")).json()
    scopes = ["clients:read", "notes:read", "appointments:read"]
    async with fhir_with_token(api, owner, scopes) as fhir:
        answer = await fhir.get(f"/Patient/{found.client_id}/$everything")
        assert answer.status_code == 200, answer.text
        bundle = fhir_of(answer)  # validated against the R4B models
        assert [e["fullUrl"] for e in bundle["entry"]] == [e["fullUrl"] for e in exported["entry"]]
        assert SECRET not in answer.text
        events = await audited_records(api, answer)
        assert events["client"] == {found.client_id}
        unknown = await fhir.get(f"/Patient/{found.client_id}/$everything", params={"_since": "x"})
        assert unknown.status_code == 400 and outcome_code(unknown) == "unknown_parameter"
    async with fhir_with_token(api, owner, ["user/Patient.rs", "user/Appointment.rs"]) as fhir:
        narrow = await fhir.get(f"/Patient/{found.client_id}/$everything")
        assert narrow.status_code == 403 and outcome_code(narrow) == "insufficient_scope"
    async with fhir_with_token(api, outsider, scopes) as fhir:
        hidden = await fhir.get(f"/Patient/{found.client_id}/$everything")
        assert hidden.status_code == 404 and outcome_code(hidden) == "not_found"
        assert "Exportwell" not in hidden.text
