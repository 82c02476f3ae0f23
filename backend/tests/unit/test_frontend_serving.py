from pathlib import Path

import httpx
from fastapi import FastAPI

from carevault.api.errors import install_error_handlers
from carevault.api.frontend import mount_frontend


def build(dist: Path) -> httpx.AsyncClient:
    app = FastAPI()
    install_error_handlers(app)
    mount_frontend(app, dist)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")


async def test_spa_routes_load_the_shell_and_assets_are_served(tmp_path: Path) -> None:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<div id=app></div>")
    (tmp_path / "assets" / "app.js").write_text("console.log(1)")
    async with build(tmp_path) as client:
        shell = await client.get("/calendar/2026-11-23")
        asset = await client.get("/assets/app.js")
        escape = await client.get("/assets/../../etc/passwd")
        api = await client.get("/api/v1/nothing")
    assert shell.status_code == 200 and "id=app" in shell.text
    assert shell.headers["cache-control"] == "no-cache"
    assert asset.text == "console.log(1)" and "immutable" in asset.headers["cache-control"]
    assert "passwd" not in escape.text and "id=app" in escape.text
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"


async def test_without_a_build_the_root_explains_how_to_get_one(tmp_path: Path) -> None:
    async with build(tmp_path / "missing") as client:
        page = await client.get("/")
    assert page.status_code == 200 and "make run" in page.text
