"""The application factory."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

import carevault
from carevault.api.errors import install_error_handlers
from carevault.api.frontend import mount_frontend
from carevault.api.limits import BodySizeLimit
from carevault.api.routes import api_router
from carevault.api.state import AppState
from carevault.config import Settings, get_settings
from carevault.crypto import KeyRingManager, PhiBackend
from carevault.db.engine import create_engine, session_factory
from carevault.health.router import router as health_router
from carevault.observability.metrics import Metrics, MetricsMiddleware, metrics_endpoint
from carevault.runtime import StartupError, pgcrypto_available, start_key_ring

log = logging.getLogger(__name__)


def create_app(
    settings: Settings | None = None,
    *,
    database_url: str,
    key_manager: KeyRingManager | None = None,
) -> FastAPI:
    """Build the app. The key ring loads and the database is checked before it serves."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager = key_manager or start_key_ring(settings)
        # Engines compile SQL for the PHI backend, so they are built after the cipher is.
        engine = create_engine(database_url)
        try:
            has_pgcrypto = await pgcrypto_available(engine)
            if settings.phi_backend is PhiBackend.PGCRYPTO and not has_pgcrypto:
                raise StartupError(
                    "CAREVAULT_PHI_BACKEND=pgcrypto but this database has no pgcrypto "
                    "extension; install it (postgresql-contrib) and run `carevault db "
                    "upgrade`, or use CAREVAULT_PHI_BACKEND=aesgcm"
                )
            state = AppState(
                settings=settings,
                key_manager=manager,
                engine=engine,
                sessions=session_factory(engine),
                pgcrypto_available=has_pgcrypto,
            )
            app.state.carevault = state
            metrics.watch(state)
            yield
        finally:
            await engine.dispose()
            if key_manager is None:
                manager.stop()

    app = FastAPI(
        title="CareVault",
        version=carevault.__version__,
        summary="Practice management with application-level PHI encryption",
        lifespan=lifespan,
    )
    metrics = Metrics()
    app.state.metrics = metrics
    install_error_handlers(app)
    app.include_router(health_router)
    app.include_router(api_router)
    app.add_route("/metrics", metrics_endpoint, include_in_schema=False)
    mount_frontend(app)  # last: its catch-all must not shadow any other route
    app.add_middleware(BodySizeLimit)
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    app.openapi = lambda: openapi_document(app)  # type: ignore[method-assign]
    return app


def openapi_document(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document, with every 422 described by the error shape the API really sends."""
    if app.openapi_schema:
        return app.openapi_schema
    document = get_openapi(
        title=app.title, version=app.version, summary=app.summary, routes=app.routes
    )
    error_content = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}}
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            if "422" in responses:
                responses["422"]["content"] = error_content
            if "requestBody" in operation:
                # Every body is parsed before validation: unreadable bytes are 400, big ones 413.
                responses.setdefault(
                    "400",
                    {"description": "The body is not valid JSON text", "content": error_content},
                )
                responses.setdefault(
                    "413", {"description": "Request body too large", "content": error_content}
                )
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    app.openapi_schema = document
    return document
