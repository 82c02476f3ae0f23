"""Every versioned API router, mounted under /api/v1."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI

from carevault.appointments.router import router as appointments_router
from carevault.audit.router import router as audit_router
from carevault.auth.router import clinicians_router, users_router
from carevault.auth.router import router as auth_router
from carevault.clients.router import router as clients_router
from carevault.events.router import router as events_router
from carevault.exports.router import router as exports_router
from carevault.health.router import details_router as health_details_router
from carevault.notes.router import router as notes_router
from carevault.service_accounts.router import router as service_accounts_router
from carevault.webhooks.router import router as webhooks_router
from carevault.workspaces.router import router as workspace_router

API_PREFIX = "/api/v1"
# Every router here holds ApiRoutes (carevault.api.strict_params): each refuses query
# parameters it does not declare (400 unknown_parameter); tests/unit/test_database_route.py
# checks. The app includes each under API_PREFIX itself (include_api): FastAPI checks a tree
# of included routers for changes on every request, so an intermediate router would cost
# every API request a walk over all of these. They are tried in this order, one by one: the
# busiest come first (a note read or an autosave every few seconds per clinician, then the
# client list and the calendar). The prefixes are all distinct, so the order changes which
# route is tried first and nothing else.
API_ROUTERS: tuple[APIRouter, ...] = (
    notes_router,
    clients_router,
    appointments_router,
    auth_router,
    users_router,
    clinicians_router,
    audit_router,
    events_router,
    health_details_router,
    workspace_router,
    webhooks_router,
    service_accounts_router,
    exports_router,
)


def include_api(app: FastAPI) -> None:
    for router in API_ROUTERS:
        app.include_router(router, prefix=API_PREFIX)
