import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carevault.crypto import DecryptionError, FieldCipher, KeyRing, StaticRing, envelope
from carevault.crypto.datakeys import wrap_data_key
from carevault.crypto.keyring import new_key_material

CONTEXT = b"clients.first_name"
RING = KeyRing.generate()
ROTATED = RING.rotated()  # the same version 1, plus an active version 2
WORKSPACE, ROW = uuid.uuid4().bytes, uuid.uuid4().bytes
BINDING = (WORKSPACE, ROW)
# One data key per master version for the practice, wrapped once and shared by every cipher.
WRAPPED = {v: wrap_data_key(ROTATED, WORKSPACE, v, new_key_material()) for v in (1, 2)}


def cipher_for(ring: KeyRing, versions: tuple[int, ...] = (1,)) -> FieldCipher:
    cipher = FieldCipher(StaticRing(ring))
    cipher.data_keys.store(WORKSPACE, {v: WRAPPED[v] for v in versions})
    return cipher


CIPHER = cipher_for(RING)


def seal(cipher: FieldCipher, plaintext: str, context: bytes = CONTEXT) -> bytes:
    return cipher.seal(plaintext, BINDING, context)


def open_(cipher: FieldCipher, value: bytes, context: bytes = CONTEXT) -> str:
    return cipher.open(value, BINDING, context)


@pytest.mark.parametrize(
    "plaintext",
    ["", "Ada", "Zoë Ångström — 患者 🩺", "x" * 5000, "é" * 5000],
    ids=["empty", "ascii", "unicode", "5000-ascii", "5000-non-ascii"],
)
def test_round_trip(plaintext: str) -> None:
    assert open_(CIPHER, seal(CIPHER, plaintext)) == plaintext


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=2000), st.binary(min_size=1, max_size=64))
def test_round_trip_property(plaintext: str, context: bytes) -> None:
    sealed = seal(CIPHER, plaintext, context)
    if len(plaintext.encode()) >= 8:  # shorter strings can occur in random bytes by chance
        assert plaintext.encode() not in sealed
    assert open_(CIPHER, sealed, context) == plaintext


def test_two_encryptions_of_one_value_differ() -> None:
    first, second = seal(CIPHER, "same"), seal(CIPHER, "same")
    assert first != second
    assert first[5:17] != second[5:17]  # a fresh nonce each time


def test_stored_layout_is_header_nonce_ciphertext_tag() -> None:
    sealed = seal(CIPHER, "hello")
    assert sealed[0] == envelope.FORMAT_BOUND
    assert int.from_bytes(sealed[1:5], "big") == RING.active_version
    assert len(sealed) == 5 + 12 + len("hello") + 16


@pytest.mark.parametrize("position", [0, 1, 4, 5, 16, 17, 20, -1])
def test_one_flipped_byte_is_refused(position: int) -> None:
    sealed = bytearray(seal(CIPHER, "sensitive history"))
    sealed[position] ^= 0x01
    with pytest.raises(DecryptionError):
        open_(CIPHER, bytes(sealed))


def test_value_for_another_column_is_refused() -> None:
    sealed = seal(CIPHER, "Ada", b"clients.first_name")
    with pytest.raises(DecryptionError, match="authentication failed"):
        open_(CIPHER, sealed, b"clients.last_name")


@pytest.mark.parametrize("length", [0, 3, 5, 20, 32])
def test_truncated_value_is_refused(length: int) -> None:
    sealed = seal(CIPHER, "Ada")
    with pytest.raises(DecryptionError, match="truncated"):
        open_(CIPHER, sealed[:length])


def test_unknown_version_is_refused() -> None:
    sealed = seal(cipher_for(ROTATED, (1, 2)), "Ada")
    with pytest.raises(DecryptionError, match="version 2 is not in the key ring"):
        open_(CIPHER, sealed)


def test_retired_version_is_refused() -> None:
    sealed = seal(CIPHER, "Ada")
    assert open_(cipher_for(ROTATED, (1, 2)), sealed) == "Ada"
    with pytest.raises(DecryptionError, match="version 1 is retired"):
        open_(cipher_for(ROTATED.with_retired(1), (1, 2)), sealed)


def test_wrong_key_with_same_version_is_refused_not_garbage() -> None:
    other = FieldCipher(StaticRing(RING))
    other.data_keys.store(WORKSPACE, {1: wrap_data_key(RING, WORKSPACE, 1, new_key_material())})
    with pytest.raises(DecryptionError, match="authentication failed"):
        open_(other, seal(CIPHER, "Ada"))


def test_unknown_format_byte_is_refused() -> None:
    sealed = bytearray(seal(CIPHER, "Ada"))
    sealed[0] = 0x7F
    with pytest.raises(DecryptionError, match="unknown format byte 0x7f"):
        open_(CIPHER, bytes(sealed))


def test_error_messages_never_contain_plaintext_or_keys() -> None:
    secret = "Diagnosis: very private"
    sealed = bytearray(seal(CIPHER, secret))
    sealed[-1] ^= 0xFF
    with pytest.raises(DecryptionError) as caught:
        open_(CIPHER, bytes(sealed))
    message = str(caught.value)
    assert secret not in message
    assert RING.active.material is not None
    assert RING.active.material.hex() not in message
    assert caught.value.__cause__ is None


def test_pgcrypto_format_values_are_read_by_the_application() -> None:
    material = RING.active.material
    assert material is not None
    sealed = envelope.seal_cbc_hmac(material, RING.active_version, b"Ada", CONTEXT)
    assert sealed[0] == envelope.FORMAT_PGCRYPTO
    assert open_(CIPHER, sealed) == "Ada"
    with pytest.raises(DecryptionError):
        open_(CIPHER, sealed, b"clients.last_name")
    tampered = bytearray(sealed)
    tampered[25] ^= 1
    with pytest.raises(DecryptionError):
        open_(CIPHER, bytes(tampered))


def test_a_value_of_another_row_or_practice_is_refused() -> None:
    sealed = seal(CIPHER, "Ada")
    with pytest.raises(DecryptionError, match="authentication failed"):
        CIPHER.open(sealed, (WORKSPACE, uuid.uuid4().bytes), CONTEXT)
    other_practice = uuid.uuid4().bytes
    CIPHER.data_keys.store(
        other_practice, {1: wrap_data_key(RING, other_practice, 1, new_key_material())}
    )
    with pytest.raises(DecryptionError):
        CIPHER.open(sealed, (other_practice, ROW), CONTEXT)


def test_a_wrapped_data_key_moved_to_another_practice_fails_to_unwrap() -> None:
    other_practice = uuid.uuid4().bytes
    cipher = FieldCipher(StaticRing(RING))
    cipher.data_keys.store(other_practice, {1: WRAPPED[1]})  # WORKSPACE's key, copied
    with pytest.raises(DecryptionError, match="wrapped data key failed to authenticate"):
        cipher.seal("Ada", (other_practice, ROW), CONTEXT)


def test_legacy_column_bound_values_still_open() -> None:
    sealed = envelope.seal_aesgcm(RING.active_cipher, RING.active_header, b"Ada", CONTEXT)
    assert sealed[0] == envelope.FORMAT_AESGCM
    assert open_(CIPHER, sealed) == "Ada"


def test_no_public_sealing_function_accepts_a_nonce_or_iv() -> None:
    """A fixed nonce is for test vectors only, through the private helpers (as Fernet keeps
    `_encrypt_from_parts` private): the public functions refuse one by name and by position."""
    material = RING.active.material
    assert material is not None
    gcm, head = RING.active_cipher, RING.active_header
    fixed_nonce, fixed_iv = bytes(envelope.GCM_NONCE_BYTES), bytes(envelope.CBC_IV_BYTES)
    with pytest.raises(TypeError):
        envelope.seal_aesgcm(gcm, head, b"Ada", CONTEXT, nonce=fixed_nonce)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        envelope.seal_aesgcm(gcm, head, b"Ada", CONTEXT, fixed_nonce)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        envelope.seal_cbc_hmac(material, 1, b"Ada", CONTEXT, iv=fixed_iv)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        envelope.seal_cbc_hmac(material, 1, b"Ada", CONTEXT, fixed_iv)  # type: ignore[call-arg, arg-type]
    for sealed in (
        envelope.seal_aesgcm(gcm, head, b"Ada", CONTEXT),
        envelope.seal_cbc_hmac(material, RING.active_version, b"Ada", CONTEXT),
    ):
        # The nonce (12 bytes) or IV (16) after the header is never the fixed one.
        assert sealed[5:17] != fixed_nonce
        assert open_(CIPHER, sealed) == "Ada"
    # The private helpers give exactly what the public ones would with that nonce or IV.
    with_nonce = envelope._seal_aesgcm_with_nonce(gcm, head, b"Ada", CONTEXT, fixed_nonce)
    assert with_nonce[5:17] == fixed_nonce and open_(CIPHER, with_nonce) == "Ada"
    with_iv = envelope._seal_cbc_hmac_with_iv(
        material, RING.active_version, b"Ada", CONTEXT, fixed_iv
    )
    assert with_iv[5:21] == fixed_iv and open_(CIPHER, with_iv) == "Ada"


def test_pending_version_decrypts_everywhere_but_seals_only_after_its_time() -> None:
    from dataclasses import replace
    from datetime import UTC, datetime, timedelta

    later = datetime.now(UTC) + timedelta(hours=1)
    pending = replace(ROTATED.keys[2], activate_after=later)
    staged = KeyRing(
        keys={1: RING.keys[1], 2: pending}, active_version=1, blind_index_key=RING.blind_index_key
    )
    cipher = cipher_for(staged, (1, 2))
    assert staged.state_of(2) == "pending"
    assert seal(cipher, "Ada")[1:5] == (1).to_bytes(4, "big")  # still sealing under 1
    # A value sealed under 2 (by a process whose clock passed activate_after) opens here.
    assert staged.encryption_version(now=later.timestamp() + 1) == 2
    activated = cipher_for(staged.activated(2), (1, 2))
    assert open_(cipher, seal(activated, "Ada")) == "Ada"


class _RefreshingSource:
    """A source whose first ring lacks version 2; refresh_after_miss swaps in the next."""

    def __init__(self, first: KeyRing, second: KeyRing) -> None:
        self.ring, self._next, self.refreshes = first, second, 0

    def refresh_after_miss(self) -> bool:
        self.refreshes += 1
        self.ring = self._next
        return True


def test_an_unknown_version_triggers_one_refresh_then_opens() -> None:
    sealed = seal(cipher_for(ROTATED, (1, 2)), "Ada")
    source = _RefreshingSource(RING, ROTATED)
    cipher = FieldCipher(source)
    cipher.data_keys.store(WORKSPACE, dict(WRAPPED))
    assert open_(cipher, sealed) == "Ada"
    assert source.refreshes == 1
