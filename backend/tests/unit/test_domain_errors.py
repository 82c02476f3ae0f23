"""The domains' errors become HTTP in one place (api/errors.py): each kind answers its status
with exactly the body an ApiError of that status and code gave before the split (issue 13)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from carevault.api.errors import DOMAIN_STATUS, ApiError, http_status, install_error_handlers
from carevault.core import errors
from carevault.core.errors import (
    Conflict,
    DomainError,
    Forbidden,
    Gone,
    Invalid,
    NotFound,
    not_found,
)
from carevault.core.fields import invalid

# The statuses these kinds answered with as ApiError(status, …), before the domains had them.
STATUS_BEFORE: dict[type[DomainError], int] = {
    NotFound: 404,
    Conflict: 409,
    Gone: 410,
    Invalid: 422,
    Forbidden: 403,  # new with issue 24 (co-signatures): never an ApiError before
}
# Kinds added since, with their statuses.
STATUS_ADDED: dict[type[DomainError], int] = {Forbidden: 403}


def _kinds() -> set[type[DomainError]]:
    found: set[type[DomainError]] = set()
    todo: list[type[DomainError]] = [DomainError]
    while todo:
        for kind in todo.pop().__subclasses__():
            found.add(kind)
            todo.append(kind)
    return found


def _app(raised: Exception) -> httpx.AsyncClient:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/refuse")
    async def refuse() -> None:
        raise raised

    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")


async def _answer(raised: Exception) -> tuple[int, dict[str, Any]]:
    async with _app(raised) as client:
        response = await client.get("/refuse")
    return response.status_code, response.json()


def test_every_kind_of_domain_error_has_its_status_in_the_one_table() -> None:
    kinds = {kind for kind in _kinds() if kind.__module__ == errors.__name__}
    assert kinds == set(DOMAIN_STATUS) == set(STATUS_BEFORE | STATUS_ADDED)
    assert DOMAIN_STATUS == STATUS_BEFORE | STATUS_ADDED


@pytest.mark.parametrize("kind", [NotFound, Conflict, Gone, Invalid, Forbidden])
@pytest.mark.parametrize("details", [None, {"current_version": 4}, [{"field": "body.x"}]])
async def test_a_domain_error_answers_as_the_api_error_it_replaced(
    kind: type[DomainError], details: Any
) -> None:
    status = (STATUS_BEFORE | STATUS_ADDED)[kind]
    domain = await _answer(kind("some_code", "what went wrong", details=details))
    api = await _answer(ApiError(status, "some_code", "what went wrong", details=details))
    assert domain == api
    assert domain[0] == status
    expected: dict[str, Any] = {"code": "some_code", "message": "what went wrong"}
    if details is not None:
        expected["details"] = details
    assert domain[1] == {"error": expected}


async def test_the_helpers_keep_their_wording_and_field_names() -> None:
    assert await _answer(not_found("session note")) == (
        404,
        {"error": {"code": "not_found", "message": "session note not found"}},
    )
    status, body = await _answer(invalid("empty_note", "write something", "plan", "subjective"))
    assert status == 422
    assert body["error"]["details"] == [
        {"field": "body.plan", "message": "write something"},
        {"field": "body.subjective", "message": "write something"},
    ]
    query = invalid("validation_error", "end must be after start", "end", location="query")
    assert query.details == [{"field": "query.end", "message": "end must be after start"}]


def test_a_kind_extending_a_mapped_kind_takes_its_status() -> None:
    class StaleVersion(Conflict):
        pass

    assert http_status(StaleVersion("version_conflict", "stale")) == 409


def test_an_unmapped_kind_is_a_defect_not_a_guess() -> None:
    class Unmapped(DomainError):
        pass

    with pytest.raises(TypeError, match="Unmapped"):
        http_status(Unmapped("x", "y"))
