"""The stored format of an encrypted field, and the two algorithms that produce it.

Every value starts with a five-byte header: one format byte and the key version (unsigned
32-bit, big-endian). The format byte names the algorithm, so a reader never guesses:

- 0x01 AES-256-GCM, sealed by the application:
  header | nonce (12) | ciphertext | tag (16); associated data = header | context.
- 0x02 AES-256-CBC + HMAC-SHA256 (encrypt-then-MAC), sealed by PostgreSQL's pgcrypto:
  header | iv (16) | ciphertext (PKCS#7 padded) | tag (32);
  tag = HMAC-SHA256(mac_key, header | iv | ciphertext | context | len(context) as 8 bytes),
  the length closing the input so no block can move between ciphertext and context; with
  enc_key = HMAC-SHA256(key, "carevault/pgcrypto/enc") and
  mac_key = HMAC-SHA256(key, "carevault/pgcrypto/mac").

- 0x03 AES-256-GCM under the practice's data key, bound to its row:
  header | nonce (12) | ciphertext | tag (16), the header's version naming the master version
  whose data key sealed it; associated data = header | workspace id (16) | row id (16) |
  context. The two ids are the raw 16 bytes of the row's UUIDs, read from the row itself when
  the value is opened, so a value copied into another row, practice or column fails.

- 0x04 the construction of 0x02, sealed and opened inside PostgreSQL, under the practice's
  data key of the version in the header (not the master key), with the row bound the way
  0x03 binds it: the MAC's context is workspace id (16) | row id (16) | "table.column".

The context names where the value lives ("table.column"). docs/reference/stored-format.md is
the full specification.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from carevault.crypto.errors import DecryptionError

FORMAT_AESGCM = 0x01
FORMAT_PGCRYPTO = 0x02
FORMAT_BOUND = 0x03
FORMAT_PGCRYPTO_BOUND = 0x04
ROW_ID_BYTES = 16
ROW_BINDING_BYTES = 2 * ROW_ID_BYTES  # workspace id, then row id
HEADER_BYTES = 5
GCM_NONCE_BYTES = 12
GCM_TAG_BYTES = 16
CBC_IV_BYTES = 16
HMAC_TAG_BYTES = 32
MIN_AESGCM_BYTES = HEADER_BYTES + GCM_NONCE_BYTES + GCM_TAG_BYTES
MIN_PGCRYPTO_BYTES = HEADER_BYTES + CBC_IV_BYTES + 16 + HMAC_TAG_BYTES

AUTHENTICATION_FAILED = "authentication failed (tampered, moved, or wrong key)"

PGCRYPTO_ENC_LABEL = b"carevault/pgcrypto/enc"
PGCRYPTO_MAC_LABEL = b"carevault/pgcrypto/mac"


def header(format_byte: int, key_version: int) -> bytes:
    return bytes((format_byte,)) + key_version.to_bytes(4, "big")


def read_header(value: bytes) -> tuple[int, int]:
    """(format byte, key version) of a stored value; raises DecryptionError if too short."""
    if len(value) < HEADER_BYTES:
        raise DecryptionError("stored value is truncated (no header)")
    return value[0], int.from_bytes(value[1:HEADER_BYTES], "big")


def seal_aesgcm(cipher: AESGCM, head: bytes, plaintext: bytes, context: bytes) -> bytes:
    """Encrypt with AES-256-GCM under the key `head` names (`header(FORMAT_AESGCM, version)`;
    the key ring keeps the active one precomputed), with a fresh random nonce."""
    nonce = os.urandom(GCM_NONCE_BYTES)
    return head + nonce + cipher.encrypt(nonce, plaintext, head + context)


def _seal_aesgcm_with_nonce(
    cipher: AESGCM, head: bytes, plaintext: bytes, context: bytes, nonce: bytes
) -> bytes:
    """Format 0x01 with a fixed nonce, for test vectors only. Never call this to store data:
    a nonce used twice under one key gives away the plaintexts and the authentication key."""
    return _seal_gcm_with_nonce(cipher, head, plaintext, head + context, nonce)


def open_aesgcm(cipher: AESGCM, value: bytes, context: bytes) -> bytes:
    """Open a format-0x01 value with the cipher of the version its header names."""
    if len(value) < MIN_AESGCM_BYTES:
        raise DecryptionError("stored value is truncated")
    nonce_end = HEADER_BYTES + GCM_NONCE_BYTES
    try:
        return cipher.decrypt(
            value[HEADER_BYTES:nonce_end], value[nonce_end:], value[:HEADER_BYTES] + context
        )
    except InvalidTag:
        raise DecryptionError(AUTHENTICATION_FAILED) from None


def bound_associated_data(head: bytes, workspace: bytes, row: bytes, context: bytes) -> bytes:
    """What a format-0x03 value authenticates besides its ciphertext."""
    if len(workspace) != ROW_ID_BYTES or len(row) != ROW_ID_BYTES:
        raise DecryptionError("row binding ids must be 16 bytes each")
    return head + workspace + row + context


def seal_bound(
    cipher: AESGCM, head: bytes, plaintext: bytes, workspace: bytes, row: bytes, context: bytes
) -> bytes:
    """Format 0x03: AES-256-GCM under a data key, bound to workspace, row and column.

    Every PHI write runs this, so `bound_associated_data` is written out here (same check,
    same bytes) rather than called: one Python call less per value."""
    if len(workspace) != ROW_ID_BYTES or len(row) != ROW_ID_BYTES:
        raise DecryptionError("row binding ids must be 16 bytes each")
    nonce = os.urandom(GCM_NONCE_BYTES)
    return head + nonce + cipher.encrypt(nonce, plaintext, head + workspace + row + context)


def _seal_gcm_with_nonce(
    cipher: AESGCM, head: bytes, plaintext: bytes, associated: bytes, nonce: bytes
) -> bytes:
    """GCM (0x01 or 0x03) with a fixed nonce and the associated data the caller assembled,
    for test vectors only. Never call this to store data."""
    return head + nonce + cipher.encrypt(nonce, plaintext, associated)


def open_gcm(cipher: AESGCM, value: bytes, associated: bytes) -> bytes:
    """Open a GCM value (0x01 or 0x03) whose associated data the caller assembled."""
    if len(value) < MIN_AESGCM_BYTES:
        raise DecryptionError("stored value is truncated")
    nonce_end = HEADER_BYTES + GCM_NONCE_BYTES
    try:
        return cipher.decrypt(value[HEADER_BYTES:nonce_end], value[nonce_end:], associated)
    except InvalidTag:
        raise DecryptionError(AUTHENTICATION_FAILED) from None


def pgcrypto_subkeys(key: bytes) -> tuple[bytes, bytes]:
    """(encryption key, MAC key) derived from a ring key for format 0x02."""
    return (
        hmac.new(key, PGCRYPTO_ENC_LABEL, hashlib.sha256).digest(),
        hmac.new(key, PGCRYPTO_MAC_LABEL, hashlib.sha256).digest(),
    )


def seal_cbc_hmac(
    key: bytes,
    key_version: int,
    plaintext: bytes,
    context: bytes,
    *,
    format_byte: int = FORMAT_PGCRYPTO,
) -> bytes:
    """Formats 0x02 and 0x04 in Python: what the pgcrypto SQL functions compute, byte for
    byte (for 0x04, `key` is the practice data key and `context` starts with the row ids),
    with a fresh random IV."""
    return _seal_cbc_hmac_with_iv(
        key, key_version, plaintext, context, os.urandom(CBC_IV_BYTES), format_byte=format_byte
    )


def _seal_cbc_hmac_with_iv(
    key: bytes,
    key_version: int,
    plaintext: bytes,
    context: bytes,
    iv: bytes,
    *,
    format_byte: int = FORMAT_PGCRYPTO,
) -> bytes:
    """`seal_cbc_hmac` with a given IV: for test vectors, and for tests that rebuild what the
    database sealed from the IV it chose. Never call this to store data."""
    enc_key, mac_key = pgcrypto_subkeys(key)
    head = header(format_byte, key_version)
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plaintext) + padder.finalize()
    encryptor = Cipher(algorithms.AES(enc_key), modes.CBC(iv)).encryptor()
    body = head + iv + encryptor.update(padded) + encryptor.finalize()
    return body + _cbc_hmac_tag(mac_key, body, context)


def _cbc_hmac_tag(mac_key: bytes, body: bytes, context: bytes) -> bytes:
    message = body + context + len(context).to_bytes(8, "big")
    return hmac.new(mac_key, message, hashlib.sha256).digest()


def open_cbc_hmac(key: bytes, value: bytes, context: bytes) -> bytes:
    if len(value) < MIN_PGCRYPTO_BYTES or (len(value) - MIN_PGCRYPTO_BYTES) % 16:
        raise DecryptionError("stored value is truncated")
    enc_key, mac_key = pgcrypto_subkeys(key)
    body, tag = value[:-HMAC_TAG_BYTES], value[-HMAC_TAG_BYTES:]
    expected = _cbc_hmac_tag(mac_key, body, context)
    if not hmac.compare_digest(tag, expected):
        raise DecryptionError(AUTHENTICATION_FAILED)
    iv = body[HEADER_BYTES : HEADER_BYTES + CBC_IV_BYTES]
    decryptor = Cipher(algorithms.AES(enc_key), modes.CBC(iv)).decryptor()
    padded = decryptor.update(body[HEADER_BYTES + CBC_IV_BYTES :]) + decryptor.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    try:
        return unpadder.update(padded) + unpadder.finalize()
    except ValueError:
        # Unreachable unless the MAC key leaked; still never return garbage.
        raise DecryptionError("padding check failed") from None
