"""Per-field cost of `EncryptedString`, measured through the processors SQLAlchemy calls, next
to the floor (the bare AES-GCM call) and the common alternative (sqlalchemy-utils), all
timed in alternating rounds (see interleave.py).

The field path is the real one for format 0x03: the bind processor receives a value bound to
its row (`BoundText`, as the ORM leaves it after a flush) and finds the practice's data key
in the cipher's `DataKeyCache`; the result processor receives the 32 bytes of row ids the
column expression selects in front of the stored value. The floor is the bare AES-GCM call
under the same data key with the same associated data (header | workspace id | row id |
context) assembled in advance. Legacy 0x01 values (master key, column-only binding) are
still read until `carevault reencrypt` upgrades them, so their decryption is timed too."""

from __future__ import annotations

import os
import secrets
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Unicode
from sqlalchemy_utils import StringEncryptedType
from sqlalchemy_utils.types.encrypted.encrypted_type import AesGcmEngine

from carevault.appointments.models import Appointment
from carevault.clients.models import Client
from carevault.crypto import FieldCipher, envelope
from carevault.notes.models import SessionNote
from tests.perf.interleave import run_interleaved
from tests.perf.support import (
    BENCH_WORKSPACE,
    DIALECT,
    FIELD_CASES,
    FieldProcessors,
    bound_text,
    data_key_floor,
    field_text,
    processors_for,
    row_prefixed,
)

Bench = Any  # pytest-benchmark's fixture
Processor = Callable[[Any], Any]

CASES = [pytest.param(size, non_ascii, id=case) for case, size, non_ascii in FIELD_CASES]


def soap_section() -> FieldProcessors:
    """A SOAP note section column, the most common PHI field."""
    return processors_for(SessionNote.__table__.c.subjective)


def legacy_value(cipher: FieldCipher, plaintext: str, context: bytes) -> bytes:
    """A format-0x01 value (active master key, column-only binding) as older releases stored
    it, read the way every encrypted column is selected: row ids in front."""
    ring = cipher.ring
    sealed = envelope.seal_aesgcm(
        ring.active_cipher, ring.active_header, plaintext.encode(), context
    )
    return row_prefixed(sealed)


def string_encrypted_type() -> tuple[Processor, Processor]:
    """sqlalchemy-utils' StringEncryptedType(Unicode, key, AesGcmEngine), as a user declares it."""
    column_type = StringEncryptedType(Unicode, secrets.token_urlsafe(32), AesGcmEngine)
    impl = column_type.dialect_impl(DIALECT)
    bind = impl.bind_processor(DIALECT)
    result = impl.result_processor(DIALECT, None)
    assert bind is not None and result is not None
    return bind, result


def floor_contender(
    non_ascii: bool, floor: Callable[[], object], floor_with_codec: Callable[[], object]
) -> tuple[str, Callable[[], object]]:
    """The bare AES-GCM call; for non-ASCII text also the str <-> UTF-8 conversion that every
    `str` column pays and that, for 5 KB of CJK and emoji, costs more than the AES itself."""
    return ("floor+codec", floor_with_codec) if non_ascii else ("floor", floor)


@pytest.mark.benchmark(group="field encrypt")
@pytest.mark.parametrize(("size", "non_ascii"), CASES)
def test_encrypt(
    benchmark: Bench,
    request: pytest.FixtureRequest,
    app_backend: FieldCipher,
    size: str,
    non_ascii: bool,
) -> None:
    value = field_text(size, non_ascii)
    bound = bound_text(value)
    data = value.encode()
    ours = soap_section()
    aesgcm, associated = data_key_floor(app_backend, ours.context)
    alternative_bind, alternative_result = string_encrypted_type()
    sealed = ours.bind(bound)
    assert sealed[:1] == bytes((envelope.FORMAT_BOUND,))
    assert ours.result(row_prefixed(sealed)) == value
    assert alternative_result(alternative_bind(value)) == value

    def floor() -> bytes:
        return aesgcm.encrypt(os.urandom(12), data, associated)

    def floor_with_codec() -> bytes:
        return aesgcm.encrypt(os.urandom(12), value.encode(), associated)

    bind = ours.bind
    run_interleaved(
        benchmark,
        request,
        [
            floor_contender(non_ascii, floor, floor_with_codec),
            ("EncryptedString", lambda: bind(bound)),
            ("StringEncryptedType", lambda: alternative_bind(value)),
        ],
    )


@pytest.mark.benchmark(group="field decrypt")
@pytest.mark.parametrize(("size", "non_ascii"), CASES)
def test_decrypt(
    benchmark: Bench,
    request: pytest.FixtureRequest,
    app_backend: FieldCipher,
    size: str,
    non_ascii: bool,
) -> None:
    value = field_text(size, non_ascii)
    ours = soap_section()
    aesgcm, associated = data_key_floor(app_backend, ours.context)
    nonce = os.urandom(12)
    bare = aesgcm.encrypt(nonce, value.encode(), associated)
    stored = row_prefixed(ours.bind(bound_text(value)))
    legacy = legacy_value(app_backend, value, ours.context)
    alternative_bind, alternative_result = string_encrypted_type()
    alternative_stored = alternative_bind(value)
    assert ours.result(stored) == value
    assert ours.result(legacy) == value
    assert alternative_result(alternative_stored) == value

    def floor() -> bytes:
        return aesgcm.decrypt(nonce, bare, associated)

    def floor_with_codec() -> str:
        return aesgcm.decrypt(nonce, bare, associated).decode()

    result = ours.result
    run_interleaved(
        benchmark,
        request,
        [
            floor_contender(non_ascii, floor, floor_with_codec),
            ("EncryptedString", lambda: result(stored)),
            ("EncryptedString0x01", lambda: result(legacy)),
            ("StringEncryptedType", lambda: alternative_result(alternative_stored)),
        ],
    )


# Bulk: a calendar view decrypts about a hundred short fields at once. ----------------------

CALENDAR_COLUMNS = (
    Client.__table__.c.first_name,
    Client.__table__.c.last_name,
    Appointment.__table__.c.location,
    Appointment.__table__.c.notes,
)


def calendar_fields() -> list[tuple[FieldProcessors, str, tuple[bytes, bytes]]]:
    """100 values across four calendar columns (75 of 50 bytes, 25 of 350), a fifth non-ASCII,
    each in its own row of the practice."""
    processors = [processors_for(column) for column in CALENDAR_COLUMNS]
    fields = []
    for index in range(100):
        size = "350B" if index % 4 == 3 else "50B"
        binding = (BENCH_WORKSPACE.bytes, uuid.UUID(int=index + 1).bytes)
        value = field_text(size, index % 5 == 0, offset=index)
        fields.append((processors[index % 4], value, binding))
    return fields


@pytest.mark.benchmark(group="bulk decrypt")
def test_decrypt_100_fields(
    benchmark: Bench, request: pytest.FixtureRequest, app_backend: FieldCipher
) -> None:
    fields = calendar_fields()
    bare = []
    for processors, value, binding in fields:
        aesgcm, associated = data_key_floor(app_backend, processors.context, binding)
        nonce = os.urandom(12)
        sealed = aesgcm.encrypt(nonce, value.encode(), associated)
        bare.append((aesgcm, nonce, sealed, associated))
    stored = [
        (processors.result, row_prefixed(processors.bind(bound_text(value, binding)), binding))
        for processors, value, binding in fields
    ]

    def floor() -> list[bytes]:
        return [key.decrypt(nonce, body, associated) for key, nonce, body, associated in bare]

    def ours() -> list[str]:
        return [result(value) for result, value in stored]

    assert ours() == [value for _, value, _ in fields]
    assert floor() == [value.encode() for _, value, _ in fields]
    run_interleaved(benchmark, request, [("floor", floor), ("EncryptedString", ours)])
