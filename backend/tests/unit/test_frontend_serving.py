from pathlib import Path

import httpx
from fastapi import FastAPI

from carevault.api.errors import install_error_handlers
from carevault.api.frontend import PACKAGED_DIST, SOURCE_DIST, built_ui, mount_frontend


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


def test_a_checkout_build_comes_first_then_the_copy_inside_the_package(tmp_path: Path) -> None:
    checkout, packaged = tmp_path / "frontend-dist", tmp_path / "web"
    for dist in (checkout, packaged):
        dist.mkdir()
    (packaged / "index.html").write_text("packaged")
    # An installed wheel: no checkout beside it, the build the image put in the package.
    assert built_ui((checkout, packaged)) == packaged
    (checkout / "index.html").write_text("checkout")
    assert built_ui((checkout, packaged)) == checkout
    # Neither built: the checkout's place, which the "not built" page tells how to fill.
    assert built_ui((tmp_path / "a", tmp_path / "b")) == tmp_path / "a"


def test_the_packaged_ui_is_package_data_of_the_wheel() -> None:
    """The image copies the UI build to carevault/web before building the wheel; the wheel
    carries it only if pyproject's package-data names that directory."""
    import tomllib

    import carevault

    package = Path(carevault.__file__).resolve().parent
    assert PACKAGED_DIST.parent == package
    root = package.parents[1]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["carevault"]
    assert f"{PACKAGED_DIST.name}/**/*" in globs
    assert root / "frontend" / "dist" == SOURCE_DIST


async def test_unknown_api_fhir_and_well_known_paths_are_json_404s(tmp_path: Path) -> None:
    """Issue 25: an integrator with a wrong base URL got the UI's page with 200."""
    (tmp_path / "index.html").write_text("<div id=app></div>")
    paths = (
        "/api/v1/nope",
        "/api",
        "/api/",
        "/fhir/Patient",
        "/fhir",
        "/.well-known/x",
        "/.well-known",
        "/metadata",
    )
    async with build(tmp_path) as client:
        answers = {path: await client.get(path) for path in paths}
        ui = await client.get("/clients/123")
    for path, answer in answers.items():
        assert answer.status_code == 404, path
        assert answer.headers["content-type"].startswith("application/json"), path
        assert answer.json()["error"]["code"] == "not_found", path
        assert answer.json()["error"]["message"] == "no such route; the API is under /api/v1"
    assert ui.status_code == 200 and "id=app" in ui.text
