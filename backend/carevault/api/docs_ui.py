"""The interactive API docs (/docs): Swagger UI served by the app itself.

FastAPI's own page loads Swagger UI from a CDN at a floating major version, with no
integrity check, and starts it with an inline script, so its page needed a policy allowing
the CDN and 'unsafe-inline' (and it stayed blank on a clinic network without internet). Here
the assets come from the `fastapi-offline` package, pinned exactly in pyproject.toml (so
they are in every install and wheel and change only with a deliberate upgrade:
`tests/unit/test_docs_ui.py` holds their digests), the start-up script is a file of its own,
and the page is served under the same policy as the web UI: this origin only, no inline
script or style. ReDoc (/redoc) is not served: it injects inline styles, and Swagger UI shows
the same document.
"""

from __future__ import annotations

import hashlib
import html
from functools import cache
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response

from carevault.api.errors import ApiError
from carevault.auth.permissions import PUBLIC, declare

DOCS_URL = "/docs"
ASSETS_URL = "/docs/assets"
ASSETS_PACKAGE = "fastapi_offline"  # ships swagger-ui-dist's files under static/
# What the page loads, by name; nothing else under ASSETS_URL is served.
SWAGGER_FILES = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon.png": "image/png",
}
INIT_SCRIPT = "docs-init.js"

# Swagger UI's start, as FastAPI's page does it (its default parameters), minus the inline
# <script>: the document's URL is read from the page's own <div>.
_INIT_JS = """\
"use strict";
(function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi-url"),
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
})();
"""


def assets_dir() -> Path:
    return Path(str(resources.files(ASSETS_PACKAGE) / "static"))


@cache
def _init_script_version() -> str:
    """Part of the script's URL, so that a changed script is never taken from a cache."""
    return hashlib.sha256(_INIT_JS.encode()).hexdigest()[:12]


def docs_page(title: str, openapi_url: str) -> str:
    title, openapi_url = html.escape(title), html.escape(openapi_url)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title} - API docs</title>
<link rel="icon" type="image/png" href="{ASSETS_URL}/favicon.png">
<link rel="stylesheet" href="{ASSETS_URL}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-openapi-url="{openapi_url}"></div>
<script src="{ASSETS_URL}/swagger-ui-bundle.js"></script>
<script src="{ASSETS_URL}/{INIT_SCRIPT}?v={_init_script_version()}"></script>
</body>
</html>
"""


def mount_docs(app: FastAPI) -> None:
    """GET /docs and its assets. The app is made with docs_url=None and redoc_url=None."""
    openapi_url = app.openapi_url or "/openapi.json"
    page = docs_page(app.title, openapi_url)

    @app.get(DOCS_URL, include_in_schema=False)
    @declare(PUBLIC)
    async def docs() -> HTMLResponse:
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    @app.get(ASSETS_URL + "/{name}", include_in_schema=False)
    @declare(PUBLIC)
    def docs_asset(name: str) -> Response:  # sync: the file checks run in a thread
        if name == INIT_SCRIPT:
            return Response(
                _INIT_JS,
                media_type="text/javascript; charset=utf-8",
                headers={"Cache-Control": "no-cache"},
            )
        media_type = SWAGGER_FILES.get(name)
        if media_type is None:
            raise ApiError(404, "not_found", "no such file")
        # Revalidated (ETag) rather than cached for good: the names do not change with
        # the package's version.
        return FileResponse(
            assets_dir() / name, media_type=media_type, headers={"Cache-Control": "no-cache"}
        )
