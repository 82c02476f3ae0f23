"""Per-field cost of `EncryptedString`, measured through the processors SQLAlchemy calls, next
to the floor (the bare AES-GCM call) and the common alternative (sqlalchemy-utils), all three
timed in alternating rounds (see interleave.py)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from typing import Any

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import Unicode
from sqlalchemy_utils import StringEncryptedType
from sqlalchemy_utils.types.encrypted.encrypted_type import AesGcmEngine

from carevault.appointments.models import Appointment
from carevault.clients.models import Client
from carevault.crypto import FieldCipher, envelope
from carevault.notes.models import SessionNote
from tests.perf.interleave import run_interleaved
from tests.perf.support import DIALECT, FIELD_CASES, FieldProcessors, field_text, processors_for

Bench = Any  # pytest-benchmark's fixture
Processor = Callable[[Any], Any]

CASES = [pytest.param(size, non_ascii, id=case) for case, size, non_ascii in FIELD_CASES]


def soap_section() -> FieldProcessors:
    """A SOAP note section column, the most common PHI field."""
    return processors_for(SessionNote.__table__.c.subjective)


def bare_floor(cipher: FieldCipher, context: bytes) -> tuple[AESGCM, bytes]:
    """The active key's AESGCM object (built once, as the ring does) and the associated data
    the field path binds for this column: header and context."""
    ring = cipher.ring
    head = envelope.header(envelope.FORMAT_AESGCM, ring.active_version)
    return ring.active_cipher, head + context


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
    data = value.encode()
    ours = soap_section()
    aesgcm, associated = bare_floor(app_backend, ours.context)
    alternative_bind, alternative_result = string_encrypted_type()
    assert ours.result(ours.bind(value)) == value
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
            ("EncryptedString", lambda: bind(value)),
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
    aesgcm, associated = bare_floor(app_backend, ours.context)
    nonce = os.urandom(12)
    bare = aesgcm.encrypt(nonce, value.encode(), associated)
    stored = ours.bind(value)
    alternative_bind, alternative_result = string_encrypted_type()
    alternative_stored = alternative_bind(value)
    assert ours.result(stored) == value
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


def calendar_fields() -> list[tuple[FieldProcessors, str]]:
    """100 values across four calendar columns (75 of 50 bytes, 25 of 350), a fifth non-ASCII."""
    processors = [processors_for(column) for column in CALENDAR_COLUMNS]
    fields = []
    for index in range(100):
        size = "350B" if index % 4 == 3 else "50B"
        fields.append((processors[index % 4], field_text(size, index % 5 == 0, offset=index)))
    return fields


@pytest.mark.benchmark(group="bulk decrypt")
def test_decrypt_100_fields(
    benchmark: Bench, request: pytest.FixtureRequest, app_backend: FieldCipher
) -> None:
    fields = calendar_fields()
    aesgcm = app_backend.ring.active_cipher
    bare = []
    for processors, value in fields:
        _, associated = bare_floor(app_backend, processors.context)
        nonce = os.urandom(12)
        bare.append((nonce, aesgcm.encrypt(nonce, value.encode(), associated), associated))
    stored = [(processors.result, processors.bind(value)) for processors, value in fields]

    def floor() -> list[bytes]:
        return [aesgcm.decrypt(nonce, body, associated) for nonce, body, associated in bare]

    def ours() -> list[str]:
        return [result(value) for result, value in stored]

    assert ours() == [value for _, value in fields]
    assert floor() == [value.encode() for _, value in fields]
    run_interleaved(benchmark, request, [("floor", floor), ("EncryptedString", ours)])
