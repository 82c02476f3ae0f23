"""The KMS key provider against moto's KMS in server mode, over real HTTP through boto3."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import boto3
import pytest
from botocore.exceptions import EndpointConnectionError
from botocore.stub import Stubber
from sqlalchemy import event, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.failures import classify
from carevault.clients.models import Client
from carevault.crypto import DecryptionError, FieldCipher, StaticRing, install
from carevault.crypto.errors import KeyAccessRevoked, KeyRingError, KeyServiceUnavailable
from carevault.crypto.kms import (
    KMS_WRAPPED_FORMAT,
    KmsKeys,
    KmsProvider,
    encryption_context,
    frame,
    unframe,
)
from carevault.db.engine import create_engine
from carevault.workspaces.keys import load_workspace_keys, set_practice_key
from carevault.workspaces.models import BLIND_INDEX_KEY_VERSION, Workspace, WorkspaceKey
from tests.support import factories
from tests.support.db import NewDatabase


class MemoryKeys:
    """The installation-key store in memory (the database one is tested end to end)."""

    def __init__(self) -> None:
        self.rows: dict[str, bytes] = {}

    def read(self) -> Mapping[str, bytes]:
        return dict(self.rows)

    def add_missing(self, keys: Mapping[str, bytes]) -> Mapping[str, bytes]:
        for purpose, wrapped in keys.items():
            self.rows.setdefault(purpose, wrapped)
        return self.read()


@dataclass
class Kms:
    endpoint: str
    admin: Any
    key_arn: str
    key_id: str

    def new_key(self) -> tuple[str, str]:
        metadata = self.admin.create_key(Description="a practice's own key")["KeyMetadata"]
        return metadata["Arn"], metadata["KeyId"]

    def keys(self, **options: Any) -> KmsKeys:
        options.setdefault("state_ttl_seconds", 0.0)  # every check asks KMS: no waiting
        return KmsKeys(self.key_arn, region="us-east-1", endpoint_url=self.endpoint, **options)


@pytest.fixture
def kms(moto_endpoint: str) -> Kms:
    admin = boto3.client("kms", region_name="us-east-1", endpoint_url=moto_endpoint)
    metadata = admin.create_key(Description="CareVault installation key")["KeyMetadata"]
    return Kms(moto_endpoint, admin, metadata["Arn"], metadata["KeyId"])


def count_calls(keys: KmsKeys, operation: str) -> list[int]:
    calls = [0]

    def count(**_: object) -> None:
        calls[0] += 1

    keys.client.meta.events.register(f"before-call.kms.{operation}", count)
    return calls


async def first_name(db: AsyncSession, client_id: uuid.UUID) -> str:
    """Read and decrypt now (not from the session's identity map)."""
    return (await db.execute(select(Client.first_name).where(Client.id == client_id))).scalar_one()


async def practice_key(db: AsyncSession, workspace_id: uuid.UUID) -> str | None:
    return await db.scalar(select(Workspace.kms_key_id).where(Workspace.id == workspace_id))


WORKSPACE = uuid.UUID("8c6f0e43-0d5e-4a43-9a52-3f0b8f9b3c11").bytes


# The wrapped-key format and the encryption context ------------------------------------------


def test_a_generated_key_opens_only_under_its_own_context(kms: Kms) -> None:
    keys = kms.keys()
    plaintext, wrapped = keys.generate(WORKSPACE, "data", 1)
    assert len(plaintext) == 32
    assert wrapped[0] == KMS_WRAPPED_FORMAT
    assert unframe(wrapped)[0] == kms.key_arn  # the key is recorded with the ciphertext
    assert plaintext not in wrapped
    assert keys.unwrap(WORKSPACE, "data", 1, wrapped) == plaintext
    other_practice = uuid.uuid4().bytes
    for workspace, purpose, version in [
        (other_practice, "data", 1),  # moved to another practice
        (WORKSPACE, "blind-index", 1),  # passed off as another kind of key
        (WORKSPACE, "data", 2),  # another version
    ]:
        with pytest.raises(DecryptionError, match="encryption context") as refused:
            keys.unwrap(workspace, purpose, version, wrapped)
        assert plaintext.hex() not in str(refused.value)


def test_the_context_names_practice_purpose_and_version() -> None:
    assert encryption_context(WORKSPACE, "data", 3) == {
        "carevault:practice": "8c6f0e43-0d5e-4a43-9a52-3f0b8f9b3c11",
        "carevault:purpose": "data",
        "carevault:version": "3",
    }
    assert encryption_context(b"", "audit", 1)["carevault:practice"] == "installation"


def test_a_stored_key_id_that_is_not_the_one_kms_used_is_refused(kms: Kms) -> None:
    """Moto's Decrypt does not promise to check the key: the answer's KeyId is checked."""
    keys = kms.keys()
    _, wrapped = keys.generate(WORKSPACE, "data", 1)
    other_arn, _ = kms.new_key()
    _, blob = unframe(wrapped)
    forged = frame(other_arn, blob)
    with Stubber(keys.client) as stub:
        stub.add_response(
            "describe_key",
            {"KeyMetadata": {"KeyId": other_arn, "Arn": other_arn, "KeyState": "Enabled"}},
        )
        stub.add_response("decrypt", {"KeyId": kms.key_arn, "Plaintext": b"k" * 32})
        with pytest.raises(DecryptionError, match=r"where .* was expected"):
            keys.unwrap(WORKSPACE, "data", 1, forged)
    # And against moto itself the forged record is refused too, one way or the other.
    with pytest.raises((DecryptionError, KeyAccessRevoked)):
        keys.unwrap(WORKSPACE, "data", 1, forged)


def test_a_truncated_or_foreign_wrapped_key_is_refused(kms: Kms) -> None:
    keys = kms.keys()
    _, wrapped = keys.generate(WORKSPACE, "data", 1)
    for bad in (wrapped[:3], b"\x00" + wrapped[1:], wrapped[:10]):
        with pytest.raises(DecryptionError):
            keys.unwrap(WORKSPACE, "data", 1, bad)


# Disabled and deleted keys ---------------------------------------------------------------------


def test_a_disabled_key_is_refused_and_works_again_once_enabled(kms: Kms) -> None:
    keys = kms.keys()
    plaintext, wrapped = keys.generate(WORKSPACE, "data", 1)
    kms.admin.disable_key(KeyId=kms.key_id)
    with pytest.raises(KeyAccessRevoked) as refused:
        keys.unwrap(WORKSPACE, "data", 1, wrapped)
    assert refused.value.code == "kms_key_disabled"
    assert "disabled" in str(refused.value)
    failure = classify(refused.value)
    assert failure is not None
    assert (failure.status, failure.code) == (503, "kms_key_disabled")
    assert failure.retry_after > 0
    with pytest.raises(KeyAccessRevoked):
        keys.generate(WORKSPACE, "data", 1)
    kms.admin.enable_key(KeyId=kms.key_id)
    assert keys.unwrap(WORKSPACE, "data", 1, wrapped) == plaintext


def test_a_key_scheduled_for_deletion_is_refused(kms: Kms) -> None:
    keys = kms.keys()
    _, wrapped = keys.generate(WORKSPACE, "data", 1)
    kms.admin.schedule_key_deletion(KeyId=kms.key_id, PendingWindowInDays=7)
    with pytest.raises(KeyAccessRevoked) as refused:
        keys.unwrap(WORKSPACE, "data", 1, wrapped)
    assert refused.value.code == "kms_key_pending_deletion"
    assert keys.state(kms.key_arn).state == "PendingDeletion"
    failure = classify(refused.value)
    assert failure is not None and failure.code == "kms_key_pending_deletion"


def test_kms_errors_are_read_by_code_never_by_message(kms: Kms) -> None:
    keys = kms.keys()
    _, wrapped = keys.generate(WORKSPACE, "data", 1)
    with Stubber(keys.client) as stub:
        stub.add_response(
            "describe_key",
            {"KeyMetadata": {"KeyId": kms.key_arn, "Arn": kms.key_arn, "KeyState": "Enabled"}},
        )
        stub.add_client_error("decrypt", "DisabledException", "secret-looking message xyz")
        with pytest.raises(KeyAccessRevoked) as refused:
            keys.unwrap(WORKSPACE, "data", 1, wrapped)
    assert refused.value.code == "kms_key_disabled"
    assert "xyz" not in str(refused.value)


# Throttling and outages -------------------------------------------------------------------------


def _enabled(arn: str) -> dict[str, Any]:
    return {"KeyMetadata": {"KeyId": arn, "Arn": arn, "KeyState": "Enabled"}}


def test_throttling_is_retried_with_jittered_backoff(kms: Kms) -> None:
    slept: list[float] = []
    keys = kms.keys(sleep=slept.append, state_ttl_seconds=300.0)
    plaintext, wrapped = keys.generate(WORKSPACE, "data", 1)
    with Stubber(keys.client) as stub:
        for _ in range(3):
            stub.add_client_error("decrypt", "ThrottlingException", "Rate exceeded", 400)
        stub.add_response("decrypt", {"KeyId": kms.key_arn, "Plaintext": plaintext})
        assert keys.unwrap(WORKSPACE, "data", 1, wrapped) == plaintext
    assert len(slept) == 3
    # Full jitter: each wait is drawn below a cap that doubles.
    caps = [min(keys.max_delay, keys.base_delay * 2 ** (n + 1)) for n in range(3)]
    assert all(0 <= delay <= cap for delay, cap in zip(slept, caps, strict=True))


def test_throttling_that_does_not_stop_is_a_503_never_a_500(kms: Kms) -> None:
    slept: list[float] = []
    keys = kms.keys(sleep=slept.append, state_ttl_seconds=300.0, max_attempts=4)
    _, wrapped = keys.generate(WORKSPACE, "data", 1)
    with Stubber(keys.client) as stub:
        for _ in range(4):
            stub.add_client_error("decrypt", "ThrottlingException", "Rate exceeded", 400)
        with pytest.raises(KeyServiceUnavailable) as unavailable:
            keys.unwrap(WORKSPACE, "data", 1, wrapped)
    assert len(slept) == 3
    failure = classify(unavailable.value)
    assert failure is not None
    assert (failure.status, failure.code) == (503, "kms_unavailable")


def test_kms_unreachable_is_unavailable(kms: Kms) -> None:
    keys = KmsKeys(
        kms.key_arn, region="us-east-1", endpoint_url="http://127.0.0.1:9", state_ttl_seconds=0
    )
    with pytest.raises(KeyServiceUnavailable):
        keys.generate(WORKSPACE, "data", 1)


# The provider, the cache, and practices ---------------------------------------------------------


@pytest.fixture
def kms_keys(kms: Kms) -> KmsKeys:
    return kms.keys(state_ttl_seconds=300.0)


@pytest.fixture
def kms_cipher(ring_holder: object, kms_keys: KmsKeys) -> Iterator[FieldCipher]:
    """A KMS ring installed (after the `db` fixture's local one)."""
    provider = KmsProvider(kms_keys, MemoryKeys())
    ring, created = provider.initialize()
    assert created and ring.remote is kms_keys
    assert ring.audit_key is not None and ring.blind_index_key != ring.audit_key
    cipher = FieldCipher(StaticRing(ring))
    install(cipher)
    yield cipher


def test_the_provider_makes_installation_keys_once_and_never_stores_a_ring(
    kms_keys: KmsKeys,
) -> None:
    store = MemoryKeys()
    provider = KmsProvider(kms_keys, store)
    with pytest.raises(KeyRingError, match="keys init"):
        provider.load()
    ring, created = provider.initialize()
    assert created
    assert set(store.rows) == {"blind-index", "audit"}
    assert all(row[0] == KMS_WRAPPED_FORMAT for row in store.rows.values())
    assert provider.initialize() == (ring, False)
    assert provider.load() is ring  # unchanged: the same object (practice caches stay valid)
    again = KmsProvider(kms_keys, store).load()
    assert again.audit_key == ring.audit_key
    assert again.blind_index_key == ring.blind_index_key
    assert ring.active.material is None and ring.active.remote
    with pytest.raises(KeyRingError, match="automatic key rotation"):
        provider.store(ring.rotated())


async def test_practice_keys_are_kms_data_keys_and_phi_round_trips(
    db: AsyncSession, kms_cipher: FieldCipher
) -> None:
    space = await factories.workspace(db)
    client = await factories.client(db, space, first_name="Grace")
    rows = (
        await db.execute(
            select(WorkspaceKey.key_version, WorkspaceKey.wrapped_key).where(
                WorkspaceKey.workspace_id == space.id
            )
        )
    ).all()
    by_version = dict(rows)
    assert by_version[1][0] == KMS_WRAPPED_FORMAT  # the data key: KMS ciphertext
    assert len(by_version[BLIND_INDEX_KEY_VERSION]) == 60  # the index key: under the data key
    kms_cipher.data_keys.clear()
    await load_workspace_keys(db, space.id)
    assert await first_name(db, client.id) == "Grace"


async def test_two_hundred_concurrent_requests_of_a_cold_practice_make_one_decrypt(
    new_database: NewDatabase, kms_cipher: FieldCipher, kms_keys: KmsKeys
) -> None:
    engine = create_engine(await new_database(), pool_size=5)
    try:
        async with AsyncSession(engine) as session, session.begin():
            space_id = (await factories.workspace(session)).id
        kms_cipher.data_keys.clear()
        decrypts = count_calls(kms_keys, "Decrypt")
        selects = [0]

        async def request() -> None:
            async with AsyncSession(engine) as session:
                await load_workspace_keys(session, space_id)

        def count_select(*_: object) -> None:
            selects[0] += 1

        event.listen(engine.sync_engine, "before_cursor_execute", count_select)
        await asyncio.gather(*(request() for _ in range(200)))
        assert decrypts[0] == 1  # one practice, one KMS call, however many requests
        assert selects[0] == 1  # and one read of its wrapped keys
        await asyncio.gather(*(request() for _ in range(200)))
        assert decrypts[0] == 1  # warm: none at all
        entry = kms_cipher.data_keys.entry(space_id.bytes)
        assert entry is not None
        entry.loaded_at -= kms_cipher.data_keys.max_age_seconds + 1  # the TTL passes
        await asyncio.gather(*(request() for _ in range(200)))
        assert decrypts[0] == 2  # one more per TTL, not one per request
    finally:
        await engine.dispose()


async def test_the_use_limit_asks_kms_again(
    db: AsyncSession, kms_cipher: FieldCipher, kms_keys: KmsKeys
) -> None:
    space = await factories.workspace(db)
    kms_cipher.data_keys.clear()
    kms_cipher.data_keys.max_uses = 10
    decrypts = count_calls(kms_keys, "Decrypt")
    for _ in range(25):
        await load_workspace_keys(db, space.id)
    assert decrypts[0] == 3  # a new KMS call each ten uses


async def test_kms_down_refuses_cold_practices_and_serves_warm_ones(
    db: AsyncSession, kms_cipher: FieldCipher, kms_keys: KmsKeys
) -> None:
    warm = await factories.workspace(db)
    cold = await factories.workspace(db)
    warm_client = await factories.client(db, warm, first_name="Warm")
    kms_cipher.data_keys.forget(cold.id.bytes)

    def unreachable(**_: object) -> None:
        raise EndpointConnectionError(endpoint_url="https://kms.example.test")

    kms_keys.client.meta.events.register("before-send.kms", unreachable)  # KMS goes away
    try:
        await load_workspace_keys(db, warm.id)  # warm: no KMS call, keeps working
        assert await first_name(db, warm_client.id) == "Warm"
        # Even past its TTL, a warm practice's keys serve on while KMS cannot be reached.
        kms_cipher.data_keys.max_age_seconds = 0.0
        await load_workspace_keys(db, warm.id)
        assert kms_cipher.data_keys.entry(warm.id.bytes) is not None
        with pytest.raises(KeyServiceUnavailable) as unavailable:
            await load_workspace_keys(db, cold.id)
        failure = classify(unavailable.value)
        assert failure is not None and failure.code == "kms_unavailable"
    finally:
        kms_keys.client.meta.events.unregister("before-send.kms", unreachable)


async def test_a_disabled_practice_key_cuts_access_at_the_next_expiry_and_enabling_restores(
    db: AsyncSession, kms_cipher: FieldCipher, kms_keys: KmsKeys, kms: Kms
) -> None:
    space = await factories.workspace(db)
    other = await factories.workspace(db)
    arn, key_id = kms.new_key()
    moved, _ = await set_practice_key(db, space.id, arn)
    assert moved == 1
    await load_workspace_keys(db, space.id)
    await load_workspace_keys(db, other.id)
    kms.admin.disable_key(KeyId=key_id)
    await load_workspace_keys(db, space.id)  # still cached: no KMS call before expiry
    kms_cipher.data_keys.max_age_seconds = 0.0
    kms_keys.forget_state()
    with pytest.raises(KeyAccessRevoked) as refused:
        await load_workspace_keys(db, space.id)
    assert refused.value.code == "kms_key_disabled"
    assert not kms_cipher.data_keys.loaded(space.id.bytes)  # its keys are gone from memory
    await load_workspace_keys(db, other.id)  # the installation's key is still fine
    kms.admin.enable_key(KeyId=key_id)
    kms_keys.forget_state()
    await load_workspace_keys(db, space.id)
    assert kms_cipher.data_keys.entry(space.id.bytes) is not None


async def test_set_key_rewraps_without_touching_values_and_back_again(
    db: AsyncSession, kms_cipher: FieldCipher, kms: Kms
) -> None:
    space = await factories.workspace(db)
    client = await factories.client(db, space, first_name="Byok")
    raw = text("SELECT first_name FROM clients WHERE id = :id").bindparams(id=client.id)
    before = (await db.execute(raw)).scalar_one()
    arn, _ = kms.new_key()
    assert await set_practice_key(db, space.id, arn) == (1, 0)
    assert await set_practice_key(db, space.id, arn) == (0, 1)  # nothing left: idempotent
    stored = await db.scalar(
        select(WorkspaceKey.wrapped_key).where(
            WorkspaceKey.workspace_id == space.id, WorkspaceKey.key_version == 1
        )
    )
    assert stored is not None and unframe(stored)[0] == arn
    assert await practice_key(db, space.id) == arn
    after = (await db.execute(raw)).scalar_one()
    assert after == before  # the value was not re-encrypted
    await load_workspace_keys(db, space.id)
    assert await first_name(db, client.id) == "Byok"
    assert await set_practice_key(db, space.id, None) == (1, 0)
    assert await practice_key(db, space.id) is None


async def test_a_refused_and_restored_practice_key_are_audit_events_and_in_readiness(
    new_database: NewDatabase, kms_cipher: FieldCipher, kms_keys: KmsKeys, kms: Kms
) -> None:
    from types import SimpleNamespace

    from carevault.api.readiness import kms_readiness
    from carevault.audit.models import AuditEvent

    engine = create_engine(await new_database(), pool_size=2)
    try:
        async with AsyncSession(engine) as session, session.begin():
            space_id = (await factories.workspace(session)).id
        arn, key_id = kms.new_key()
        async with AsyncSession(engine) as session:
            await set_practice_key(session, space_id, arn)
        kms.admin.disable_key(KeyId=key_id)
        kms_keys.forget_state()
        async with AsyncSession(engine) as session:
            with pytest.raises(KeyAccessRevoked):
                await load_workspace_keys(session, space_id)
        state = SimpleNamespace(key_manager=SimpleNamespace(ring=kms_cipher.ring))
        ready = await kms_readiness(state)  # type: ignore[arg-type]
        assert ready is not None
        assert ready.installation_key_id == kms.key_arn
        assert ready.practices_refused == {"kms_key_disabled": 1}
        states = {key.key_id: key.state for key in ready.keys}
        assert states == {kms.key_arn: "Enabled", arn: "Disabled"}
        assert ready.calls["Decrypt"] >= 1
        kms.admin.enable_key(KeyId=key_id)
        kms_keys.forget_state()
        async with AsyncSession(engine) as session:
            await load_workspace_keys(session, space_id)
        ready = await kms_readiness(state)  # type: ignore[arg-type]
        assert ready is not None and ready.practices_refused == {}
        async with AsyncSession(engine) as session:
            rows = await session.execute(
                select(AuditEvent.action, AuditEvent.details)
                .where(AuditEvent.workspace_id == space_id)
                .order_by(AuditEvent.id)
            )
            events = [(action, details.get("reason")) for action, details in rows.all()]
        assert events[-2:] == [
            ("workspace.kms_key_refused", "kms_key_disabled"),
            ("workspace.kms_key_restored", "kms_key_disabled"),
        ]
    finally:
        await engine.dispose()
