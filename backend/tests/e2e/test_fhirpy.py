"""/fhir/R4 driven by an independent FHIR client library (fhirpy) against a real
`carevault serve`: read, search with paging, conditional update (If-Match), and the errors
it raises. Every resource fhirpy receives is validated against the R4B models too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fhirpy import SyncFHIRClient
from fhirpy.base.exceptions import ForbiddenError, MultipleResourcesFound, ResourceNotFound

from tests.support.db import PgServer
from tests.support.fhir import validated
from tests.support.live_server import LiveServer, live_server

EVERY = ["user/*.cruds", "audit:read"]


@pytest.fixture(scope="module")
def server(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    with live_server(
        pg_server,
        template_database,
        tmp_path_factory.mktemp("fhirpy-data"),
        tmp_path_factory.mktemp("fhirpy-logs"),
        label="fhirpy",
    ) as running:
        yield running


def client(server: LiveServer, token: str, **headers: str) -> SyncFHIRClient:
    return SyncFHIRClient(
        f"{server.base}/fhir/R4",
        authorization=f"Bearer {token}",
        extra_headers={"Accept": "application/fhir+json", **headers},
    )


def as_dict(resource: Any) -> dict[str, Any]:
    return validated(resource.serialize())


def test_read_search_with_paging_and_conditional_update(server: LiveServer) -> None:
    token = server.token(EVERY)
    fhir = client(server, token)
    created = []
    for index in range(7):
        patient = fhir.resource(
            "Patient",
            name=[{"family": f"Fhirpy{index}", "given": ["Grace"]}],
            birthDate=f"19{70 + index}-05-0{index + 1}",
        )
        patient.save()
        created.append(patient.id)
    read = fhir.reference("Patient", created[0]).to_resource()
    assert as_dict(read)["name"][0]["family"] == "Fhirpy0"
    # Paging: three pages of three, followed through the server's next links.
    everyone = fhir.resources("Patient").search(given="grace").limit(3).fetch_all()
    assert sorted(p.id for p in everyone) == sorted(created)
    first_page = fhir.resources("Patient").search(given="grace").limit(3).fetch_raw()
    assert first_page.total == 7 and len(first_page.entry) == 3
    by_family = fhir.resources("Patient").search(family="fhirpy3").fetch()
    assert [p.id for p in by_family] == [created[3]]
    # Conditional update: If-Match with the current version succeeds, a stale one is 412.
    version = read.meta.versionId
    body = {**as_dict(read), "birthDate": "1969-12-31"}
    conditional = client(server, token, **{"If-Match": f'W/"{version}"'})
    updated = conditional.resource("Patient", **body)
    updated.update()  # PUT Patient/{id} with If-Match
    assert updated.birthDate == "1969-12-31"
    assert updated.meta.versionId != version
    with pytest.raises(MultipleResourcesFound) as stale:  # fhirpy's exception for any 412
        conditional.resource("Patient", **body).update()
    assert "version_conflict" in str(stale.value)
    with pytest.raises(ResourceNotFound):
        fhir.reference("Patient", "00000000-0000-4000-8000-000000000000").to_resource()


def test_appointments_documents_and_smart_scope_limits(server: LiveServer) -> None:
    fhir = client(server, server.token(EVERY))
    patient = fhir.resource("Patient", name=[{"family": "Scoped", "given": ["Ida"]}])
    patient.save()
    booked = fhir.resource(
        "Appointment",
        status="booked",
        start="2026-04-06T09:00:00Z",
        end="2026-04-06T09:50:00Z",
        participant=[{"actor": {"reference": f"Patient/{patient.id}"}, "status": "accepted"}],
    )
    booked.save()
    found = (
        fhir.resources("Appointment")
        .search(patient=patient.id)
        .search(date__ge="2026-04-01", date__le="2026-04-30")  # fhirpy: date=ge…&date=le…
        .fetch()
    )
    assert [a.id for a in found] == [booked.id]
    assert as_dict(found[0])["participant"][0]["actor"]["display"] == "Ida Scoped"
    capability = fhir.execute("metadata", method="get")
    assert validated(dict(capability))["fhirVersion"] == "4.0.1"
    readonly = client(server, server.token(["user/Patient.rs"]))
    assert readonly.reference("Patient", patient.id).to_resource().id == patient.id
    with pytest.raises(ForbiddenError):
        readonly.resource("Patient", name=[{"family": "No", "given": ["Write"]}]).save()
    with pytest.raises(ForbiddenError):
        readonly.resources("Appointment").search(date__ge="2026-04-01").fetch()


def test_everything_and_identifiers_through_fhirpy(server: LiveServer) -> None:
    """`Patient/{id}/$everything` (the client's whole record as one Bundle) and a search by
    the integrator's external id, both as fhirpy sends them."""
    token = server.token(EVERY)
    fhir = client(server, token)
    external = "https://carevault.dev/fhir/identifier/external-id"
    patient = fhir.resource(
        "Patient",
        name=[{"family": "Everything", "given": ["Eve"]}],
        identifier=[{"system": external, "value": "ehr-everything-1"}],
    )
    patient.save()
    found = fhir.resources("Patient").search(identifier=f"{external}|ehr-everything-1").fetch()
    assert [p.id for p in found] == [patient.id]
    booked = fhir.resource(
        "Appointment",
        status="booked",
        start="2026-05-04T09:00:00Z",
        end="2026-05-04T09:50:00Z",
        participant=[{"actor": {"reference": f"Patient/{patient.id}"}, "status": "accepted"}],
    )
    booked.save()
    # A signed note (notes are written through /api/v1): a DocumentReference and Provenance.
    with httpx.Client(
        base_url=f"{server.base}/api/v1",
        headers={"Authorization": f"Bearer {token}"},
        timeout=15,
    ) as rest:
        note = rest.post(
            "/sessions",
            json={"client_id": patient.id, "session_date": "2026-05-04", "subjective": "Calm."},
        )
        assert note.status_code == 201, note.text
        signed = rest.post(
            f"/sessions/{note.json()['id']}/finalize",
            json={"version": note.json()["version"], "attestation_version": 1},
        )
        assert signed.status_code == 200, signed.text
    bundle = validated(dict(fhir.execute(f"Patient/{patient.id}/$everything", method="get")))
    assert bundle["resourceType"] == "Bundle"
    kinds = {entry["resource"]["resourceType"] for entry in bundle["entry"]}
    assert {"Patient", "Appointment", "DocumentReference", "Provenance"} <= kinds
    ids = {(e["resource"]["resourceType"], e["resource"]["id"]) for e in bundle["entry"]}
    assert ("Patient", patient.id) in ids and ("Appointment", booked.id) in ids
    assert ("DocumentReference", note.json()["id"]) in ids
    everything_patient = next(
        e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == "Patient"
    )
    assert {"use": "secondary", "system": external, "value": "ehr-everything-1"} in (
        everything_patient["identifier"]
    )
    with pytest.raises(ResourceNotFound):
        fhir.execute("Patient/00000000-0000-4000-8000-000000000000/$everything", method="get")
