"""The key ring in AWS Secrets Manager (boto3): the production key provider.

A submodule of its own so that `carevault.crypto` imports without boto3; only a process
configured with `CAREVAULT_KEY_PROVIDER=aws` imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from carevault.crypto.errors import KeyRingError, KeyRingUnavailable
from carevault.crypto.keyring import KeyRing

if TYPE_CHECKING:
    from mypy_boto3_secretsmanager import SecretsManagerClient


class SecretsManagerProvider:
    """One Secrets Manager secret holds the ring as JSON (docs/reference/key-formats.md)."""

    def __init__(
        self,
        secret_id: str,
        *,
        region: str | None = None,
        endpoint_url: str | None = None,
        client: SecretsManagerClient | None = None,
    ) -> None:
        self.secret_id = secret_id
        self.region = region
        self.endpoint_url = endpoint_url
        self._client = client or boto3.client(
            "secretsmanager",
            region_name=region,
            endpoint_url=endpoint_url,
            # Short timeouts: a refresh that hangs must not delay noticing an outage.
            config=Config(connect_timeout=3, read_timeout=5, retries={"max_attempts": 2}),
        )

    @property
    def client(self) -> SecretsManagerClient:
        return self._client

    @property
    def description(self) -> str:
        where = f" at {self.endpoint_url}" if self.endpoint_url else ""
        return f"AWS Secrets Manager secret {self.secret_id}{where}"

    def load(self) -> KeyRing:
        with _secrets_manager_errors(f"read {self.secret_id}"):
            response = self._client.get_secret_value(SecretId=self.secret_id)
        if "SecretString" not in response:
            raise KeyRingError(f"secret {self.secret_id} has no SecretString")
        return KeyRing.from_json(response["SecretString"])

    def store(self, ring: KeyRing) -> None:
        with _secrets_manager_errors(f"update {self.secret_id}"):
            self._client.put_secret_value(SecretId=self.secret_id, SecretString=ring.to_json())

    def initialize(self, before_create: Callable[[], None] | None = None) -> tuple[KeyRing, bool]:
        try:
            return self.load(), False
        except KeyRingUnavailable as missing:
            if "ResourceNotFoundException" not in str(missing):
                raise
        if before_create is not None:
            before_create()
        ring = KeyRing.generate()
        with _secrets_manager_errors(f"create {self.secret_id}"):
            self._client.create_secret(Name=self.secret_id, SecretString=ring.to_json())
        return ring, True


@contextmanager
def _secrets_manager_errors(action: str) -> Iterator[None]:
    """Turn boto errors into KeyRingUnavailable with the AWS error code and nothing else."""
    try:
        yield
    except ClientError as exc:
        code = exc.response.get("Error", {}).get("Code", "error")
        raise KeyRingUnavailable(f"Secrets Manager could not {action}: {code}") from None
    except BotoCoreError as exc:
        raise KeyRingUnavailable(
            f"Secrets Manager unreachable ({type(exc).__name__}) trying to {action}"
        ) from None
