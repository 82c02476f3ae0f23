"""Refuse query parameters an endpoint does not declare.

A misspelled filter (`clientid` for `client_id`) used to be ignored, so the request answered
with every record the filter was meant to exclude, and each was audited as a real read. Every
API route now checks the query string against the parameters it declares (its own and its
dependencies'), before any other work, and refuses the rest with 400 `unknown_parameter`.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response, params
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from carevault.api.dependencies import DatabaseRoute
from carevault.api.errors import ApiError
from carevault.core.fields import field_path

_allowed_by_route: dict[int, tuple[frozenset[str], list[str]]] = {}


def allowed_query_parameters(route: APIRoute) -> tuple[frozenset[str], list[str]]:
    """The query parameter names a route accepts (aliases, as clients spell them), and the
    sorted ones it documents. A route may accept a hidden parameter only to refuse it with a
    more specific error (`GET /clients?q=` says where search moved)."""
    cached = _allowed_by_route.get(id(route))
    if cached is None:
        declared = _query_fields(route.dependant)
        documented = sorted({name for name, shown in declared if shown})
        cached = (frozenset(name for name, _ in declared), documented)
        _allowed_by_route[id(route)] = cached
    return cached


def _query_fields(dependant: Dependant) -> set[tuple[str, bool]]:
    """(name, documented) of the query parameters of a dependant and everything it depends
    on. A parameter model (`Annotated[Model, Query()]`) would stand for its fields: refuse
    to guess."""
    fields: set[tuple[str, bool]] = set()
    for field in dependant.query_params:
        info = field.field_info
        if not isinstance(info, params.Query):
            raise TypeError(f"unsupported query parameter declaration {field.name!r}")
        fields.add((field.alias, info.include_in_schema))
    for sub in dependant.dependencies:
        fields |= _query_fields(sub)
    return fields


class ApiRoute(DatabaseRoute):
    """A route of the versioned API: a query parameter it does not declare is refused with
    400 `unknown_parameter` before any other work. Checked here rather than in a router
    dependency, which FastAPI would resolve (and cache-key) on every request."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        answer = super().get_route_handler()

        async def refuse_unknown_then_answer(request: Request) -> Response:
            if request.scope["query_string"]:
                refuse_unknown_query_parameters(request, self)
            return await answer(request)

        return refuse_unknown_then_answer


def refuse_unknown_query_parameters(request: Request, route: APIRoute) -> None:
    """400 for any query parameter `route` does not declare."""
    allowed, documented = allowed_query_parameters(route)
    unknown = sorted({name for name in request.query_params if name not in allowed})
    if unknown:
        listed = ", ".join(documented) or "none"
        raise ApiError(
            400,
            "unknown_parameter",
            f"unknown query parameter {unknown[0]!r}; this endpoint accepts: {listed}",
            details={
                "field": field_path(("query", unknown[0])),
                "unknown": unknown,
                "allowed": documented,
            },
        )
