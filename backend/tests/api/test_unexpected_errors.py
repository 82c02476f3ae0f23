"""Whatever a request raises is answered in the JSON error shape, never Starlette's plain-text
500: a driver error of any kind as the failure vocabulary's 503 with Retry-After, anything
else as a JSON 500 naming the request id. Either way the client's keep-alive connection
serves its next request."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest
import uvicorn

from tests.support.http import ApiContext

BOUND = 30.0


async def _bug() -> None:
    raise RuntimeError("a bug")


async def _driver_error() -> None:
    # What the direct pool's connection raised when the server ended its session mid-request.
    raise asyncpg.InternalClientError(
        "cannot switch to state 12; another operation (2) is in progress"
    )


@pytest.fixture
def failing_api(api: ApiContext) -> ApiContext:
    for path, endpoint in (("/test-bug", _bug), ("/test-driver-error", _driver_error)):
        api.app.add_api_route(path, endpoint, methods=["GET"])
        # Ahead of the UI's catch-all GET route.
        api.app.router.routes.insert(0, api.app.router.routes.pop())
    api.app.middleware_stack = None  # rebuilt on the next call, with the new routes
    return api


def _client(api: ApiContext) -> httpx.AsyncClient:
    # The transport re-raises an exception that escapes the app: none may.
    transport = httpx.ASGITransport(app=api.app)
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


async def test_an_unexpected_error_is_a_json_500_with_the_request_id(
    failing_api: ApiContext,
) -> None:
    async with _client(failing_api) as client:
        answer = await client.get("/test-bug", headers={"X-Request-ID": "support-case-0001"})
    assert answer.status_code == 500
    assert answer.headers["content-type"] == "application/json"
    error = answer.json()["error"]
    assert error["code"] == "internal_error"
    assert error["details"] == {"request_id": "support-case-0001"}
    assert answer.headers["x-request-id"] == "support-case-0001"
    assert "a bug" not in answer.text


async def test_a_driver_error_of_any_kind_is_a_json_503_with_retry_after(
    failing_api: ApiContext,
) -> None:
    async with _client(failing_api) as client:
        answer = await client.get("/test-driver-error")
    assert answer.status_code == 503
    assert answer.headers["content-type"] == "application/json"
    assert answer.json()["error"]["code"] == "database_unavailable"
    assert int(answer.headers["retry-after"]) > 0


@pytest.fixture
async def served(failing_api: ApiContext) -> AsyncIterator[int]:
    """The app behind a real uvicorn on loopback; its port."""
    config = uvicorn.Config(
        failing_api.app, host="127.0.0.1", port=0, lifespan="off", log_config=None
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(BOUND):
            while not server.started:  # noqa: ASYNC110 (uvicorn offers no event for it)
                await asyncio.sleep(0.02)
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        await asyncio.wait_for(serving, BOUND)


async def test_errors_leave_the_keep_alive_connection_usable(served: int) -> None:
    """Over real HTTP/1.1, three requests on one socket: a bug, a driver error, then a
    normal one. uvicorn closed the connection after the first (its answer was plain text)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", served)
    answers = []
    try:
        async with asyncio.timeout(BOUND):
            for path in (b"/test-bug", b"/test-driver-error", b"/health"):
                writer.write(b"GET %s HTTP/1.1\r\nHost: localhost\r\n\r\n" % path)
                answers.append(await _read_response(reader))
    finally:
        writer.close()
    (bug_head, bug_body), (driver_head, _), (live_head, _) = answers
    assert bug_head.startswith(b"HTTP/1.1 500") and b"internal_error" in bug_body
    assert b"application/json" in bug_head and b"connection: close" not in bug_head.lower()
    assert driver_head.startswith(b"HTTP/1.1 503") and b"retry-after:" in driver_head.lower()
    assert live_head.startswith(b"HTTP/1.1 200"), live_head


async def _read_response(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    return head, await reader.readexactly(length)
