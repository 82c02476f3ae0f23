"""The shortcuts the field path takes for speed keep every rule of the general path.

`FieldCipher.open_prefixed` opens a 0x03 value in place with a data key already unwrapped for
the current ring; `DataKeyCache.sealing_key` remembers the practice's sealing key per ring
and encryption version; `EncryptedString.bind_processor` is a closure for text columns; the
nonce counters are a plain dict. Each test here would fail if a shortcut skipped a check.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.dialects.postgresql.asyncpg import PGDialect_asyncpg

from carevault.crypto import (
    BoundDate,
    BoundText,
    DecryptionError,
    FieldCipher,
    KeyRing,
    KeyRingError,
    UnboundValueError,
    envelope,
    install,
    uninstall,
)
from carevault.crypto.datakeys import wrap_data_key
from carevault.crypto.keyring import new_key_material
from carevault.notes.models import SessionNote

CONTEXT = b"sessions.subjective"
RING = KeyRing.generate()
ROTATED = RING.rotated()  # version 1 decrypt-only, version 2 active
WORKSPACE, ROW = uuid.uuid4().bytes, uuid.uuid4().bytes
BINDING = (WORKSPACE, ROW)
WRAPPED = {v: wrap_data_key(ROTATED, WORKSPACE, v, new_key_material()) for v in (1, 2)}


class Holder:
    """A ring source whose ring a test swaps, as a refresh does."""

    def __init__(self, ring: KeyRing) -> None:
        self.ring = ring


def cipher_for(ring: KeyRing) -> tuple[FieldCipher, Holder]:
    holder = Holder(ring)
    cipher = FieldCipher(holder)
    cipher.data_keys.store(WORKSPACE, dict(WRAPPED))
    return cipher, holder


def prefixed(sealed: bytes, binding: tuple[bytes, bytes] = BINDING) -> bytes:
    return binding[0] + binding[1] + sealed


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=600))
def test_open_prefixed_agrees_with_open(plaintext: str) -> None:
    cipher, _ = cipher_for(ROTATED)
    sealed = cipher.seal(plaintext, BINDING, CONTEXT)
    assert cipher.open_prefixed(prefixed(sealed), CONTEXT) == plaintext
    assert cipher.open(sealed, BINDING, CONTEXT) == plaintext


def test_the_fast_path_still_checks_row_practice_and_column() -> None:
    cipher, _ = cipher_for(ROTATED)
    sealed = cipher.seal("Ada", BINDING, CONTEXT)
    assert cipher.open_prefixed(prefixed(sealed), CONTEXT) == "Ada"  # key now cached
    with pytest.raises(DecryptionError, match="authentication failed"):
        cipher.open_prefixed(prefixed(sealed, (WORKSPACE, uuid.uuid4().bytes)), CONTEXT)
    with pytest.raises(DecryptionError, match="authentication failed"):
        cipher.open_prefixed(prefixed(sealed), b"sessions.objective")
    other = uuid.uuid4().bytes
    cipher.data_keys.store(other, {2: wrap_data_key(ROTATED, other, 2, new_key_material())})
    with pytest.raises(DecryptionError):
        cipher.open_prefixed(prefixed(sealed, (other, ROW)), CONTEXT)


@pytest.mark.parametrize("length", [0, 1, 31, 32, 33, 36, 37, 48, 64])
def test_a_truncated_prefixed_value_is_refused(length: int) -> None:
    cipher, _ = cipher_for(ROTATED)
    whole = prefixed(cipher.seal("Ada", BINDING, CONTEXT))
    cipher.open_prefixed(whole, CONTEXT)  # the data key is cached: the fast path is armed
    with pytest.raises(DecryptionError):
        cipher.open_prefixed(whole[:length], CONTEXT)


def test_a_cached_data_key_stops_opening_once_its_master_version_is_retired() -> None:
    old_cipher, _ = cipher_for(RING)
    under_1 = old_cipher.seal("Ada", BINDING, CONTEXT)
    assert under_1[:5] == envelope.header(envelope.FORMAT_BOUND, 1)
    cipher, holder = cipher_for(ROTATED)
    assert cipher.open_prefixed(prefixed(under_1), CONTEXT) == "Ada"  # version 1's key cached
    holder.ring = ROTATED.with_retired(1)  # a refresh brings the retirement
    with pytest.raises(DecryptionError, match="retired"):
        cipher.open_prefixed(prefixed(under_1), CONTEXT)


def test_the_remembered_sealing_key_follows_a_pending_version_activating(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    later = datetime.now(UTC) + timedelta(hours=1)
    staged = KeyRing(
        keys={1: RING.keys[1], 2: replace(ROTATED.keys[2], activate_after=later)},
        active_version=1,
        blind_index_key=RING.blind_index_key,
    )
    cipher, _ = cipher_for(staged)
    assert cipher.seal("Ada", BINDING, CONTEXT)[1:5] == (1).to_bytes(4, "big")
    assert cipher.seal("Ada", BINDING, CONTEXT)[1:5] == (1).to_bytes(4, "big")  # remembered
    # The same ring object, an hour later: version 2 is due and is used at once.
    monkeypatch.setattr("carevault.crypto.keyring.time.time", lambda: later.timestamp() + 1)
    assert cipher.seal("Ada", BINDING, CONTEXT)[1:5] == (2).to_bytes(4, "big")


def test_the_remembered_sealing_key_is_dropped_with_the_practice_keys() -> None:
    cipher, _ = cipher_for(ROTATED)
    assert cipher.seal("Ada", BINDING, CONTEXT)[1:5] == (2).to_bytes(4, "big")
    cipher.data_keys.forget(WORKSPACE)  # e.g. the practice was shredded
    with pytest.raises(KeyRingError, match="not loaded"):
        cipher.seal("Ada", BINDING, CONTEXT)
    # Stored again without version 2: the remembered version-2 key is not reused.
    cipher.data_keys.store(WORKSPACE, {1: WRAPPED[1]})
    assert cipher.seal("Ada", BINDING, CONTEXT)[1:5] == (1).to_bytes(4, "big")


def test_the_remembered_sealing_key_is_dropped_with_a_new_ring() -> None:
    """A practice without a key for the active version seals under its newest older one; a
    refreshed ring that retires that version must stop it at once, though the active
    version (what the memo is checked against) did not change."""
    newer = ROTATED.rotated()  # version 3 active; the practice only has version 2's key
    holder = Holder(newer)
    cipher = FieldCipher(holder)
    cipher.data_keys.store(WORKSPACE, {2: WRAPPED[2]})
    assert cipher.seal("Ada", BINDING, CONTEXT)[1:5] == (2).to_bytes(4, "big")
    assert cipher.seal("Ada", BINDING, CONTEXT)[1:5] == (2).to_bytes(4, "big")  # remembered
    holder.ring = newer.with_retired(2)
    with pytest.raises(KeyRingError, match="no data key for key version 3"):
        cipher.seal("Ada", BINDING, CONTEXT)


def test_encryptions_are_counted_per_data_key_and_version() -> None:
    cipher, _ = cipher_for(ROTATED)
    other = uuid.uuid4().bytes
    cipher.data_keys.store(other, {2: wrap_data_key(ROTATED, other, 2, new_key_material())})
    for _ in range(3):
        cipher.seal("Ada", BINDING, CONTEXT)
    cipher.seal("Ada", (other, ROW), CONTEXT)
    assert cipher.sealed_by_data_key == {(WORKSPACE, 2): 3, (other, 2): 1}
    assert cipher.sealed_by_version == {2: 4}


def test_the_text_bind_processor_keeps_the_column_rules() -> None:
    cipher, _ = cipher_for(ROTATED)
    install(cipher)
    try:
        dialect = PGDialect_asyncpg()  # type: ignore[no-untyped-call]
        column = SessionNote.__table__.c.subjective.type.dialect_impl(dialect)
        bind = column.bind_processor(dialect)
        result = column.result_processor(dialect, None)
        assert bind is not None and result is not None
        assert bind(None) is None
        with pytest.raises(UnboundValueError, match=r"sessions\.subjective"):
            bind("not bound to a row")
        with pytest.raises(TypeError, match="expected str"):
            bind(BoundDate(date(2026, 1, 2), BINDING))
        sealed = bind(BoundText("Ada", BINDING))
        assert sealed[:5] == envelope.header(envelope.FORMAT_BOUND, 2)
        assert result(prefixed(sealed)) == "Ada"
        with pytest.raises(DecryptionError):
            result(prefixed(sealed, (WORKSPACE, uuid.uuid4().bytes)))
    finally:
        uninstall()
