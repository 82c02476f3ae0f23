"""Blind-index computation, key-ring and data-key lookups: the other crypto work on the
request path."""

from __future__ import annotations

import hashlib
import hmac
import os
import uuid
from typing import Any

import pytest

from carevault.crypto import (
    BlindIndex,
    DataKeyCache,
    EnvironmentProvider,
    KeyRing,
    KeyRingManager,
    StaticRing,
    envelope,
    new_wrapped_data_key,
)
from carevault.workspaces.keys import sealing_versions
from carevault.workspaces.phones import read_phone
from tests.perf.interleave import run_interleaved

Bench = Any  # pytest-benchmark's fixture

EMAIL = "Ada.Lovelace@Example.org "
PHONE = "+44 (0)20 7946 0000"
PHONE_E164 = "+442079460000"


@pytest.mark.benchmark(group="blind index")
def test_blind_index(benchmark: Bench, request: pytest.FixtureRequest, perf_ring: KeyRing) -> None:
    """Floor: the bare HMAC-SHA256 of an already normalised email, as the index hashes it."""
    scope = str(uuid.uuid4())
    key = perf_ring.blind_index_key
    message = b"\x00".join((b"email", scope.encode(), EMAIL.strip().lower().encode()))
    index = BlindIndex(StaticRing(perf_ring))

    def floor() -> bytes:
        return hmac.new(key, message, hashlib.sha256).digest()

    def read_and_index() -> bytes | None:
        return index.phone(read_phone(PHONE, "GB").e164, scope)

    assert index.email(EMAIL, scope) == floor()
    assert read_and_index() == index.phone(PHONE_E164, scope)
    run_interleaved(
        benchmark,
        request,
        [
            ("floor", floor),
            ("email", lambda: index.email(EMAIL, scope)),
            ("phone", lambda: index.phone(PHONE_E164, scope)),
            # What a write or search pays: libphonenumber reads the number first.
            ("phone read", read_and_index),
        ],
    )


def rotated_ring(rotations: int = 5) -> KeyRing:
    """A ring after years of rotation: several decrypt-only versions and one retired."""
    ring = KeyRing.generate()
    for _ in range(rotations):
        ring = ring.rotated()
    return ring.with_retired(1)


@pytest.mark.benchmark(group="key ring")
def test_key_ring_lookup(benchmark: Bench, request: pytest.FixtureRequest) -> None:
    """Finding the cipher for a stored value's key version, against the decryption it serves
    (the floor: a bare AES-GCM decrypt of 50 bytes). `manager` is the production read path:
    the manager's cached ring, then the lookup; no provider call, no lock."""
    ring = rotated_ring()
    manager = KeyRingManager(EnvironmentProvider(ring.to_json()), ttl_seconds=300)
    manager.load()  # no refresh thread: only the read path is measured
    aesgcm = ring.active_cipher
    nonce = os.urandom(12)
    sealed = aesgcm.encrypt(nonce, b"x" * 50, b"context")

    def floor() -> bytes:
        return aesgcm.decrypt(nonce, sealed, b"context")

    def through_manager() -> object:
        return manager.ring.cipher_for(3)

    assert ring.cipher_for(3) is not None and through_manager() is not None
    assert ring.cipher_for(1) is None  # retired
    run_interleaved(
        benchmark,
        request,
        [("floor", floor), ("ring", lambda: ring.cipher_for(3)), ("manager", through_manager)],
    )


@pytest.mark.benchmark(group="data key")
def test_data_key_lookup(benchmark: Bench, request: pytest.FixtureRequest) -> None:
    """Finding a practice's data key, against the decryption it serves (the floor: a bare
    AES-GCM decrypt of 50 bytes). `read` is what opening a 0x03 value looks up (cached
    cipher for the value's header, under the current ring); `seal` what sealing one does
    (the practice's sealing version, header and cipher). 200 practices are loaded, keys
    already unwrapped: the steady state of a server."""
    ring = rotated_ring()
    cache = DataKeyCache()
    practices = [uuid.uuid4().bytes for _ in range(200)]
    for workspace in practices:
        cache.store(
            workspace, {v: new_wrapped_data_key(ring, workspace, v) for v in sealing_versions(ring)}
        )
    workspace = practices[117]
    head = envelope.header(envelope.FORMAT_BOUND, ring.encryption_version())
    assert cache.cipher(ring, workspace, head) is not None  # unwrapped once, off the hot path
    aesgcm = cache.cached(ring, workspace, head)
    assert aesgcm is not None
    assert cache.sealing_key(ring, workspace) == (ring.encryption_version(), head, aesgcm)
    nonce = os.urandom(12)
    sealed = aesgcm.encrypt(nonce, b"x" * 50, b"context")

    def floor() -> bytes:
        return aesgcm.decrypt(nonce, sealed, b"context")

    run_interleaved(
        benchmark,
        request,
        [
            ("floor", floor),
            ("read", lambda: cache.cached(ring, workspace, head)),
            ("seal", lambda: cache.sealing_key(ring, workspace)),
        ],
    )
