"""`EncryptedString`: the only way PHI reaches the database.

Models declare `mapped_column(EncryptedString())`; code reads and writes `str`. The column's
table and name become the associated data automatically when the column joins its table.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import Column, LargeBinary, Table, bindparam, event, func, literal, type_coerce
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.elements import BindParameter, ColumnElement
from sqlalchemy.types import BigInteger, TypeDecorator

from carevault.crypto import envelope, registry
from carevault.crypto.cipher import version_refused
from carevault.crypto.errors import DecryptionError

_counts = registry.operation_counts()

# Markers returned by carevault_pgc_decrypt(): opened plaintext, or a refusal and its reason.
_PGC_OPENED = 0x00
_PGC_REFUSED = 0xFF
_PGC_REASONS = {
    1: "stored value is truncated",
    2: "unknown format byte",
    4: envelope.AUTHENTICATION_FAILED,
}


def _decrypt_field(value: Any, context: bytes) -> str:
    _counts.decrypted += 1
    if type(value) is not bytes:  # asyncpg already returns bytes: no copy
        value = bytes(value)
    try:
        return registry.current_cipher().decrypt(value, context)
    except DecryptionError:
        _counts.failed += 1
        raise


class EncryptedString(TypeDecorator[str]):
    """AES-256-GCM (or pgcrypto) encrypted text stored as `bytea`."""

    impl = LargeBinary
    cache_ok = True
    _plain_str = True  # to/from_plaintext are the identity for str; subclasses that convert: False

    def __init__(self, context: str | None = None) -> None:
        super().__init__()
        self.context = context
        # The associated data, encoded once rather than on every field operation.
        self._context_bytes = None if context is None else context.encode()

    @property
    def context_bytes(self) -> bytes:
        if self._context_bytes is None:
            raise DecryptionError("encrypted column is not attached to a table")
        return self._context_bytes

    # Application backend: encryption happens in these two hooks. They always encrypt and
    # never accept database-opened markers, whatever the backend: the pgcrypto path swaps
    # in its own parameter and result types when a statement is compiled, so a statement
    # compiled for one backend can never be executed with the other's rules.

    def process_bind_param(self, value: Any, dialect: Dialect) -> bytes | None:
        if value is None:
            return None
        _counts.encrypted += 1
        if not (self._plain_str and type(value) is str):  # dates convert; wrong types refused
            value = self.to_plaintext(value)
        return registry.current_cipher().encrypt(value, self.context_bytes)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        plaintext = _decrypt_field(value, self.context_bytes)
        return plaintext if self._plain_str else self.from_plaintext(plaintext)

    def result_processor(self, dialect: Dialect, coltype: Any) -> Any:
        """For plain text columns, a closure with the context bound in advance: SQLAlchemy
        calls it once per fetched value (the impl, bytea, has no processor of its own)."""
        inner = self.impl_instance.result_processor(dialect, coltype)
        if not self._plain_str or inner is not None or self._context_bytes is None:
            return super().result_processor(dialect, coltype)
        context = self._context_bytes

        def process(value: Any) -> str | None:
            return None if value is None else _decrypt_field(value, context)

        return process

    def to_plaintext(self, value: Any) -> str:
        if not isinstance(value, str):
            raise TypeError(f"{self.context}: expected str, got {type(value).__name__}")
        return value

    def from_plaintext(self, plaintext: str) -> Any:
        return plaintext

    # Database backend: SQL wrapping, decided when a statement is compiled. -----------------

    def bind_expression(self, bindvalue: BindParameter[str]) -> ColumnElement[str] | None:
        if registry.current_backend() is not registry.PhiBackend.PGCRYPTO:
            return bindvalue
        return func.carevault_pgc_encrypt(
            type_coerce(bindvalue, _PgcryptoPlaintext(self)),
            bindparam("cv_active_key", None, type_=_ActiveKeyMaterial(), unique=True),
            bindparam("cv_active_version", None, type_=_ActiveKeyVersion(), unique=True),
            literal(self.context),
            type_=LargeBinary,
        )

    def column_expression(self, column: ColumnElement[str]) -> ColumnElement[str] | None:
        if registry.current_backend() is not registry.PhiBackend.PGCRYPTO:
            return column
        return func.carevault_pgc_decrypt(
            column,
            bindparam("cv_key_versions", None, type_=_UsableKeyVersions(), unique=True),
            bindparam("cv_key_material", None, type_=_UsableKeyMaterial(), unique=True),
            literal(self.context),
            type_=_PgcryptoOpened(self),
        )


class EncryptedDate(EncryptedString):
    """A date stored encrypted as its ISO form (YYYY-MM-DD)."""

    cache_ok = True
    _plain_str = False

    def to_plaintext(self, value: Any) -> str:
        if not isinstance(value, date):
            raise TypeError(f"{self.context}: expected date, got {type(value).__name__}")
        return value.isoformat()

    def from_plaintext(self, plaintext: str) -> Any:
        return date.fromisoformat(plaintext)


@event.listens_for(Column, "after_parent_attach")
def _bind_context_to_column(column: Column[Any], table: Any) -> None:
    """Give each encrypted column its own type instance whose context is "table.column"."""
    if (
        isinstance(column.type, EncryptedString)
        and isinstance(table, Table)
        and column.type.context is None
    ):
        bound = column.type.copy()
        bound.context = f"{table.name}.{column.name}"
        bound._context_bytes = bound.context.encode()
        column.type = bound


class _PgcryptoPlaintext(TypeDecorator[Any]):
    """The plaintext parameter of carevault_pgc_encrypt(): UTF-8 bytes, sealed by the database."""

    impl = LargeBinary
    cache_ok = True

    def __init__(self, column_type: EncryptedString) -> None:
        super().__init__()
        self.column_type = column_type

    def process_bind_param(self, value: Any, dialect: Dialect) -> bytes | None:
        if value is None:
            return None
        _counts.encrypted += 1
        return self.column_type.to_plaintext(value).encode()


class _PgcryptoOpened(TypeDecorator[Any]):
    """The result of carevault_pgc_decrypt(): 0x00 + plaintext, an application-sealed value
    passed through, or 0xFF + reason when the database refused it."""

    impl = LargeBinary
    cache_ok = True

    def __init__(self, column_type: EncryptedString) -> None:
        super().__init__()
        self.column_type = column_type

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        opened = bytes(value)
        if opened[:1] == bytes((_PGC_OPENED,)):
            _counts.decrypted += 1
            return self.column_type.from_plaintext(opened[1:].decode())
        if opened[:1] == bytes((_PGC_REFUSED,)):
            _counts.decrypted += 1
            _counts.failed += 1
            reason = opened[1] if len(opened) > 1 else 0
            if reason == 3 and len(opened) >= 7:
                version = int.from_bytes(opened[3:7], "big")
                raise version_refused(registry.current_cipher().ring, version)
            raise DecryptionError(_PGC_REASONS.get(reason, "refused by the database"))
        return self.column_type.process_result_value(opened, dialect)


# Parameter types that take their value from the current key ring at execution time, so a
# cached compiled statement always sends the keys of the moment. Keys travel only as bound
# parameters (never as SQL text); engines are created with hide_parameters=True.


class _ActiveKeyMaterial(TypeDecorator[bytes]):
    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> bytes:
        return registry.current_cipher().ring.active.material


class _ActiveKeyVersion(TypeDecorator[int]):
    impl = BigInteger
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> int:
        return registry.current_cipher().ring.active_version


class _UsableKeyVersions(TypeDecorator[list[int]]):
    impl = ARRAY(BigInteger)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> list[int]:
        return list(registry.current_cipher().ring.usable_material())


class _UsableKeyMaterial(TypeDecorator[list[bytes]]):
    impl = ARRAY(LargeBinary)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> list[bytes]:
        return list(registry.current_cipher().ring.usable_material().values())


__all__ = ["EncryptedDate", "EncryptedString"]
