"""Security headers on every response, as pure ASGI middleware (no response buffering).

The web UI is one module script and one stylesheet from /assets, so its policy allows only
this origin: no inline script or style, no framing, no plugins. The interactive API docs
(/docs) are Swagger UI served by the app itself with its start-up script in a file
(carevault.api.docs_ui), so the same policy covers them: no page needs a CDN or inline code.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

UI_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
# Two years, the preload-list minimum; sent only in production (development runs on http).
HSTS = "max-age=63072000; includeSubDomains"

_COMMON: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
)


def headers_for(path: str, *, production: bool) -> list[tuple[bytes, bytes]]:
    headers = [(b"content-security-policy", UI_POLICY.encode()), *_COMMON]
    if production:
        headers.append((b"strict-transport-security", HSTS.encode()))
    if path.startswith("/api/"):
        # API answers carry PHI: no browser or proxy may keep a copy.
        headers.append((b"cache-control", b"no-store"))
    return headers


class SecurityHeaders:
    def __init__(self, app: ASGIApp, *, production: bool) -> None:
        self.app = app
        self.production = production

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = headers_for(str(scope.get("path", "")), production=self.production)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(item for item in extra if item[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
