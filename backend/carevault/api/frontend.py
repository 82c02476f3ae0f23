"""Serve the built web UI on the API's origin, with a single-page-app fallback.

Where the build is: a source checkout serves what `make ui` left in frontend/dist; an installed
wheel serves the copy its build put inside the package, at carevault/web (the Dockerfile does
that: a Node stage builds the UI, the wheel is built with it inside).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from carevault.api.errors import ApiError
from carevault.auth.permissions import PUBLIC, declare

SOURCE_DIST = Path(__file__).resolve().parents[3] / "frontend" / "dist"
PACKAGED_DIST = Path(__file__).resolve().parents[1] / "web"
NOT_THE_UI = ("api/", "fhir", "health", "metrics", "docs", "redoc", "openapi.json")

_NOT_BUILT = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>CareVault</title></head><body>
<h1>CareVault</h1><p>The web UI has not been built. <code>make run</code> builds it; the API is
running: see <a href="/docs">/docs</a> and <a href="/health/ready">/health/ready</a>.</p>
</body></html>"""


def built_ui(candidates: tuple[Path, ...] = (SOURCE_DIST, PACKAGED_DIST)) -> Path:
    """The first of `candidates` that holds a build (an index.html); the checkout's
    frontend/dist when none does, so the page that says how to build it names that."""
    for dist in candidates:
        if (dist / "index.html").is_file():
            return dist
    return candidates[0]


def mount_frontend(app: FastAPI, dist: Path | None = None) -> None:
    dist = built_ui() if dist is None else dist

    @app.get("/{path:path}", include_in_schema=False)
    @declare(PUBLIC)
    def web_ui(path: str, request: Request) -> Response:  # sync: file checks run in a thread
        if path.startswith(NOT_THE_UI):
            raise ApiError(404, "not_found", f"no route for /{path}")
        if "\x00" in path:
            # No file name holds a NUL byte; the filesystem calls would raise on it.
            raise ApiError(404, "not_found", "no such page")
        index = dist / "index.html"
        if not index.is_file():
            return HTMLResponse(_NOT_BUILT)
        candidate = (dist / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(dist.resolve()):
            cache = "public, max-age=31536000, immutable" if path.startswith("assets/") else None
            return FileResponse(candidate, headers={"Cache-Control": cache} if cache else None)
        # Client-side routes (/calendar, /notes/…) all load the app shell.
        return FileResponse(index, headers={"Cache-Control": "no-cache"})
