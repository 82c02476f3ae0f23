"""Entry point for ASGI servers: `uvicorn --factory carevault.api.main:app_from_environment`."""

from __future__ import annotations

from fastapi import FastAPI

from carevault.api.app import create_app
from carevault.config import get_settings
from carevault.observability.logging import configure_logging
from carevault.runtime import resolve_database_url


def app_from_environment() -> FastAPI:
    settings = get_settings()
    configure_logging(settings.log_level, json_format=settings.json_logs)
    return create_app(settings, database_url=resolve_database_url(settings))
