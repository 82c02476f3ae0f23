"""`Idempotency-Key` on creates (issue 14): a retry returns the first response without
creating again or auditing a second create; another body with the key is 409; concurrent
retries create exactly one record; keys are per caller, hashed, and the stored response is
sealed like PHI."""

from __future__ import annotations

import asyncio

from carevault.auth.models import Role
from carevault.auth.scopes import EVERY_SCOPE
from tests.support.db import sql
from tests.support.http import ApiContext, error_of
from tests.support.notes import note_body, practice


async def test_a_retried_create_returns_the_first_response_and_creates_nothing(
    api: ApiContext,
) -> None:
    place = await practice(api, Role.CLINICIAN)
    body = note_body(place.client_ids[0], subjective="Slept better this week.")
    headers = {"Idempotency-Key": "dictation-upload-0001"}
    async with api.signed_in(place.emails[0]) as client:
        first = await client.post("/sessions", json=body, headers=headers)
        again = await client.post("/sessions", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert len(await sql(api, "SELECT 1 FROM sessions")) == 1
    creates = await sql(api, "SELECT 1 FROM audit_events WHERE action = 'session.create'")
    assert len(creates) == 1


async def test_the_same_key_with_another_body_is_409_and_creates_nothing(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    headers = {"Idempotency-Key": "k-2"}
    async with api.signed_in(place.emails[0]) as client:
        first = await client.post("/sessions", json=note_body(place.client_ids[0]), headers=headers)
        other = note_body(place.client_ids[0], subjective="Something else entirely.")
        reused = await client.post("/sessions", json=other, headers=headers)
    assert first.status_code == 201
    assert reused.status_code == 409
    assert error_of(reused)["code"] == "idempotency_key_reused"
    assert len(await sql(api, "SELECT 1 FROM sessions")) == 1


async def test_concurrent_retries_with_one_key_create_exactly_one_record(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    body = {"first_name": "Robin", "last_name": "Example", "email": "robin@example.org"}
    async with api.signed_in(place.emails[0]) as client:
        answers = await asyncio.gather(
            *[
                client.post("/clients", json=body, headers={"Idempotency-Key": "same"})
                for _ in range(6)
            ]
        )
    assert [a.status_code for a in answers] == [201] * 6
    assert len({a.json()["id"] for a in answers}) == 1
    assert sum(a.headers.get("Idempotent-Replayed") == "true" for a in answers) == 5
    rows = await sql(api, "SELECT count(*) AS n FROM clients")
    assert rows[0]["n"] == 2  # the practice's first client, and this one once


async def test_a_failed_create_is_not_remembered(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    headers = {"Idempotency-Key": "after-a-422"}
    async with api.signed_in(place.emails[0]) as client:
        invalid = await client.post(
            "/sessions", json={"client_id": place.client_ids[0]}, headers=headers
        )
        fixed = await client.post("/sessions", json=note_body(place.client_ids[0]), headers=headers)
    assert invalid.status_code == 422
    assert fixed.status_code == 201 and "Idempotent-Replayed" not in fixed.headers


async def test_keys_are_per_caller_hashed_and_the_response_is_sealed(api: ApiContext) -> None:
    place = await practice(api, Role.OWNER, Role.CLINICIAN)
    key = "shared-key-visible-nowhere"
    subjective = "A sentence of PHI that must not be stored in the clear."
    async with api.signed_in(place.emails[0]) as owner, api.signed_in(place.emails[1]) as other:
        mine = await owner.post(
            "/sessions",
            json=note_body(place.client_ids[0], subjective=subjective),
            headers={"Idempotency-Key": key},
        )
        theirs = await other.post(
            "/sessions", json=note_body(place.client_ids[0]), headers={"Idempotency-Key": key}
        )
        token = (
            await owner.post("/auth/tokens", json={"name": "t", "scopes": list(EVERY_SCOPE)})
        ).json()["token"]
    async with api.client() as integration:
        by_token = await integration.post(
            "/sessions",
            json=note_body(place.client_ids[0]),
            headers={"Idempotency-Key": key, "Authorization": f"Bearer {token}"},
        )
    assert mine.status_code == theirs.status_code == by_token.status_code == 201
    assert len({mine.json()["id"], theirs.json()["id"], by_token.json()["id"]}) == 3
    stored = await sql(api, "SELECT caller_hash, key_hash, response_body FROM idempotency_records")
    assert len(stored) == 3
    for row in stored:
        assert len(row["caller_hash"]) == len(row["key_hash"]) == 32
        raw = bytes(row["response_body"])
        assert raw[:1] in (b"\x03", b"\x04")
        assert key.encode() not in raw and subjective.encode() not in raw


async def test_an_unusable_key_is_400(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        answer = await client.post(
            "/sessions", json=note_body(place.client_ids[0]), headers={"Idempotency-Key": "x" * 300}
        )
    assert answer.status_code == 400
    assert error_of(answer)["code"] == "invalid_idempotency_key"
    assert len(await sql(api, "SELECT 1 FROM sessions")) == 0
