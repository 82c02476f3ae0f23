"""Audit checkpoints in an S3 bucket with object lock: moto in server mode, over real HTTP."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import boto3
import pytest

from carevault.audit.checkpoints import CHECKPOINT_FILE
from tests.support.audit_trail import event_ids, produce_events, superuser_script, verify
from tests.support.cli import carevault
from tests.support.db import NewDatabase
from tests.support.http import ApiContext, running_api


@pytest.fixture
async def s3_api(
    new_database: NewDatabase, data_dir: Path, moto_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[ApiContext, str]]:
    bucket = f"audit-{uuid.uuid4().hex[:12]}"
    s3 = boto3.client("s3", region_name="us-east-1", endpoint_url=moto_endpoint)
    s3.create_bucket(Bucket=bucket, ObjectLockEnabledForBucket=True)
    for name, value in {
        "CAREVAULT_AUDIT_CHECKPOINT_URL": f"s3://{bucket}/carevault",
        "CAREVAULT_AWS_ENDPOINT_URL": moto_endpoint,
        "CAREVAULT_AWS_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    async with running_api(await new_database(), data_dir, audit_sealer=False) as context:
        yield context, bucket


async def test_checkpoints_go_to_s3_under_object_lock_and_catch_a_deleted_tail(
    s3_api: tuple[ApiContext, str], moto_endpoint: str
) -> None:
    api, bucket = s3_api
    workspace = await produce_events(api, 2)
    code, output = await carevault(api, "audit", "checkpoint")
    assert code == 0, output
    assert f"to s3://{bucket}/carevault." in output
    s3 = boto3.client("s3", region_name="us-east-1", endpoint_url=moto_endpoint)
    objects = s3.list_objects_v2(Bucket=bucket, Prefix="carevault/")["Contents"]
    assert len(objects) == 1
    head = s3.head_object(Bucket=bucket, Key=objects[0]["Key"])
    assert head["ObjectLockMode"] == "COMPLIANCE"
    assert head["ObjectLockRetainUntilDate"].year >= head["LastModified"].year + 6
    assert not (api.settings.data_dir / CHECKPOINT_FILE).exists()

    code, output = await verify(api)
    assert code == 0 and "Every chain is intact." in output
    ids = await event_ids(api, workspace)
    await superuser_script(
        api,
        "SET session_replication_role = replica;"
        f"DELETE FROM audit_seals WHERE workspace_id = '{workspace}';"
        f"DELETE FROM audit_events WHERE workspace_id = '{workspace}';",
    )
    code, output = await verify(api)
    assert code == 1
    assert f"BROKEN: workspace {workspace}: tail deleted: the checkpoint of " in output
    assert f"up to event {ids[-1]} (seal 1); the database holds no seal of it" in output
