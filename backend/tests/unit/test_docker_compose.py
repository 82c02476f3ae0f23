"""docker-compose.yml stays in step with the Settings class (no Docker needed to check)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from pydantic import ValidationError

from carevault.config import Environment, KeyProviderName, Settings

COMPOSE_FILE = Path(__file__).resolve().parents[3] / "docker-compose.yml"
PREFIX = "CAREVAULT_"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))
    assert isinstance(document, dict), "docker-compose.yml must be a mapping"
    return document


def environment_of(service: dict[str, Any]) -> dict[str, str]:
    """A service's environment as a dict, from either compose form (mapping or KEY=VALUE list)."""
    raw = service.get("environment") or {}
    if isinstance(raw, dict):
        return {str(key): "" if value is None else str(value) for key, value in raw.items()}
    result: dict[str, str] = {}
    for item in raw:
        key, _, value = str(item).partition("=")
        result[key] = value
    return result


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


def test_secrets_endpoint_points_at_the_secrets_service(compose: dict[str, Any]) -> None:
    endpoint = urlsplit(
        carevault_variables(compose["services"]["app"])["CAREVAULT_AWS_ENDPOINT_URL"]
    )
    assert endpoint.scheme == "http"
    assert endpoint.hostname == "secrets"
    assert endpoint.port == 5000  # moto's server image listens on 5000
    container_ports = {
        port.rsplit(":", 1)[-1] for port in published_ports(compose["services"]["secrets"])
    }
    assert "5000" in container_ports


def test_app_waits_for_its_dependencies(compose: dict[str, Any]) -> None:
    depends_on = compose["services"]["app"]["depends_on"]
    assert depends_on["db"]["condition"] == "service_healthy"
    assert "secrets" in depends_on
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
