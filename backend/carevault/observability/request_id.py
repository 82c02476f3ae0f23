"""One id per request: echoed from `X-Request-ID` when it is sane, generated otherwise, sent
back on every response, written to the access log line and to the request's audit events,
so support can follow one request from a client's report to the server's records."""

from __future__ import annotations

import re
import uuid
from contextvars import ContextVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = b"x-request-id"
# Ids from clients and proxies are kept only when they cannot smuggle anything into a log
# line or a header: short, and from a small alphabet (uuids, ULIDs, trace ids all fit).
_SANE = re.compile(rb"[A-Za-z0-9._:\-]{8,128}")

current_request_id: ContextVar[str | None] = ContextVar("carevault_request_id", default=None)


def accepted_request_id(offered: bytes | None) -> str:
    """The client's id when it is sane, otherwise a new random one."""
    if offered is not None and _SANE.fullmatch(offered):
        return offered.decode("ascii")
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """Pure ASGI, around the whole stack, so even an unhandled error's response has the id."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        offered = next((value for name, value in scope["headers"] if name == HEADER), None)
        request_id = accepted_request_id(offered)
        encoded = request_id.encode("ascii")

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k != HEADER]
                message["headers"] = [*headers, (HEADER, encoded)]
            await send(message)

        token = current_request_id.set(request_id)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            current_request_id.reset(token)
