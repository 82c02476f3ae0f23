"""Start each request's deadline clock (see carevault.db.deadlines)."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from carevault.db.deadlines import request_deadline


class RequestDeadline:
    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with request_deadline(self.seconds):
            await self.app(scope, receive, send)
