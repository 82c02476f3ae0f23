"""Dockerfile and docker-compose.yml agree with each other and with the code (no Docker
needed): stages and build targets, paths, settings, volumes and the start sequence. That the
sequence survives a restart of the secrets store is checked against real processes in
tests/e2e/test_compose_sequence.py."""

from __future__ import annotations

import copy
import json
import re
import shlex
import tomllib
from importlib.metadata import version
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import pytest
from pydantic import ValidationError

from carevault.config import Environment, KeyProviderName, Settings
from tests.support.compose import (
    ROOT,
    Dockerfile,
    command_steps,
    environment_of,
    load_compose,
    parse_dockerfile,
    volume_mounts,
)

PREFIX = "CAREVAULT_"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return load_compose()


@pytest.fixture(scope="module")
def dockerfile() -> Dockerfile:
    return parse_dockerfile()


def carevault_variables(service: dict[str, Any]) -> dict[str, str]:
    return {k: v for k, v in environment_of(service).items() if k.startswith(PREFIX)}


def unknown_settings(service: dict[str, Any]) -> list[str]:
    """CAREVAULT_ variables that name no Settings field (pydantic-settings would ignore them)."""
    fields = set(Settings.model_fields)
    return sorted(
        name
        for name in carevault_variables(service)
        if name.removeprefix(PREFIX).lower() not in fields
    )


def settings_from(variables: dict[str, str]) -> Settings:
    values: dict[str, Any] = {name.removeprefix(PREFIX).lower(): v for name, v in variables.items()}
    return Settings(**values)


def published_ports(service: dict[str, Any]) -> list[str]:
    return [str(port) for port in service.get("ports", [])]


def test_services_are_present(compose: dict[str, Any]) -> None:
    assert {"db", "secrets", "app"} <= set(compose["services"])


def test_db_is_postgres_16(compose: dict[str, Any]) -> None:
    image = compose["services"]["db"]["image"]
    name, _, tag = image.partition(":")
    assert name in {"postgres", "docker.io/library/postgres", "library/postgres"}
    assert tag == "16" or tag.startswith("16.") or tag.startswith("16-")


def test_ports_are_published_on_loopback_only(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        for port in published_ports(service):
            assert port.startswith("127.0.0.1:"), f"{name} publishes {port} beyond loopback"


def test_app_sets_only_known_settings(compose: dict[str, Any]) -> None:
    app = compose["services"]["app"]
    assert carevault_variables(app), "the app service sets no CAREVAULT_ variables"
    assert unknown_settings(app) == []


def test_unknown_variable_is_reported(compose: dict[str, Any]) -> None:
    app = copy.deepcopy(compose["services"]["app"])
    raw = app.get("environment") or {}
    if isinstance(raw, dict):
        raw["CAREVAULT_NOT_A_SETTING"] = "1"
    else:
        raw.append("CAREVAULT_NOT_A_SETTING=1")
    app["environment"] = raw
    assert unknown_settings(app) == ["CAREVAULT_NOT_A_SETTING"]


@pytest.mark.parametrize(
    "environment",
    [
        {"CAREVAULT_ENV": "production", "CAREVAULT_DATABSE_URL": "x"},
        ["CAREVAULT_ENV=production", "CAREVAULT_DATABSE_URL=x", "OTHER=1"],
    ],
    ids=["mapping", "list"],
)
def test_both_environment_forms_are_read(environment: Any) -> None:
    service = {"environment": environment}
    assert carevault_variables(service) == {
        "CAREVAULT_ENV": "production",
        "CAREVAULT_DATABSE_URL": "x",
    }
    assert unknown_settings(service) == ["CAREVAULT_DATABSE_URL"]


def test_database_urls_point_at_the_db_service(compose: dict[str, Any]) -> None:
    variables = carevault_variables(compose["services"]["app"])
    owner = urlsplit(variables["CAREVAULT_MIGRATION_DATABASE_URL"])
    runtime = urlsplit(variables["CAREVAULT_DATABASE_URL"])
    db = environment_of(compose["services"]["db"])
    for url in (owner, runtime):
        assert url.scheme == "postgresql+asyncpg"
        assert url.hostname == "db"
        assert (url.port or 5432) == 5432
        assert url.path.lstrip("/") == db["POSTGRES_DB"]
    # Migrations as the owner the image creates; the app as its own, lesser role.
    assert owner.username == db["POSTGRES_USER"]
    assert owner.password == db["POSTGRES_PASSWORD"]
    assert runtime.username != owner.username and runtime.password


def option(words: list[str], name: str) -> str:
    return words[words.index(name) + 1]


def test_secrets_endpoint_is_where_the_secrets_stage_listens(
    compose: dict[str, Any], dockerfile: Dockerfile
) -> None:
    endpoint = urlsplit(
        carevault_variables(compose["services"]["app"])["CAREVAULT_AWS_ENDPOINT_URL"]
    )
    assert endpoint.scheme == "http"
    assert endpoint.hostname == "secrets"
    stage = dockerfile.stage(compose["services"]["secrets"]["build"]["target"])
    command = stage.exec_form("CMD")
    assert endpoint.port == int(option(command, "--port"))
    assert option(command, "--host") == "0.0.0.0"  # noqa: S104 (reached over the compose network)
    assert str(endpoint.port) in " ".join(stage.all("EXPOSE")).split()
    # The healthcheck asks the same port.
    assert f"127.0.0.1:{endpoint.port}/" in str(compose["services"]["secrets"]["healthcheck"])


def test_the_key_ring_is_reachable_only_inside_the_compose_network(
    compose: dict[str, Any],
) -> None:
    assert published_ports(compose["services"]["secrets"]) == []


def test_app_waits_for_its_dependencies(compose: dict[str, Any]) -> None:
    depends_on = compose["services"]["app"]["depends_on"]
    assert depends_on["db"]["condition"] == "service_healthy"
    # Healthy, not started: the journal is replayed before the server answers.
    assert depends_on["secrets"]["condition"] == "service_healthy"
    assert "pg_isready" in str(compose["services"]["db"]["healthcheck"]["test"])


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No CAREVAULT_ variables from the machine running the tests leak into Settings."""
    for name in Settings.model_fields:
        monkeypatch.delenv(PREFIX + name.upper(), raising=False)
    return monkeypatch


def test_app_settings_pass_production_validation(
    compose: dict[str, Any], clean_environment: pytest.MonkeyPatch
) -> None:
    settings = settings_from(carevault_variables(compose["services"]["app"]))
    assert settings.env is Environment.PRODUCTION
    assert settings.key_provider is KeyProviderName.AWS
    assert settings.host == "0.0.0.0"  # noqa: S104 (inside the container, published on loopback)
    assert settings.port == 8000


def test_production_validation_is_exercised(
    compose: dict[str, Any], clean_environment: pytest.MonkeyPatch
) -> None:
    variables = carevault_variables(compose["services"]["app"])
    del variables["CAREVAULT_DATABASE_URL"]
    with pytest.raises(ValidationError, match="CAREVAULT_DATABASE_URL is unset"):
        settings_from(variables)


def test_app_settings_from_the_environment(
    compose: dict[str, Any], clean_environment: pytest.MonkeyPatch
) -> None:
    for name, value in carevault_variables(compose["services"]["app"]).items():
        clean_environment.setenv(name, value)
    settings = Settings()
    assert settings.is_production
    assert settings.aws_endpoint_url == "http://secrets:5000"
    assert settings.key_cache_ttl_seconds == 60


# --- Dockerfile stages and compose services agree --------------------------------------------


def test_every_build_target_is_a_stage_and_app_is_the_default(
    compose: dict[str, Any], dockerfile: Dockerfile
) -> None:
    assert dockerfile.stage_names == ["ui", "wheel", "secrets", "app"]
    assert dockerfile.stage_names[-1] == "app"  # `docker build .` builds the app
    for name, service in compose["services"].items():
        build = service.get("build")
        if build is None:
            continue
        assert build["context"] == "."
        assert "dockerfile" not in build  # the repository's Dockerfile
        assert build["target"] in dockerfile.stage_names, name
    assert compose["services"]["app"]["build"]["target"] == "app"
    assert compose["services"]["secrets"]["build"]["target"] == "secrets"


def test_base_images_match_the_project(dockerfile: Dockerfile) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    minimum = re.fullmatch(r">=(\d+)\.(\d+)", project["requires-python"])
    assert minimum is not None
    engines = json.loads((ROOT / "frontend" / "package.json").read_text())["engines"]["node"]
    node_minimum = int(engines.removeprefix(">="))
    for stage in dockerfile.stages:
        image = dockerfile.base_image(stage)
        name, _, tag = image.partition(":")
        if name == "python":
            major, minor = (int(part) for part in tag.split("-")[0].split("."))
            assert (major, minor) >= (int(minimum[1]), int(minimum[2])), stage.name
            assert tag.endswith("-slim")
        else:
            assert name == "node" and int(tag.split("-")[0]) >= node_minimum, stage.name


def test_copied_sources_exist_and_reach_the_build_context(dockerfile: Dockerfile) -> None:
    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    for stage in dockerfile.stages:
        for source_stage, sources, _ in stage.copies():
            if source_stage is not None:
                assert (
                    source_stage
                    in dockerfile.stage_names[: dockerfile.stage_names.index(stage.name)]
                )
                continue
            for source in sources:
                assert (ROOT / source).exists(), f"{stage.name}: COPY {source}"
                assert source.rstrip("/") not in ignored, f"{stage.name}: {source} is ignored"


def test_the_ui_stage_builds_what_the_wheel_packages(dockerfile: Dockerfile) -> None:
    from carevault.api.frontend import PACKAGED_DIST

    ui = dockerfile.stage("ui")
    (workdir,) = ui.all("WORKDIR")
    runs = ui.all("RUN")
    assert any(run.startswith("npm ci") for run in runs)
    assert any(run.startswith("npm run build") for run in runs)
    # The UI's bill of materials comes from its lock, beside the build.
    assert any("npm sbom --sbom-format cyclonedx --omit dev --package-lock-only" in r for r in runs)
    scripts = json.loads((ROOT / "frontend" / "package.json").read_text())["scripts"]
    assert "vite build" in scripts["build"]
    assert "outDir: 'dist'" in (ROOT / "frontend" / "vite.config.ts").read_text()

    wheel = dockerfile.stage("wheel")
    (workdir_wheel,) = wheel.all("WORKDIR")
    from_ui = [(sources, dest) for stage, sources, dest in wheel.copies() if stage == "ui"]
    assert from_ui[0] == ([f"{workdir}/dist"], PACKAGED_DIST.relative_to(ROOT).as_posix())
    # The wheel is built from what pyproject.toml names: itself, its readme, the package; the
    # dependencies come from the lock, through uv (itself hash-checked).
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (where,) = config["tool"]["setuptools"]["packages"]["find"]["where"]
    copied = {source for stage, sources, _ in wheel.copies() if stage is None for source in sources}
    assert copied == {
        "pyproject.toml",
        config["project"]["readme"],
        f"{where}/carevault",
        "uv.lock",
        "requirements/uv.txt",
    }
    exports = [run for run in wheel.all("RUN") if "uv export" in run]
    assert exports and all("--frozen" in run for run in exports)
    assert any("--no-dev" in run and "requirements.txt" in run for run in exports)
    assert workdir_wheel == "/src"
    (build,) = [run for run in wheel.all("RUN") if "pip wheel" in run]
    assert "--no-deps" in build and build.rstrip().endswith(" .")


def test_the_app_installs_the_wheel_not_the_source_tree(dockerfile: Dockerfile) -> None:
    wheel_dir = shlex.split(
        next(run for run in dockerfile.stage("wheel").all("RUN") if "pip wheel" in run)
    )
    wheels = wheel_dir[wheel_dir.index("--wheel-dir") + 1]
    app = dockerfile.stage("app")
    copies = app.copies()
    assert [(stage, sources) for stage, sources, _ in copies] == [("wheel", [wheels])]
    target = copies[0][2]
    installs = [run for run in app.all("RUN") if "pip install" in run]
    assert len(installs) == 1
    # The locked dependencies, hash-checked, then the wheel without resolving anything more:
    # the image runs the bytes CI tested.
    assert f"pip install --require-hashes --no-deps -r {target}/requirements.txt" in installs[0]
    assert f"pip install --no-deps {target}/carevault-*.whl" in installs[0]
    assert " -e " not in installs[0] and "--editable" not in installs[0]
    assert app.exec_form("CMD")[0] == "carevault"
    assert app.all("USER") == ["carevault"]


def test_image_settings_are_real_settings_and_agree_with_compose(
    compose: dict[str, Any], dockerfile: Dockerfile
) -> None:
    fields = set(Settings.model_fields)
    image_env = dockerfile.stage("app").env()
    for name in image_env:
        if name.startswith(PREFIX):
            assert name.removeprefix(PREFIX).lower() in fields, name
    app = compose["services"]["app"]
    port = image_env["CAREVAULT_PORT"]
    assert carevault_variables(app)["CAREVAULT_PORT"] == port
    assert port in " ".join(dockerfile.stage("app").all("EXPOSE")).split()
    assert [p.rsplit(":", 1)[-1] for p in published_ports(app)] == [port]
    assert f"127.0.0.1:{port}/" in str(app["healthcheck"])


def test_the_moto_in_the_image_is_the_major_version_tested_here(dockerfile: Dockerfile) -> None:
    pinned = dockerfile.stage("secrets").args()["MOTO_VERSION"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", pinned), "pin moto exactly"
    assert pinned.split(".")[0] == version("moto").split(".")[0]
    (install,) = [run for run in dockerfile.stage("secrets").all("RUN") if "pip install" in run]
    assert '"moto[server]==${MOTO_VERSION}"' in install


def test_the_secrets_journal_lives_on_the_keyring_volume(
    compose: dict[str, Any], dockerfile: Dockerfile
) -> None:
    secrets = dockerfile.stage("secrets")
    command = secrets.exec_form("CMD")
    (script_copy,) = [(s, d) for stage, s, d in secrets.copies() if stage is None]
    assert script_copy == (["tools/persistent_moto.py"], command[1])
    journal = PurePosixPath(option(command, "--journal"))
    mounts = volume_mounts(compose["services"]["secrets"])
    assert mounts == {"keyring": str(journal.parent)}
    # The image makes that directory, private to the user the server runs as.
    (user,) = secrets.all("USER")
    assert f"install -d -o {user} -g {user} -m 0700 {journal.parent}" in " ".join(
        secrets.all("RUN")
    )


def test_audit_checkpoints_live_on_their_own_volume(
    compose: dict[str, Any], dockerfile: Dockerfile
) -> None:
    app = compose["services"]["app"]
    url = urlsplit(carevault_variables(app)["CAREVAULT_AUDIT_CHECKPOINT_URL"])
    assert url.scheme == "file"
    directory = PurePosixPath(url.path).parent
    assert volume_mounts(app) == {"audit-checkpoints": str(directory)}
    image = dockerfile.stage("app")
    (user,) = image.all("USER")
    assert f"install -d -o {user} -g {user} -m 0700 {directory}" in " ".join(image.all("RUN"))


def test_every_volume_is_declared_and_used(compose: dict[str, Any]) -> None:
    used = {name for service in compose["services"].values() for name in volume_mounts(service)}
    assert used == set(compose["volumes"]) == {"pgdata", "keyring", "audit-checkpoints"}


def test_every_service_restarts_by_itself(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        assert service.get("restart") == "unless-stopped", name


def test_the_start_sequence_is_migrate_find_the_ring_serve(compose: dict[str, Any]) -> None:
    steps = command_steps(compose["services"]["app"])
    assert [step[:3] for step in steps] == [
        ["carevault", "db", "upgrade"],
        ["carevault", "keys", "init"],
        ["exec", "carevault", "serve"],
    ]
    for step in steps:
        parse_carevault_command(step[1:] if step[0] == "exec" else step)


def parse_carevault_command(words: list[str]) -> None:
    """Resolve `carevault …` to its command and parse its options as the CLI does, without
    running it (`--help` is eager: it stops after parsing). Fails on an unknown command or
    option."""
    from typer.testing import CliRunner

    from carevault.cli import app as cli

    assert words[0] == "carevault"
    result = CliRunner().invoke(cli, [*words[1:], "--help"])
    assert result.exit_code == 0, f"{' '.join(words)}: {result.output}"


@pytest.mark.parametrize(
    "words",
    [["carevault", "keys", "initialise"], ["carevault", "serve", "--wokers", "2"]],
    ids=["unknown command", "unknown option"],
)
def test_a_step_the_cli_does_not_know_is_caught(words: list[str]) -> None:
    with pytest.raises(AssertionError, match="No such"):
        parse_carevault_command(words)
