import pytest
from pydantic import ValidationError

from carevault.config import KeyProviderName, Settings
from carevault.crypto import PhiBackend


def test_development_defaults() -> None:
    settings = Settings(_env_file=None)
    assert settings.key_provider is KeyProviderName.LOCAL
    assert settings.phi_backend is PhiBackend.AESGCM
    assert settings.session_idle_minutes == 15
    assert settings.resolved_keyring_file.name == "keyring.json"


def test_production_refuses_the_local_key_provider_with_what_to_set() -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(env="production", database_url="postgresql+asyncpg://db/cv")
    assert "CAREVAULT_KEY_PROVIDER=aws" in str(caught.value)


def test_production_refuses_missing_database_url() -> None:
    with pytest.raises(ValidationError, match="CAREVAULT_DATABASE_URL"):
        Settings(env="production", key_provider="aws")


def test_production_env_provider_needs_the_ring() -> None:
    with pytest.raises(ValidationError, match="CAREVAULT_KEYRING_JSON"):
        Settings(env="production", key_provider="env", database_url="postgresql+asyncpg://db/x")


def test_production_with_aws_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAREVAULT_ENV", "production")
    monkeypatch.setenv("CAREVAULT_KEY_PROVIDER", "aws")
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", "postgresql+asyncpg://db/cv")
    assert Settings().is_production


def test_ttl_must_be_positive() -> None:
    with pytest.raises(ValidationError):
        Settings(key_cache_ttl_seconds=0)


@pytest.mark.parametrize("blank", ["", "   ", "\n"])
def test_a_set_but_empty_metrics_token_is_refused_at_start(
    monkeypatch: pytest.MonkeyPatch, blank: str
) -> None:
    """`CAREVAULT_METRICS_TOKEN=` would otherwise open /metrics to `Authorization: Bearer `."""
    monkeypatch.setenv("CAREVAULT_METRICS_TOKEN", blank)
    with pytest.raises(ValidationError, match="CAREVAULT_METRICS_TOKEN is set but empty"):
        Settings(_env_file=None)
    monkeypatch.setenv("CAREVAULT_METRICS_TOKEN", " a-real-token\n")
    token = Settings(_env_file=None).metrics_token
    assert token is not None and token.get_secret_value() == "a-real-token"
    monkeypatch.delenv("CAREVAULT_METRICS_TOKEN")
    assert Settings(_env_file=None).metrics_token is None  # unset: /metrics stays closed
