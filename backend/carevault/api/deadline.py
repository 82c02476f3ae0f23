"""The request deadline, enforced on the whole request (see carevault.db.deadlines).

Checking the deadline before each statement is not enough on its own: a statement that
starts just before the deadline may run for the whole `command` timeout (0.6 x the deadline)
and the response would come at ~1.6 x the deadline. So the request runs in a task of its own
and, if it has not started its response when the deadline passes, the client gets
`503 database_timeout` at once and the task is cancelled: its transaction is never committed
(the connection is closed, so the server rolls it back), and a COMMIT already on its way is
refused by the commit fence, which never reaches past the request's deadline.
"""

from __future__ import annotations

import asyncio
import contextlib

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from carevault.api.failures import TIMEOUT, failure_response
from carevault.db.deadlines import DeadlineExceeded, request_deadline

# After the 503 is sent, the cancelled request gets this long to clean up (close its
# connection) before it is left to finish on its own; the client is not kept waiting.
CLEANUP_SECONDS = 5.0

_abandoned: set[asyncio.Task[None]] = set()


class RequestDeadline:
    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        answered = False

        async def send_unless_answered(message: Message) -> None:
            nonlocal started
            if answered:
                return  # the 503 went out: whatever the cancelled request says is dropped
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        with request_deadline(self.seconds):
            # The task copies the context, deadline included.
            task: asyncio.Task[None] = asyncio.ensure_future(
                self.app(scope, receive, send_unless_answered)
            )
            try:
                await asyncio.wait({task}, timeout=self.seconds)
            except asyncio.CancelledError:
                task.cancel()
                raise
        if task.done() or started:
            # Finished, or its response is already under way and can no longer be replaced.
            await task
            return
        answered = True
        task.cancel()
        _record_incident(scope)
        await failure_response(TIMEOUT)(scope, receive, send)
        done, _ = await asyncio.wait({task}, timeout=CLEANUP_SECONDS)
        if task not in done:
            _abandoned.add(task)
            task.add_done_callback(_forget)
        else:
            _forget(task)


def _forget(task: asyncio.Task[None]) -> None:
    _abandoned.discard(task)
    if not task.cancelled():
        with contextlib.suppress(BaseException):
            task.result()  # retrieved, so asyncio does not log it; the 503 already went out


def _record_incident(scope: Scope) -> None:
    from carevault.observability.metrics import route_template

    app = scope.get("app")
    state = getattr(getattr(app, "state", None), "carevault", None)
    if state is not None:
        error = DeadlineExceeded("the request deadline passed")
        state.incidents.record(TIMEOUT.code, error, route_template(scope))
