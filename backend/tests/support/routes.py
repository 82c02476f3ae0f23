"""The app's routes, for tests that walk every one of them."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import FastAPI
from fastapi.routing import APIRoute, iter_route_contexts


def api_routes(app: FastAPI) -> Iterator[tuple[str, str, APIRoute]]:
    """(method, path template, route) of every FastAPI route of the app."""
    for context in iter_route_contexts(list(app.routes)):
        route = context.original_route
        if isinstance(route, APIRoute) and context.path_format is not None:
            for method in sorted(context.methods or ()):
                yield method, context.path_format, route
