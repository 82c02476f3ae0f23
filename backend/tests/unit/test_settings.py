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
