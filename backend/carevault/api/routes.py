"""Every versioned API router, mounted under /api/v1."""

from __future__ import annotations

from fastapi import APIRouter

from carevault.appointments.router import router as appointments_router
from carevault.audit.router import router as audit_router
from carevault.auth.router import router as auth_router
from carevault.auth.router import users_router
from carevault.clients.router import router as clients_router
from carevault.health.router import details_router as health_details_router
from carevault.notes.router import router as notes_router
from carevault.workspaces.router import router as workspace_router

# Every route here is an ApiRoute (carevault.api.strict_params): it refuses query parameters
# it does not declare (400 unknown_parameter); tests/unit/test_database_route.py checks.
api_router = APIRouter(prefix="/api/v1")
# FastAPI tries routes in the order they were included, one by one, on every request: the
# busiest come first (a note read or an autosave every few seconds per clinician, then the
# client list and the calendar). The prefixes are all distinct, so the order changes which
# route is tried first and nothing else.
api_router.include_router(notes_router)
api_router.include_router(clients_router)
api_router.include_router(appointments_router)
api_router.include_router(auth_router)
api_router.include_router(users_router)
api_router.include_router(audit_router)
api_router.include_router(health_details_router)
api_router.include_router(workspace_router)
