import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carevault.crypto import DecryptionError, FieldCipher, KeyRing, StaticRing, envelope

CONTEXT = b"clients.first_name"
RING = KeyRing.generate()
CIPHER = FieldCipher(StaticRing(RING))


@pytest.mark.parametrize(
    "plaintext",
    ["", "Ada", "Zoë Ångström — 患者 🩺", "x" * 5000, "é" * 5000],
    ids=["empty", "ascii", "unicode", "5000-ascii", "5000-non-ascii"],
)
def test_round_trip(plaintext: str) -> None:
    assert CIPHER.decrypt(CIPHER.encrypt(plaintext, CONTEXT), CONTEXT) == plaintext


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=2000), st.binary(min_size=1, max_size=64))
def test_round_trip_property(plaintext: str, context: bytes) -> None:
    sealed = CIPHER.encrypt(plaintext, context)
    if len(plaintext.encode()) >= 8:  # shorter strings can occur in random bytes by chance
        assert plaintext.encode() not in sealed
    assert CIPHER.decrypt(sealed, context) == plaintext


def test_two_encryptions_of_one_value_differ() -> None:
    first, second = CIPHER.encrypt("same", CONTEXT), CIPHER.encrypt("same", CONTEXT)
    assert first != second
    assert first[5:17] != second[5:17]  # a fresh nonce each time


def test_stored_layout_is_header_nonce_ciphertext_tag() -> None:
    sealed = CIPHER.encrypt("hello", CONTEXT)
    assert sealed[0] == envelope.FORMAT_AESGCM
    assert int.from_bytes(sealed[1:5], "big") == RING.active_version
    assert len(sealed) == 5 + 12 + len("hello") + 16


@pytest.mark.parametrize("position", [0, 1, 4, 5, 16, 17, 20, -1])
def test_one_flipped_byte_is_refused(position: int) -> None:
    sealed = bytearray(CIPHER.encrypt("sensitive history", CONTEXT))
    sealed[position] ^= 0x01
    with pytest.raises(DecryptionError):
        CIPHER.decrypt(bytes(sealed), CONTEXT)


def test_value_for_another_column_is_refused() -> None:
    sealed = CIPHER.encrypt("Ada", b"clients.first_name")
    with pytest.raises(DecryptionError, match="authentication failed"):
        CIPHER.decrypt(sealed, b"clients.last_name")


@pytest.mark.parametrize("length", [0, 3, 5, 20, 32])
def test_truncated_value_is_refused(length: int) -> None:
    sealed = CIPHER.encrypt("Ada", CONTEXT)
    with pytest.raises(DecryptionError, match="truncated"):
        CIPHER.decrypt(sealed[:length], CONTEXT)


def test_unknown_version_is_refused() -> None:
    sealed = FieldCipher(StaticRing(RING.rotated())).encrypt("Ada", CONTEXT)
    with pytest.raises(DecryptionError, match="version 2 is not in the key ring"):
        CIPHER.decrypt(sealed, CONTEXT)


def test_retired_version_is_refused() -> None:
    rotated = RING.rotated()
    sealed = CIPHER.encrypt("Ada", CONTEXT)
    assert FieldCipher(StaticRing(rotated)).decrypt(sealed, CONTEXT) == "Ada"
    with pytest.raises(DecryptionError, match="version 1 is retired"):
        FieldCipher(StaticRing(rotated.with_retired(1))).decrypt(sealed, CONTEXT)


def test_wrong_key_with_same_version_is_refused_not_garbage() -> None:
    other = FieldCipher(StaticRing(KeyRing.generate()))
    with pytest.raises(DecryptionError):
        other.decrypt(CIPHER.encrypt("Ada", CONTEXT), CONTEXT)


def test_unknown_format_byte_is_refused() -> None:
    sealed = bytearray(CIPHER.encrypt("Ada", CONTEXT))
    sealed[0] = 0x7F
    with pytest.raises(DecryptionError, match="unknown format byte 0x7f"):
        CIPHER.decrypt(bytes(sealed), CONTEXT)


def test_error_messages_never_contain_plaintext_or_keys() -> None:
    secret = "Diagnosis: very private"
    sealed = bytearray(CIPHER.encrypt(secret, CONTEXT))
    sealed[-1] ^= 0xFF
    with pytest.raises(DecryptionError) as caught:
        CIPHER.decrypt(bytes(sealed), CONTEXT)
    message = str(caught.value)
    assert secret not in message
    assert RING.active.material.hex() not in message
    assert caught.value.__cause__ is None


def test_pgcrypto_format_values_are_read_by_the_application() -> None:
    sealed = envelope.seal_cbc_hmac(RING.active.material, RING.active_version, b"Ada", CONTEXT)
    assert sealed[0] == envelope.FORMAT_PGCRYPTO
    assert CIPHER.decrypt(sealed, CONTEXT) == "Ada"
    with pytest.raises(DecryptionError):
        CIPHER.decrypt(sealed, b"clients.last_name")
    tampered = bytearray(sealed)
    tampered[25] ^= 1
    with pytest.raises(DecryptionError):
        CIPHER.decrypt(bytes(tampered), CONTEXT)
