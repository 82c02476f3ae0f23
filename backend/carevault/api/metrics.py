"""GET /metrics: the Prometheus text of carevault.observability.metrics, for scrapers that
hold CAREVAULT_METRICS_TOKEN. A route of the web layer: it answers refusals in the API's
error shape."""

from __future__ import annotations

import hmac

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from carevault.api.errors import error_body
from carevault.api.state import AppState
from carevault.observability.metrics import Metrics


def _metrics_refusal(request: Request) -> Response | None:
    """/metrics names routes, key versions and refresh failures: scrapers must send
    CAREVAULT_METRICS_TOKEN as a Bearer token. Without a configured token it stays closed."""
    state: AppState = request.app.state.carevault
    expected = state.settings.metrics_token
    if expected is None:
        body = error_body(
            "metrics_disabled", "set CAREVAULT_METRICS_TOKEN and send it as a Bearer token"
        )
        return JSONResponse(body, status_code=403)
    scheme, _, offered = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        offered.strip().encode(), expected.get_secret_value().encode()
    ):
        body = error_body("invalid_token", "send Authorization: Bearer <CAREVAULT_METRICS_TOKEN>")
        return JSONResponse(body, status_code=401, headers={"WWW-Authenticate": "Bearer"})
    return None


async def metrics_endpoint(request: Request) -> Response:
    refused = _metrics_refusal(request)
    if refused is not None:
        return refused
    metrics: Metrics = request.app.state.metrics
    return metrics.render()
