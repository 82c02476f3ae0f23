"""Bulk export of a practice (issue 26, FHIR Bulk Data): the async kick-off, polling, the
manifest, files that validate and are sealed at rest, owners only, cancel, and a job that
resumes after its worker stopped without rewriting what it had finished."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fhir.resources.R4B import get_fhir_model_class

from carevault.auth.models import Role
from carevault.exports import bulk, jobs
from tests.support.db import sql
from tests.support.fhir import outcome_code
from tests.support.http import ApiContext

NAME = "Zqbulkname"
ASYNC = {"Prefer": "respond-async"}


def fhir_client(http: httpx.AsyncClient) -> httpx.AsyncClient:
    """The same credentials, at the server's root (the bulk routes are under /fhir/R4)."""
    return httpx.AsyncClient(
        transport=http._transport,
        base_url="http://testserver",
        headers=http.headers,
        cookies=http.cookies,
    )


async def practice(api: ApiContext, clients: int = 3) -> tuple[str, str]:
    """An owner and a clinician; `clients` clients, one with a signed, amended note and a
    psychotherapy note."""
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.signed_in(owner) as http:
        ids = []
        for index in range(clients):
            made = await http.post(
                "/clients", json={"first_name": f"{NAME}{index}", "last_name": "Example"}
            )
            assert made.status_code == 201, made.text
            ids.append(made.json()["id"])
        note = await http.post(
            "/sessions",
            json={"client_id": ids[0], "session_date": "2025-01-15", "plan": "Plan one"},
        )
        signed = await http.post(
            f"/sessions/{note.json()['id']}/finalize", json={"version": 1, "attestation_version": 1}
        )
        assert signed.status_code == 200, signed.text
        amended = await http.patch(
            f"/sessions/{note.json()['id']}",
            json={"version": 2, "plan": "Plan two", "reason": "Typo."},
        )
        assert amended.status_code == 200, amended.text
        psychotherapy = await http.post(
            "/sessions",
            json={
                "client_id": ids[0],
                "session_date": "2025-01-16",
                "subjective": "Process notes",
                "psychotherapy_note": True,
            },
        )
        assert psychotherapy.status_code == 201, psychotherapy.text
    return owner, clinician


async def until_complete(
    http: httpx.AsyncClient, status_url: str, headers: dict[str, str] | None = None
) -> httpx.Response:
    for _ in range(400):
        answer = await http.get(status_url, headers=headers)
        if answer.status_code != 202:
            return answer
        assert answer.headers["X-Progress"]
        await asyncio.sleep(0.05)
    raise AssertionError("the export did not complete")


async def download(http: httpx.AsyncClient, manifest: dict[str, Any]) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for output in manifest["output"]:
        answer = await http.get(output["url"])
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"].startswith("application/fhir+ndjson")
        lines = [json.loads(line) for line in answer.text.splitlines()]
        assert len(lines) == output["count"]
        found.setdefault(output["type"], []).extend(lines)
    return found


async def test_a_bulk_export_runs_polls_and_downloads_valid_sealed_files(
    api: ApiContext,
) -> None:
    owner, _ = await practice(api)
    async with api.with_token(owner) as (token, _), fhir_client(token) as http:
        refused = await http.get("/fhir/R4/$export")
        assert refused.status_code == 400
        assert outcome_code(refused) == "respond_async_required"
        unknown = await http.get("/fhir/R4/$export", params={"_type": "Observation"}, headers=ASYNC)
        assert unknown.status_code == 422
        started = await http.get("/fhir/R4/$export", headers=ASYNC)
        assert started.status_code == 202, started.text
        status_url = started.headers["Content-Location"]
        assert status_url.startswith("http://testserver/fhir/R4/$export-status/")
        again = await http.get("/fhir/R4/$export", headers=ASYNC)
        assert again.status_code == 409 and outcome_code(again) == "export_in_progress"
        done = await until_complete(http, status_url)
        assert done.status_code == 200, done.text
        manifest = done.json()
        assert manifest["requiresAccessToken"] is True
        records = await download(http, manifest)
    assert [len(records[t]) for t in ("Organization", "Practitioner", "Patient")] == [1, 2, 3]
    assert len(records["Encounter"]) == 2 and len(records["Provenance"]) == 1
    # The signed note as it was and as it is, and the psychotherapy note, labelled.
    assert len(records["DocumentReference"]) == 3
    labelled = [
        r
        for r in records["DocumentReference"]
        if r["meta"].get("security", [{}])[0].get("code") == "PSYTHPN"
    ]
    assert len(labelled) == 1
    for kind, resources in records.items():
        model = get_fhir_model_class(kind)
        for resource in resources:
            model.model_validate(resource)
    # At rest, the files are sealed: no name in them.
    job_id = status_url.rsplit("/", 1)[1]
    directory = Path(api.settings.resolved_export_dir) / job_id
    stored = list(directory.iterdir())
    assert stored and all(NAME.encode() not in path.read_bytes() for path in stored)
    actions = [
        row["action"]
        for row in await sql(
            api, "SELECT action FROM audit_events WHERE action LIKE 'export.%' ORDER BY id"
        )
    ]
    assert actions[0] == "export.start"
    assert actions.count("export.download") == len(manifest["output"])


async def test_only_owners_export_the_practice(api: ApiContext) -> None:
    _, clinician = await practice(api, clients=1)
    async with api.signed_in(clinician) as session, fhir_client(session) as http:
        refused = await http.get("/fhir/R4/$export", headers=ASYNC)
    assert refused.status_code == 403
    assert outcome_code(refused) == "owner_required"
    assert await sql(api, "SELECT 1 FROM export_jobs") == []


async def test_a_cancelled_export_is_gone_with_its_files(api: ApiContext) -> None:
    owner, _ = await practice(api, clients=1)
    async with api.signed_in(owner) as session, fhir_client(session) as http:
        started = await http.get("/fhir/R4/$export", headers=ASYNC)
        status_url = started.headers["Content-Location"]
        done = await until_complete(http, status_url)
        file_url = done.json()["output"][0]["url"]
        cancelled = await http.delete(status_url)
        assert cancelled.status_code == 202
        assert (await http.get(status_url)).status_code == 404
        assert (await http.get(file_url)).status_code == 404
    job_id = status_url.rsplit("/", 1)[1]
    assert not (Path(api.settings.resolved_export_dir) / job_id).exists()
    assert await sql(api, "SELECT 1 FROM export_files") == []


async def test_an_export_whose_worker_stopped_resumes_after_its_last_file(
    api: ApiContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner, _ = await practice(api, clients=5)
    monkeypatch.setattr(bulk, "PART_RECORDS", 2)
    monkeypatch.setattr(bulk, "PAGE_ROWS", 1)
    recorded = jobs.JobStore.record
    calls = 0

    async def crash_after_two(self: jobs.JobStore, part: bulk.Part) -> bool:
        nonlocal calls
        calls += 1
        if calls > 3:  # Organization, Practitioner, then one Patient part
            raise asyncio.CancelledError  # the process stops: nothing records the failure
        return await recorded(self, part)

    monkeypatch.setattr(jobs.JobStore, "record", crash_after_two)
    async with api.signed_in(owner) as session, fhir_client(session) as http:
        started = await http.get("/fhir/R4/$export", headers=ASYNC)
        status_url = started.headers["Content-Location"]
        for _ in range(200):
            if calls > 3 and not jobs._RUNNING:
                break
            await asyncio.sleep(0.02)
        (job,) = await sql(api, "SELECT status FROM export_jobs")
        assert job["status"] == "running"
        before = await sql(api, "SELECT id, resource_type, part FROM export_files ORDER BY 2, 3")
        assert [(r["resource_type"], r["part"]) for r in before] == [
            ("Organization", 1),
            ("Patient", 1),
            ("Practitioner", 1),
        ]
        monkeypatch.setattr(jobs.JobStore, "record", recorded)
        # Still leased: a poll leaves it to its (gone) worker; once the lease lapsed, resumed.
        assert (await http.get(status_url)).status_code == 202
        await sql(api, "UPDATE export_jobs SET lease_until = now() - interval '1 second'")
        done = await until_complete(http, status_url)
        assert done.status_code == 200, done.text
        records = await download(http, done.json())
    after = await sql(api, "SELECT id, resource_type, part FROM export_files ORDER BY 2, 3")
    assert {r["id"] for r in before} <= {r["id"] for r in after}  # not rewritten
    patients = [r["id"] for r in records["Patient"]]
    assert len(patients) == len(set(patients)) == 5
    assert [
        o["url"].rsplit("/", 1)[1] for o in done.json()["output"] if o["type"] == "Patient"
    ] == [
        "1",
        "2",
        "3",
    ]


async def test_an_export_past_its_retention_is_deleted_with_its_files(api: ApiContext) -> None:
    owner, _ = await practice(api, clients=1)
    async with api.signed_in(owner) as session, fhir_client(session) as http:
        first = await http.get("/fhir/R4/$export", headers=ASYNC)
        first_url = first.headers["Content-Location"]
        done = await until_complete(http, first_url)
        assert done.status_code == 200 and "Expires" in done.headers
        old_dir = Path(api.settings.resolved_export_dir) / first_url.rsplit("/", 1)[1]
        assert old_dir.exists()
        await sql(api, "UPDATE export_jobs SET expires_at = now() - interval '1 second'")
        second = await http.get("/fhir/R4/$export", headers=ASYNC)
        assert second.status_code == 202, second.text
        assert (await http.get(first_url)).status_code == 404
        assert (await until_complete(http, second.headers["Content-Location"])).status_code == 200
    assert not old_dir.exists()
    assert len(await sql(api, "SELECT 1 FROM export_jobs")) == 1


async def test_a_service_account_with_system_scopes_exports_the_practice(
    api: ApiContext,
) -> None:
    """SMART Backend Services' bulk export: a service account holding `system/*.rs` runs it;
    one whose SMART scopes do not read every exported type is refused (403 naming the
    type), unless `_type` keeps to what it may read."""
    owner, _ = await practice(api, clients=2)
    async with api.signed_in(owner) as session:
        tokens = {}
        for label, scopes in (
            ("all", ["system/*.rs"]),
            ("narrow", ["notes:read", "appointments:read", "system/Patient.rs"]),
        ):
            account = await session.post(
                "/service-accounts", json={"name": label, "scopes": scopes}
            )
            assert account.status_code == 201, account.text
            issued = await session.post(
                f"/service-accounts/{account.json()['id']}/tokens", json={"name": "bulk"}
            )
            assert issued.status_code == 201, issued.text
            tokens[label] = issued.json()["token"]
    async with api.client() as base, fhir_client(base) as http:
        narrow = {"Authorization": f"Bearer {tokens['narrow']}"}
        refused = await http.get("/fhir/R4/$export", headers=ASYNC | narrow)
        assert refused.status_code == 403 and outcome_code(refused) == "insufficient_scope"
        assert "system/Organization.r" in refused.text
        assert await sql(api, "SELECT 1 FROM export_jobs") == []
        patients = await http.get(
            "/fhir/R4/$export", params={"_type": "Patient"}, headers=ASYNC | narrow
        )
        assert patients.status_code == 202, patients.text
        done = await until_complete(http, patients.headers["Content-Location"], narrow)
        assert done.status_code == 200, done.text
        assert [o["type"] for o in done.json()["output"]] == ["Patient"]
        everything = {"Authorization": f"Bearer {tokens['all']}"}
        started = await http.get("/fhir/R4/$export", headers=ASYNC | everything)
        assert started.status_code == 202, started.text
        finished = await until_complete(http, started.headers["Content-Location"], everything)
        assert finished.status_code == 200, finished.text
        assert {"Patient", "DocumentReference"} <= {o["type"] for o in finished.json()["output"]}
