"""/fhir/R4 fuzzed for 5xx (issue 26): the FHIR routes are outside the OpenAPI document
that test_schemathesis.py fuzzes, so hypothesis draws requests here instead: any resource
type, id, search parameter (known names with odd values, unknown names), prefix, cursor,
header and body, against a real `carevault serve`. Every answer is below 500, and every
error is an OperationOutcome that validates."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.db import PgServer
from tests.support.fhir import validated
from tests.support.live_server import LiveServer, live_server

TYPES = [
    "Patient", "Appointment", "Encounter", "DocumentReference", "Provenance", "Practitioner",
    "PractitionerRole", "Organization", "AuditEvent", "Observation", "metadata", "$export",
]  # fmt: skip
PARAMETERS = [
    "_id", "identifier", "family", "given", "name", "birthdate", "email", "phone", "telecom",
    "patient", "date", "practitioner", "status", "_lastUpdated", "_count", "_cursor", "active",
    "target", "entity", "agent", "_format", "_sort", "name:exact", "_include",
]  # fmt: skip
HEADER_VALUES = [
    'W/"1"', "W/", "identifier=x", "email=a@b.c", "application/fhir+json",
    "application/x-www-form-urlencoded", "text/plain", f"_id={uuid.uuid4()}",
]  # fmt: skip
text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30)
values = st.one_of(
    text,
    st.sampled_from(["", "ge2025-01-01", "le2025-13-40", "gt2025-01-01T10:00:00Z", "sa1",
                     "eq2025", "0", "-1", "1001", "Patient/x", "a|b|c", "null"]),
    st.uuids().map(str),
    st.integers(-5, 5000).map(str),
)  # fmt: skip
ids = st.one_of(st.uuids().map(str), text.filter(lambda t: "/" not in t and t not in (".", "..")))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=10,
)
bodies = st.one_of(
    st.none(),
    json_values,
    st.fixed_dictionaries(
        {"resourceType": st.sampled_from(["Patient", "Appointment", "Bundle"])},
        optional={
            "name": json_values,
            "telecom": json_values,
            "birthDate": values,
            "participant": json_values,
            "start": values,
            "end": values,
            "status": values,
            "id": ids,
        },
    ),
)


@pytest.fixture(scope="module")
def fuzzed(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[LiveServer, httpx.Client]]:
    with live_server(
        pg_server,
        template_database,
        tmp_path_factory.mktemp("fhir-fuzz-data"),
        tmp_path_factory.mktemp("fhir-fuzz-logs"),
        label="fhirfuzz",
    ) as server:
        token = server.token(["user/*.cruds", "audit:read"])
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=f"{server.base}/fhir/R4", headers=headers, timeout=30) as http:
            patient = http.post(
                "/Patient",
                json={"resourceType": "Patient", "name": [{"family": "Fuzz", "given": ["F"]}]},
            )
            assert patient.status_code == 201
            yield server, http


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
    resource_type=st.sampled_from(TYPES),
    tail=st.one_of(
        st.just(""),
        ids.map(lambda i: f"/{i}"),
        st.tuples(ids, text).map(lambda p: f"/{p[0]}/_history/{p[1]}"),
        st.just("/_search"),
        ids.map(lambda i: f"/{i}/_history"),
    ),
    query=st.lists(st.tuples(st.sampled_from(PARAMETERS) | text, values), max_size=4),
    body=bodies,
    headers=st.dictionaries(
        st.sampled_from(["If-Match", "If-None-Exist", "Content-Type", "Prefer"]),
        st.sampled_from(HEADER_VALUES),
        max_size=3,
    ),
)
def test_no_fhir_request_answers_5xx(
    fuzzed: tuple[LiveServer, httpx.Client],
    method: str,
    resource_type: str,
    tail: str,
    query: list[tuple[str, str | int | float | bool | None]],
    body: Any,
    headers: dict[str, str],
) -> None:
    _, http = fuzzed
    content = None if body is None else httpx.Request("POST", "/", json=body).content
    try:
        answer = http.request(
            method, f"/{resource_type}{tail}", params=query, content=content, headers=headers
        )
    except httpx.InvalidURL:
        return  # a URL httpx itself will not send
    assert answer.status_code < 500, (method, resource_type, tail, answer.text[:500])
    if answer.status_code >= 400 and answer.headers.get("content-type", "").startswith(
        "application/fhir+json"
    ):
        outcome = validated(answer.json())
        assert outcome["resourceType"] == "OperationOutcome"
