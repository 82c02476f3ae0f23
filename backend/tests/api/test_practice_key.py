"""Owners move their practice onto its own KMS key through the API (bring your own key), and
a disabled key answers 503 with a code naming the cause; against moto's KMS over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
import pytest

from carevault.auth.models import Role
from carevault.config import KeyProviderName, Settings
from carevault.crypto import current_cipher
from carevault.crypto.kms import KmsKeys, KmsProvider
from carevault.runtime import DatabaseInstallationKeys
from carevault.workspaces.keys import load_workspace_keys
from tests.support import factories
from tests.support.db import NewDatabase
from tests.support.http import PASSWORD, ApiContext, error_of, running_api


@dataclass
class KmsApi:
    context: ApiContext
    admin: Any
    installation: str


@pytest.fixture
async def kms_api(
    new_database: NewDatabase, moto_endpoint: str, tmp_path: Path
) -> AsyncIterator[KmsApi]:
    url = await new_database()
    admin = boto3.client("kms", region_name="us-east-1", endpoint_url=moto_endpoint)
    key = admin.create_key()["KeyMetadata"]["Arn"]
    settings: dict[str, Any] = {
        "key_provider": KeyProviderName.KMS,
        "kms_key_id": key,
        "aws_region": "us-east-1",
        "aws_endpoint_url": moto_endpoint,
    }
    keys = KmsKeys(key, region="us-east-1", endpoint_url=moto_endpoint)
    KmsProvider(keys, DatabaseInstallationKeys(Settings(**settings), url)).initialize()
    async with running_api(url, tmp_path, audit_sealer=False, **settings) as context:
        yield KmsApi(context, admin, key)


def remote() -> KmsKeys:
    keys = current_cipher().ring.remote
    assert isinstance(keys, KmsKeys)
    return keys


async def test_an_owner_brings_a_key_and_disabling_it_cuts_the_practice_off(
    kms_api: KmsApi,
) -> None:
    api = kms_api.context
    space, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.sessions() as db, db.begin():
        await load_workspace_keys(db, space.id)
        client_id = (await factories.client(db, space, first_name="Byok")).id
    own = kms_api.admin.create_key(Description="the practice's own")["KeyMetadata"]

    async with api.signed_in(owner) as http:
        shown = await http.get("/workspace/encryption-key")
        assert shown.status_code == 200, shown.text
        assert shown.json() == {
            "provider": "kms",
            "kms_key_id": kms_api.installation,
            "own_key": False,
            "state": "Enabled",
        }
        assert (await http.post("/auth/reauth", json={"password": PASSWORD})).status_code == 200
        moved = await http.put("/workspace/encryption-key", json={"kms_key_id": own["Arn"]})
        assert moved.status_code == 200, moved.text
        assert moved.json()["own_key"] is True and moved.json()["kms_key_id"] == own["Arn"]
        read = await http.get(f"/clients/{client_id}")
        assert read.status_code == 200 and read.json()["first_name"] == "Byok"

        unknown = await http.put(
            "/workspace/encryption-key",
            json={"kms_key_id": "arn:aws:kms:us-east-1:123456789012:key/does-not-exist"},
        )
        assert unknown.status_code == 422
        assert error_of(unknown)["code"] == "kms_key_unusable"

    async with api.signed_in(clinician) as http:
        refused = await http.get("/workspace/encryption-key")
        assert refused.status_code == 403  # owners only

    kms_api.admin.disable_key(KeyId=own["KeyId"])
    current_cipher().data_keys.clear()  # the cache expires
    remote().forget_state()
    async with api.signed_in(owner) as http:
        cut = await http.get(f"/clients/{client_id}")
        assert cut.status_code == 503, cut.text
        assert error_of(cut)["code"] == "kms_key_disabled"
        assert int(cut.headers["Retry-After"]) > 0
        assert "Byok" not in cut.text
    async with api.signed_in(owner) as http:
        # The key status answers while the practice's data does not.
        shown = await http.get("/workspace/encryption-key")
        assert shown.status_code == 200 and shown.json()["state"] == "Disabled"
        ready = (await http.get("/system/readiness")).json()
    kms = ready["key_ring"]["kms"]
    assert ready["key_ring"]["provider"] == "kms"
    assert {k["key_id"]: k["state"] for k in kms["keys"]}[own["Arn"]] == "Disabled"
    assert kms["practices_refused"] == {"kms_key_disabled": 1}
    assert "kms_practice_key_unusable" in ready["reasons"]

    kms_api.admin.enable_key(KeyId=own["KeyId"])
    remote().forget_state()
    async with api.signed_in(owner) as http:
        back = await http.get(f"/clients/{client_id}")
        assert back.status_code == 200 and back.json()["first_name"] == "Byok"


async def test_without_kms_the_practice_key_cannot_be_set(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users()
    async with api.signed_in(owner) as http:
        shown = await http.get("/workspace/encryption-key")
        assert shown.json() == {
            "provider": "local",
            "kms_key_id": None,
            "own_key": False,
            "state": None,
        }
        await http.post("/auth/reauth", json={"password": PASSWORD})
        refused = await http.put("/workspace/encryption-key", json={"kms_key_id": "alias/x"})
        assert refused.status_code == 409
        assert error_of(refused)["code"] == "kms_not_configured"
