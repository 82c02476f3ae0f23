"""Prometheus metrics: request latency per route, field encrypt/decrypt counts, key-ring state.

The counts and key-ring figures are read when /metrics is scraped (a custom collector), so
nothing on the request or encryption path touches the Prometheus client for them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from carevault.crypto import registry as crypto_registry
from carevault.observability.request_id import current_request_id

if TYPE_CHECKING:
    from carevault.audit.background import AuditSealer
    from carevault.clients.listing import ClientListCache
    from carevault.crypto import KeyRingManager
    from carevault.db.replica import ReplicaRouter

access_log = logging.getLogger("carevault.access")

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Observed(Protocol):
    """What the collector reads of the running app (carevault.api.state.AppState), named
    here so that observability needs nothing from the web layer."""

    @property
    def key_manager(self) -> KeyRingManager: ...

    @property
    def audit_sealer(self) -> AuditSealer | None: ...

    @property
    def client_list_cache(self) -> ClientListCache | None: ...

    @property
    def replica(self) -> ReplicaRouter | None: ...


class CryptoAndKeyRingCollector(Collector):
    def __init__(self, state: Observed) -> None:
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

        cipher = crypto_registry.current_cipher()
        by_version = CounterMetricFamily(
            "carevault_field_encryptions_by_key_version",
            "Values sealed by this process, per master key version",
            labels=["key_version"],
        )
        for version, count in sorted(cipher.sealed_by_version.items()):
            by_version.add_metric([str(version)], count)
        yield by_version
        # The busiest single data key (per practice and version) of this process; alert long
        # before NIST SP 800-38D's 2^32 random-nonce limit (keys status warns at 2^30).
        yield GaugeMetricFamily(
            "carevault_data_key_max_encryptions",
            "Most values this process sealed under any one practice data key",
            value=max(cipher.sealed_by_data_key.values(), default=0),
        )

        status = self.state.key_manager.status()
        yield GaugeMetricFamily(
            "carevault_keyring_pending_version",
            "Pending key version (0: none); every process decrypts with it before it activates",
            value=status.pending_version or 0,
        )
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
        yield from audit_metrics(self.state)
        yield from client_list_metrics(self.state)
        yield from rate_limit_metrics(self.state)
        yield from replica_metrics(self.state)


def audit_metrics(state: Observed) -> Iterable[CounterMetricFamily | GaugeMetricFamily]:
    """The sealer's figures as of its latest round (measured each round by every process)."""
    sealer = state.audit_sealer
    if sealer is None:
        return
    status = sealer.status
    lag = status.lag
    yield GaugeMetricFamily(
        "carevault_audit_sealing_lag_seconds",
        "Age of the oldest committed audit event not sealed yet (0: all sealed)",
        value=lag.oldest_unsealed_seconds if lag else 0,
    )
    yield GaugeMetricFamily(
        "carevault_audit_unsealed_events",
        "Committed audit events not sealed yet (capped at 100000)",
        value=lag.unsealed_events if lag else 0,
    )
    yield CounterMetricFamily(
        "carevault_audit_sealed_events",
        "Audit events sealed by this process",
        value=status.sealed_events,
    )
    yield GaugeMetricFamily(
        "carevault_audit_sealer_leader",
        "1 when this process sealed in its latest round",
        value=1 if status.leader else 0,
    )
    yield GaugeMetricFamily(
        "carevault_audit_untrusted_seals",
        "Seals past the frontier whose MAC does not verify (inserted without the audit key)",
        value=lag.untrusted_seals if lag else 0,
    )
    yield GaugeMetricFamily(
        "carevault_audit_sealer_healthy",
        "0 while sealing fails (e.g. no audit key in the ring), a checkpoint is refused or "
        "seals that do not verify sit past the frontier",
        value=0 if status.error or status.checkpoint_error or (lag and lag.untrusted_seals) else 1,
    )
    checkpoint = status.last_checkpoint_at.timestamp() if status.last_checkpoint_at else 0
    yield GaugeMetricFamily(
        "carevault_audit_last_checkpoint_timestamp_seconds",
        "When this process last wrote or saw a checkpoint",
        value=checkpoint,
    )


def client_list_metrics(state: Observed) -> Iterable[CounterMetricFamily | GaugeMetricFamily]:
    """The name cache of the client list (carevault.clients.listing): size and use. Its
    only label is the kind of lookup; never a practice, a client or a name."""
    cache = state.client_list_cache
    if cache is None:
        return
    yield GaugeMetricFamily(
        "carevault_client_list_cache_practices",
        "Practices whose client names this process holds",
        value=len(cache),
    )
    yield GaugeMetricFamily(
        "carevault_client_list_cache_bytes",
        "Estimated memory held by the cached client names",
        value=cache.nbytes,
    )
    yield GaugeMetricFamily(
        "carevault_client_list_cache_max_bytes",
        "CAREVAULT_CLIENT_LIST_CACHE_SIZE (0: the cache is off)",
        value=cache.max_bytes,
    )
    stats = cache.stats
    lookups = CounterMetricFamily(
        "carevault_client_list_cache_lookups",
        "Client lists and name searches by how their practice's names were found: hit "
        "(cached and current), refresh (changed names opened), build (all opened, then "
        "kept), bypass (all opened for this request only)",
        labels=["result"],
    )
    lookups.add_metric(["hit"], stats.hits)
    lookups.add_metric(["refresh"], stats.refreshes)
    lookups.add_metric(["build"], stats.builds)
    lookups.add_metric(["bypass"], stats.bypasses)
    yield lookups
    yield CounterMetricFamily(
        "carevault_client_list_cache_evictions",
        "Practices dropped to stay under the cap or after going unused",
        value=stats.evictions,
    )
    yield CounterMetricFamily(
        "carevault_client_list_cache_names_opened",
        "Client names decrypted to fill or refresh the cache",
        value=stats.names_opened,
    )


def rate_limit_metrics(state: object) -> Iterable[CounterMetricFamily | GaugeMetricFamily]:
    """The shared (Redis) request limits' state, when configured: requests counted by this
    process alone because Redis did not answer, and whether it answers now."""
    limiter = getattr(state, "rate_limiter", None)
    backend = getattr(limiter, "backend", None)
    failures = getattr(backend, "failures", None)
    if not isinstance(failures, int):
        return
    yield CounterMetricFamily(
        "carevault_rate_limit_redis_failures",
        "Requests whose limits this process counted alone because Redis did not answer",
        value=failures,
    )
    yield GaugeMetricFamily(
        "carevault_rate_limit_shared",
        "1 while request limits are shared through Redis, 0 while counted per process",
        value=1 if getattr(backend, "shared", False) else 0,
    )


def replica_metrics(state: Observed) -> Iterable[CounterMetricFamily | GaugeMetricFamily]:
    """The read replica (carevault.db.replica), from this process's last check."""
    router = state.replica
    if router is None:
        return
    yield GaugeMetricFamily(
        "carevault_replica_serving_reads",
        "1 while lists, searches and the feed may read from the replica",
        value=1 if router.usable() else 0,
    )
    lag = router.status.lag_seconds
    yield GaugeMetricFamily(
        "carevault_replica_lag_seconds",
        "How long ago the primary had the oldest WAL position the replica has not replayed "
        "(NaN when unknown)",
        value=float("nan") if lag is None else lag,
    )
    routed = CounterMetricFamily(
        "carevault_replica_route_requests",
        "Requests of replica routes by where they read: replica, primary_after_write (read "
        "your writes), primary_unusable (replica down, behind or unchecked), "
        "primary_awaiting_replay (the presented write position not replayed yet)",
        labels=["served_by"],
    )
    counts = router.counts
    routed.add_metric(["replica"], counts.replica)
    routed.add_metric(["primary_after_write"], counts.read_your_writes)
    routed.add_metric(["primary_unusable"], counts.unusable)
    routed.add_metric(["primary_awaiting_replay"], counts.awaiting_replay)
    yield routed
    pages = CounterMetricFamily(
        "carevault_replica_export_pages",
        "Pages read by bulk exports, by where they were read: replica or primary",
        labels=["served_by"],
    )
    pages.add_metric(["replica"], counts.export_pages_replica)
    pages.add_metric(["primary"], counts.export_pages_primary)
    yield pages


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

    def watch(self, state: Observed) -> None:
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
            request_id = current_request_id.get()
            access_log.info(
                "%s %s %s %.1f ms %s",
                scope["method"],
                route,
                status,
                elapsed * 1000,
                request_id,
                extra={
                    "method": scope["method"],
                    "route": route,
                    "status": status,
                    "duration_ms": round(elapsed * 1000, 2),
                    "request_id": request_id,
                },
            )
