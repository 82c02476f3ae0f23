"""The cost of one field operation, measured in this process the way the budget benchmarks
measure it: `EncryptedString`'s own bind and result processors (what SQLAlchemy calls for
every PHI value), on a representative 350-byte value (a typical SOAP section), in the
current format (0x03): the value bound to its row, sealed under a practice data key found
in the cipher's cache, and read back with the 32 bytes of row ids the column selects."""

from __future__ import annotations

import statistics
import time
import uuid
from dataclasses import dataclass
from typing import Any

VALUE_BYTES = 350
# A little non-ASCII, as real notes have.
_TEXT = "Client reports sleeping better; 3/10 pain — walks daily, café visits resumed. "


@dataclass(frozen=True)
class FieldCost:
    value_bytes: int
    encrypt_seconds: float
    decrypt_seconds: float
    encrypt_min_seconds: float
    decrypt_min_seconds: float
    rounds: int
    calls_per_round: int

    def as_dict(self) -> dict[str, object]:
        return {
            "value_bytes": self.value_bytes,
            "encrypt_us": round(self.encrypt_seconds * 1e6, 3),
            "decrypt_us": round(self.decrypt_seconds * 1e6, 3),
            "encrypt_min_us": round(self.encrypt_min_seconds * 1e6, 3),
            "decrypt_min_us": round(self.decrypt_min_seconds * 1e6, 3),
            "rounds": self.rounds,
            "calls_per_round": self.calls_per_round,
            "method": "median (used) and minimum over rounds of the mean per call of "
            "EncryptedString's bind_processor (encrypt) and result_processor (decrypt) for the "
            "sessions.subjective column, postgresql+asyncpg dialect, fresh key ring and "
            "practice data key (format 0x03, values bound to one row); decryption over "
            "distinct ciphertexts, row ids in front as the column is selected",
        }


def representative_value(size: int = VALUE_BYTES) -> str:
    text = _TEXT * (size // len(_TEXT.encode()) + 2)
    encoded = text.encode()[:size]
    return encoded.decode(errors="ignore")


def measure(rounds: int = 15, calls_per_round: int = 2_000) -> FieldCost:
    """Installs a throwaway key ring in this process (the tool's own, never the server's)."""
    from sqlalchemy.dialects.postgresql.asyncpg import dialect as asyncpg_dialect

    from carevault.crypto import (
        BoundText,
        FieldCipher,
        KeyRing,
        StaticRing,
        install,
        new_wrapped_data_key,
    )
    from carevault.notes.models import SessionNote

    ring = KeyRing.generate()
    cipher = FieldCipher(StaticRing(ring))
    # One practice's data key, loaded as `load_workspace_keys` leaves it (no database here).
    workspace, row = uuid.uuid4().bytes, uuid.uuid4().bytes
    version = ring.encryption_version()
    cipher.data_keys.store(workspace, {version: new_wrapped_data_key(ring, workspace, version)})
    install(cipher)
    dialect = asyncpg_dialect()  # type: ignore[no-untyped-call]
    column_type: Any = SessionNote.__table__.c.subjective.type
    implementation = column_type.dialect_impl(dialect)
    bind = implementation.bind_processor(dialect)
    result = implementation.result_processor(dialect, None)
    text = representative_value()
    # As the ORM hands it to the column after a flush: bound to its practice and row.
    value = BoundText(text, (workspace, row))
    row_ids = workspace + row  # what the column expression selects in front of the value
    sealed = bind(value)
    if result(row_ids + sealed) != text:
        raise RuntimeError("the field round trip failed; the measurement would be meaningless")

    def timed(function: Any, arguments: list[Any]) -> tuple[float, float]:
        per_round = []
        for _ in range(rounds):
            started = time.perf_counter()
            for argument in arguments:
                function(argument)
            per_round.append((time.perf_counter() - started) / len(arguments))
        return statistics.median(per_round), min(per_round)

    plaintexts = [value] * calls_per_round
    # Distinct ciphertexts (fresh nonces), as a server reads them: decrypting one value over
    # and over would flatter the cost through caching.
    sealed_values = [row_ids + bind(value) for _ in range(calls_per_round)]
    timed(bind, plaintexts)  # warm up
    encrypt, encrypt_min = timed(bind, plaintexts)
    decrypt, decrypt_min = timed(result, sealed_values)
    return FieldCost(
        value_bytes=len(text.encode()),
        encrypt_seconds=encrypt,
        decrypt_seconds=decrypt,
        encrypt_min_seconds=encrypt_min,
        decrypt_min_seconds=decrypt_min,
        rounds=rounds,
        calls_per_round=calls_per_round,
    )
