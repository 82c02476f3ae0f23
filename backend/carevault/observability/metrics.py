"""Prometheus metrics: request latency per route, field encrypt/decrypt counts, key-ring state.

The counts and key-ring figures are read when /metrics is scraped (a custom collector), so
nothing on the request or encryption path touches the Prometheus client for them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from carevault.crypto import registry as crypto_registry

if TYPE_CHECKING:
    from carevault.api.state import AppState

access_log = logging.getLogger("carevault.access")

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class CryptoAndKeyRingCollector(Collector):
    def __init__(self, state: AppState) -> None:
        self.state = state

    def collect(self) -> Iterable[CounterMetricFamily | GaugeMetricFamily]:
        counts = crypto_registry.operation_counts()
        operations = CounterMetricFamily(
            "carevault_field_operations", "PHI fields encrypted and decrypted", labels=["operation"]
        )
        operations.add_metric(["encrypt"], counts.encrypted)
        operations.add_metric(["decrypt"], counts.decrypted)
        operations.add_metric(["decrypt_failed"], counts.failed)
        yield operations

        status = self.state.key_manager.status()
        yield GaugeMetricFamily(
            "carevault_keyring_active_version",
            "Active key version",
            value=status.active_version or 0,
        )
        yield GaugeMetricFamily(
            "carevault_keyring_consecutive_refresh_failures",
            "Failed refreshes since the last success (0: healthy)",
            value=status.consecutive_failures,
        )
        last = status.last_success_at.timestamp() if status.last_success_at else 0
        yield GaugeMetricFamily(
            "carevault_keyring_last_success_timestamp_seconds",
            "When the key ring was last loaded successfully",
            value=last,
        )


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.latency = Histogram(
            "carevault_http_request_duration_seconds",
            "Request latency by route template, method and status",
            ["route", "method", "status"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )

    def watch(self, state: AppState) -> None:
        self.registry.register(CryptoAndKeyRingCollector(state))

    def render(self) -> Response:
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)


def route_template(scope: Scope) -> str:
    """The matched route as a template, e.g. /api/v1/clients/{client_id}: never the raw path
    (ids would explode label cardinality) nor the query string (a search can carry PHI)."""
    if scope.get("route") is None:
        return "unmatched"
    path = str(scope["path"])
    for name, value in scope.get("path_params", {}).items():
        path = path.replace(f"/{value}", "/{" + name + "}", 1)
    return path


class MetricsMiddleware:
    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            elapsed = time.perf_counter() - started
            route = route_template(scope)
            self.metrics.latency.labels(route, scope["method"], str(status)).observe(elapsed)
            # The access log names the route template, never the raw path or query string:
            # a search like ?q=<email> must not reach the logs.
            access_log.info(
                "%s %s %s %.1f ms",
                scope["method"],
                route,
                status,
                elapsed * 1000,
                extra={
                    "method": scope["method"],
                    "route": route,
                    "status": status,
                    "duration_ms": round(elapsed * 1000, 2),
                },
            )


async def metrics_endpoint(request: Request) -> Response:
    metrics: Metrics = request.app.state.metrics
    return metrics.render()
