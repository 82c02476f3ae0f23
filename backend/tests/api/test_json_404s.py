"""Issue 25: a wrong URL under /api/, /fhir/ or /.well-known/ answered 200 with the UI's
page; the whole app now answers a JSON 404 in the standard error shape. Under /fhir/ (FHIR
R4 lives at /fhir/R4) that JSON is an OperationOutcome carrying the same code, as every
error there is (docs/reference/fhir.md "Errors"): a FHIR client with a wrong base URL reads it."""

from __future__ import annotations

import httpx

from tests.support.fhir import outcome_code
from tests.support.http import ApiContext


async def test_unknown_integration_paths_answer_json_404s(api: ApiContext) -> None:
    transport = httpx.ASGITransport(app=api.app, client=("203.0.113.7", 50000))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        for path in ("/api/v1/nope", "/.well-known/x", "/api/v2/clients"):
            answer = await client.get(path, headers={"Accept": "text/html,*/*"})
            assert answer.status_code == 404, path
            if path.startswith("/fhir/"):
                # FHIR clients get FHIR's error shape (docs/reference/fhir.md), with the same code.
                assert answer.headers["content-type"].startswith("application/fhir+json"), path
                outcome = answer.json()
                assert outcome["resourceType"] == "OperationOutcome", path
                codes = [c["code"] for i in outcome["issue"] for c in i["details"]["coding"]]
                assert "not_found" in codes, path
                continue
            assert answer.headers["content-type"].startswith("application/json"), path
            assert answer.json()["error"]["code"] == "not_found", path
        for path in ("/fhir/Patient", "/fhir/R4/Nope", "/fhir/R3/metadata"):
            answer = await client.get(path, headers={"Accept": "text/html,*/*"})
            assert answer.status_code == 404, path
            assert outcome_code(answer) == "not_found", path
