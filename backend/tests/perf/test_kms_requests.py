"""The note read with CAREVAULT_KEY_PROVIDER=kms (moto's KMS over HTTP): a warm practice
makes no KMS call on the request path, so the read holds the same budget as with a ring."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterator

import boto3
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from carevault.config import KeyProviderName, Settings
from carevault.crypto import current_cipher
from carevault.crypto.kms import KmsKeys, KmsProvider
from carevault.runtime import DatabaseInstallationKeys
from tests.perf.interleave import Contender, run_interleaved
from tests.perf.requests_support import InProcessApp, Practice, seed_practice
from tests.support.db import PgServer, admin_execute


@pytest.fixture(scope="module")
def served_with_kms(
    pg_server: PgServer,
    template_database: str,
    moto_endpoint: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[InProcessApp, Practice]]:
    name = f"cv_perf_kms_{uuid.uuid4().hex[:8]}"
    app: InProcessApp | None = None
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    try:
        url = pg_server.url(name)
        admin = boto3.client("kms", region_name="us-east-1", endpoint_url=moto_endpoint)
        key = admin.create_key()["KeyMetadata"]["Arn"]
        settings = {
            "key_provider": KeyProviderName.KMS,
            "kms_key_id": key,
            "aws_region": "us-east-1",
            "aws_endpoint_url": moto_endpoint,
        }
        keys = KmsKeys(key, region="us-east-1", endpoint_url=moto_endpoint)
        KmsProvider(keys, DatabaseInstallationKeys(Settings(**settings), url)).initialize()
        app = InProcessApp(url, tmp_path_factory.mktemp("kms-data"), **settings)
        practice = app.run(seed_practice(app, 100, seed=3))
        yield app, practice
    finally:
        if app is not None:
            app.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _read(app: InProcessApp, path: str, practice: Practice | None) -> Callable[[], None]:
    headers = practice.auth if practice is not None else []

    def call() -> None:
        answer = app.run(app.call("GET", path, headers))
        assert answer.status == 200, answer.body[:300]

    return call


# The process's CPU clock, as test_requests.py times requests (see its `cpu`).
@pytest.mark.benchmark(group="requests: note with KMS (server CPU)", timer=time.process_time)
def test_kms_note_requests(
    benchmark: BenchmarkFixture,
    request: pytest.FixtureRequest,
    served_with_kms: tuple[InProcessApp, Practice],
) -> None:
    app, practice = served_with_kms
    app.reinstall_cipher()
    remote = current_cipher().ring.remote
    assert isinstance(remote, KmsKeys)
    contenders: list[Contender] = [
        ("health", _read(app, "/health", None)),
        ("read", _read(app, f"/api/v1/sessions/{practice.note['id']}", practice)),
    ]
    for _, call in contenders:  # warm: the practice's keys opened once by KMS
        for _ in range(20):
            call()
    before = dict(remote.calls)
    run_interleaved(benchmark, request, contenders, min_rounds=200)
    assert remote.calls == before  # not one KMS call on the request path of a warm practice
