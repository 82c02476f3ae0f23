"""The application factory."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

import carevault
from carevault.api import readiness
from carevault.api.conditional import document_conditional_requests, install_not_modified_handler
from carevault.api.deadline import RequestDeadline
from carevault.api.dependencies import DatabaseRoute
from carevault.api.docs_ui import mount_docs
from carevault.api.errors import install_error_handlers
from carevault.api.failures import TIMEOUT, UNAVAILABLE, AnsweredErrors, classify
from carevault.api.frontend import mount_frontend
from carevault.api.headers import SecurityHeaders
from carevault.api.idempotency import HEADER as IDEMPOTENCY_HEADER
from carevault.api.idempotency import install_replay_handler
from carevault.api.limits import BodySizeLimit
from carevault.api.metrics import metrics_endpoint
from carevault.api.notices import start_notifier
from carevault.api.openapi_examples import (
    add_error_examples,
    authenticated_operations,
    declared_operations,
    restore_example_nulls,
)
from carevault.api.proxies import TrustedProxies
from carevault.api.routes import include_api
from carevault.api.state import AppState
from carevault.audit import checkpoints
from carevault.audit.background import AuditSealer
from carevault.auth.dependencies import SESSION_COOKIE
from carevault.auth.permissions import READ_COST, Operation
from carevault.auth.rate_limit import RateLimitHeaders
from carevault.auth.service import dummy_hash
from carevault.config import Settings, get_settings
from carevault.crypto import KeyRingManager, PhiBackend, current_cipher
from carevault.db import fastpath
from carevault.db.deadlines import Deadlines, deadlines_of
from carevault.db.engine import (
    close_api_engine,
    create_engine,
    open_api_engine,
    session_factory,
)
from carevault.db.pooler import POOLER_HINT, refused_startup_parameter
from carevault.db.replica import ReplicaRouter
from carevault.events.background import EventPruner
from carevault.exports.router import bulk_router as bulk_export_router
from carevault.fhir.errors import install_fhir_errors
from carevault.fhir.router import router as fhir_router
from carevault.health.router import router as health_router
from carevault.notifications import Notifier
from carevault.observability.metrics import Metrics, MetricsMiddleware
from carevault.observability.request_id import RequestIdMiddleware
from carevault.runtime import (
    StartupError,
    pgcrypto_available,
    provision_data_keys,
    start_key_ring,
)
from carevault.webhooks.delivery import WebhookWorker, worker_config
from carevault.workspaces.keys import blocking_data_key_loader

log = logging.getLogger(__name__)


T = TypeVar("T")

# A worker that starts while the database is away for a moment (a restart, a failover, a
# worker replaced during an outage) waits for it rather than fail: one worker that fails to
# start makes uvicorn stop them all, turning a database blip into an outage.
STARTUP_DATABASE_WAIT_SECONDS = 60.0


async def once_the_database_answers(step: Callable[[], Awaitable[T]]) -> T:
    """`step()`, tried again (0.2 s, doubling to 2 s apart) while it fails because the
    database is unavailable or timed out, for up to STARTUP_DATABASE_WAIT_SECONDS; any other
    failure, or one past that, is raised as it is."""
    deadline = time.monotonic() + STARTUP_DATABASE_WAIT_SECONDS
    delay = 0.2
    while True:
        try:
            return await step()
        except Exception as exc:
            if classify(exc) not in (UNAVAILABLE, TIMEOUT) or time.monotonic() + delay > deadline:
                raise
            log.warning(
                "the database does not answer at start (%s): trying again in %.1f s",
                type(exc).__name__,
                delay,
            )
        await asyncio.sleep(delay)
        delay = min(delay * 2, 2.0)


def create_app(
    settings: Settings | None = None,
    *,
    database_url: str,
    key_manager: KeyRingManager | None = None,
    engine: AsyncEngine | None = None,
) -> FastAPI:
    """Build the app. The key ring loads and the database is checked before it serves.

    `engine`: an engine from `open_api_engine` for `database_url`, with the same deadlines
    and fast path as `settings`, that the caller keeps: the app uses it and leaves it open
    when it stops (the tests keep their connections from one app to the next). By default
    the app opens its own and closes it."""
    settings = settings or get_settings()
    given_engine = engine

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager = key_manager or start_key_ring(settings, database_url=database_url)
        # Engines compile SQL for the PHI backend, so they are built after the cipher is.
        deadlines = Deadlines(settings.request_timeout_seconds)
        if given_engine is not None and deadlines_of(given_engine) != deadlines:
            raise ValueError("the engine given to create_app has other deadlines")
        if given_engine is not None and fastpath.requested(given_engine.sync_engine) is not (
            settings.db_fast_path
        ):
            raise ValueError("the engine given to create_app has the fast path set otherwise")
        engine = given_engine or await open_api_engine(
            database_url, deadlines, fast_path=settings.db_fast_path
        )
        replica: ReplicaRouter | None = None
        sealer: AuditSealer | None = None
        webhooks: WebhookWorker | None = None
        pruner: EventPruner | None = None

        state: AppState | None = None
        notifier: Notifier | None = None
        # A read that meets a practice key this worker never loaded fetches it at once.
        current_cipher().data_keys.loader = blocking_data_key_loader(database_url)
        try:

            async def provisioned() -> int:
                try:
                    return await provision_data_keys(engine, manager)
                except DBAPIError as exc:
                    if refused_startup_parameter(exc):
                        raise StartupError(POOLER_HINT) from None
                    raise

            await once_the_database_answers(provisioned)
            await asyncio.to_thread(dummy_hash)  # before the first sign-in, not during it
            has_pgcrypto = await once_the_database_answers(lambda: pgcrypto_available(engine))
            if settings.phi_backend is PhiBackend.PGCRYPTO and not has_pgcrypto:
                raise StartupError(
                    "CAREVAULT_PHI_BACKEND=pgcrypto but this database has no pgcrypto "
                    "extension; install it (postgresql-contrib) and run `carevault db "
                    "upgrade`, or use CAREVAULT_PHI_BACKEND=aesgcm"
                )
            if settings.read_database_url:
                # Opened last: neither the engine nor its direct pool connects until used.
                replica = ReplicaRouter(
                    engine,
                    await open_api_engine(
                        settings.read_database_url, deadlines, fast_path=settings.db_fast_path
                    ),
                    max_lag_seconds=settings.read_replica_max_lag_seconds,
                    read_your_writes_seconds=settings.read_your_writes_seconds,
                    interval=settings.read_replica_check_interval_seconds,
                )
                replica.start()
            state = AppState(
                settings=settings,
                key_manager=manager,
                engine=engine,
                db_sessions=session_factory(engine, routes_reads=replica is not None),
                pgcrypto_available=has_pgcrypto,
                replica=replica,
            )
            sealer = state.audit_sealer = start_audit_sealer(settings, engine, manager)
            webhooks = state.webhook_worker = start_webhook_worker(settings, engine)
            pruner = start_event_pruner(settings, engine)
            app.state.carevault = state
            readiness.start_keeping_ready(state)
            notifier = state.notifier = start_notifier(state, database_url)
            metrics.watch(state)
            # Everything built so far (modules, routes, compiled statements, the key ring)
            # lives as long as the process: out of the collector's sight, a full collection
            # no longer walks it while a request waits.
            gc.freeze()
            yield
        finally:
            if webhooks is not None:
                await webhooks.stop()
            if pruner is not None:
                await pruner.stop()

            if notifier is not None:
                await notifier.stop()
            if state is not None:
                await readiness.stop_keeping_ready(state)
                if state.rate_limiter is not None:
                    await state.rate_limiter.backend.close()
            if sealer is not None:
                await sealer.stop()
            if replica is not None:
                await replica.stop()
                await close_api_engine(replica.replica)
            if given_engine is None:
                await close_api_engine(engine)
            if key_manager is None:
                manager.stop()

    app = FastAPI(
        title="CareVault",
        version=carevault.__version__,
        summary="Practice management with application-level PHI encryption",
        lifespan=lifespan,
        # /docs is served from the app's own copy of Swagger UI (carevault.api.docs_ui).
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
    )
    # The app's own routes too (the UI's catch-all): every route ends the request's session.
    app.router.route_class = DatabaseRoute
    metrics = Metrics()
    app.state.metrics = metrics
    install_error_handlers(app)
    install_replay_handler(app)
    install_not_modified_handler(app)
    app.include_router(health_router)
    include_api(app)
    # Before the FHIR router, whose last route is a catch-all under /fhir/R4.
    app.include_router(bulk_export_router)  # /fhir/R4/$export (carevault.exports)
    app.include_router(fhir_router)
    install_fhir_errors(app)  # after every handler: /fhir errors become OperationOutcome
    app.add_route("/metrics", metrics_endpoint, include_in_schema=False)
    mount_docs(app)
    mount_frontend(app)  # last: its catch-all must not shadow any other route
    app.add_middleware(BodySizeLimit)
    app.add_middleware(RateLimitHeaders)
    app.add_middleware(RequestDeadline, seconds=settings.request_timeout_seconds)
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    # Outermost: everything inside sees the real client address (or the peer's).
    app.add_middleware(TrustedProxies, networks=settings.trusted_proxy_networks)
    # Around the whole stack, Starlette's own error middleware included, so that even an
    # unhandled 500 and the refusals of the middleware above carry the headers.
    build_stack = app.build_middleware_stack
    production = settings.is_production
    # The request id outside that still: the access log, audit events and every response
    # (those two wrappers' own included) see the same id.
    # Outermost of all, AnsweredErrors: an error already answered in the JSON shape (Starlette
    # re-raises it) does not reach uvicorn, which would close the keep-alive connection.
    app.build_middleware_stack = lambda: AnsweredErrors(  # type: ignore[method-assign]
        RequestIdMiddleware(SecurityHeaders(build_stack(), production=production))
    )
    app.openapi = lambda: openapi_document(app)  # type: ignore[method-assign]
    return app


def start_audit_sealer(
    settings: Settings, engine: AsyncEngine, manager: KeyRingManager
) -> AuditSealer | None:
    """The background sealer (leader-elected per round), unless CAREVAULT_AUDIT_SEALER=false."""
    if not settings.audit_sealer:
        return None
    try:
        store = checkpoints.store_for(settings)
    except checkpoints.CheckpointError as exc:
        raise StartupError(str(exc)) from None
    # With its own role (CAREVAULT_AUDIT_SEALER_DATABASE_URL) the sealer has an engine of
    # its own: the request path's role then cannot insert seals at all.
    own = settings.audit_sealer_database_url
    sealer = AuditSealer(
        create_engine(own, pool_size=2, fast_path=settings.db_fast_path) if own else engine,
        lambda: manager.ring.audit_key,
        store,
        interval_seconds=settings.audit_seal_interval_seconds,
        checkpoint_interval_seconds=settings.audit_checkpoint_interval_seconds,
        owns_engine=bool(own),
    )
    sealer.start()
    return sealer


def start_webhook_worker(settings: Settings, engine: AsyncEngine) -> WebhookWorker | None:
    """The webhook delivery worker (safe in every process at once), unless
    CAREVAULT_WEBHOOK_WORKER=false."""
    if not settings.webhook_worker:
        return None
    worker = WebhookWorker(engine, worker_config(settings))
    worker.start()
    return worker


def start_event_pruner(settings: Settings, engine: AsyncEngine) -> EventPruner | None:
    """The change feed's housekeeping, unless CAREVAULT_EVENTS_PRUNER=false."""
    if not settings.events_pruner:
        return None
    pruner = EventPruner(
        engine,
        retention_days=settings.events_retention_days,
        interval_seconds=settings.events_prune_interval_seconds,
    )
    pruner.start()
    return pruner


def openapi_document(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document, with every 422 described by the error shape the API really sends,
    the credentials each operation takes, and examples of the error codes it can answer."""
    if app.openapi_schema:
        return app.openapi_schema
    document = get_openapi(
        title=app.title, version=app.version, summary=app.summary, routes=app.routes
    )
    error_content = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}}
    authenticated = authenticated_operations(app.routes)
    declared = declared_operations(app.routes)
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            if (method, path) in authenticated:
                _declare_security(operation, declared.get((method, path)), error_content)
            if "422" in responses:  # FastAPI's own describes a shape the API never sends
                media = responses["422"].setdefault("content", {})
                media.setdefault("application/json", {})["schema"] = error_content[
                    "application/json"
                ]["schema"]
            if path.startswith("/api/"):
                responses.setdefault(
                    "400",
                    {
                        "description": "unknown_parameter: a query parameter this operation "
                        "does not declare (or bad_request: an unreadable body)",
                        "content": error_content,
                    },
                )
                responses.setdefault(
                    "503",
                    {
                        "description": "database_unavailable, database_timeout or "
                        "storage_full; nothing was changed; see Retry-After",
                        "content": error_content,
                    },
                )
            if any(
                parameter.get("in") == "header" and parameter.get("name") == IDEMPOTENCY_HEADER
                for parameter in operation.get("parameters", [])
            ):
                _declare_idempotency_conflict(responses, error_content)
            if "requestBody" in operation:
                # Every body is parsed before validation: unreadable bytes are 400, big ones 413.
                responses.setdefault(
                    "400",
                    {"description": "The body is not valid JSON text", "content": error_content},
                )
                responses.setdefault(
                    "413", {"description": "Request body too large", "content": error_content}
                )
    document_conditional_requests(document)
    add_error_examples(document, app.routes)
    restore_example_nulls(document)
    components = document.setdefault("components", {})
    components["securitySchemes"] = SECURITY_SCHEMES
    schemas = components.setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    app.openapi_schema = document
    return document


IDEMPOTENCY_CONFLICT = (
    "idempotency_key_reused: this Idempotency-Key came with a different request "
    "(see docs/reference/api.md)"
)


def _declare_idempotency_conflict(responses: dict[str, Any], error_content: Any) -> None:
    """A create that takes `Idempotency-Key` can answer 409 for it: declared, so generated
    clients parse it, next to any 409 of its own (an appointment's overlap)."""
    conflict = responses.get("409")
    if conflict is None:
        responses["409"] = {"description": IDEMPOTENCY_CONFLICT, "content": error_content}
    elif IDEMPOTENCY_CONFLICT not in conflict.get("description", ""):
        own = conflict.get("description", "Conflict")
        conflict["description"] = f"{own}; {IDEMPOTENCY_CONFLICT}"
        conflict.setdefault("content", error_content)


SECURITY_SCHEMES: dict[str, Any] = {
    "bearerToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "An API token (`Authorization: Bearer cv_…`), created in the web UI or "
        "with POST /api/v1/auth/tokens; limited to its scopes.",
    },
    "sessionCookie": {
        "type": "apiKey",
        "in": "cookie",
        "name": SESSION_COOKIE,
        "description": "The web UI's login session; changes also need the X-CSRF-Token header "
        "from the sign-in response.",
    },
}


def _declare_security(
    operation: dict[str, Any], declared: Operation | None, error_content: dict[str, Any]
) -> None:
    """Which credentials the operation takes (the token scopes it needs, if tokens may call
    it at all, from its declaration in carevault.auth.permissions), and the errors every
    authenticated operation can answer."""
    if declared is None or declared.token_scopes is None:
        operation["security"] = [{"sessionCookie": []}]
        operation["x-token-scopes"] = None
    else:
        operation["security"] = [{"bearerToken": []}, {"sessionCookie": []}]
        operation["x-token-scopes"] = list(declared.token_scopes)
    # What one request spends of the rate limits (docs/reference/api.md, "Rate limits").
    operation["x-rate-limit-cost"] = declared.cost if declared is not None else READ_COST
    responses = operation.setdefault("responses", {})
    for status, description in (
        ("401", "not_authenticated, invalid_token, token_revoked, session_ended, …"),
        ("403", "csrf_failed, insufficient_scope, login_session_required, owner_required, …"),
        (
            "429",
            "rate_limited: over a rate-limit budget (per credential or per practice); "
            "see Retry-After",
        ),
    ):
        responses.setdefault(status, {"description": description, "content": error_content})
