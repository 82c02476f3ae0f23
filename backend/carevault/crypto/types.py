"""`EncryptedString`: the only way PHI reaches the database.

Models declare `mapped_column(EncryptedString())`; code reads `str` and writes values bound
to their row (carevault.crypto.binding; the ORM binds on flush). The column's table and name
become the associated data automatically when the column joins its table.

Every encrypted column is selected together with its row's practice and primary key
(`uuid_send(workspace_id) || uuid_send(id) || value`), so the ids a value is checked against
come from the row it was read from, never from the value itself: a value copied into another
row fails to open. Tables with encrypted columns must therefore have `id` and
`workspace_id` UUID columns.
"""

from __future__ import annotations

import uuid
from datetime import date
from typing import Any

from sqlalchemy import (
    Column,
    LargeBinary,
    Table,
    bindparam,
    case,
    event,
    func,
    literal,
    type_coerce,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import ArgumentError
from sqlalchemy.sql.elements import BindParameter, ColumnElement
from sqlalchemy.types import BigInteger, TypeDecorator, Uuid

from carevault.crypto import envelope, registry
from carevault.crypto.binding import UnboundValueError
from carevault.crypto.cipher import version_refused
from carevault.crypto.datakeys import current_practice
from carevault.crypto.errors import DecryptionError

_counts = registry.operation_counts()

# Markers returned by carevault_pgc_decrypt(): opened plaintext, or a refusal and its reason.
_PGC_OPENED = 0x00
_PGC_REFUSED = 0xFF
# Not sealed by the database: the application opens it, row ids in front (see module doc).
_PGC_ROW_PREFIXED = 0xFE
# Names of the parameters that carry the practice and its data keys to
# carevault_pgc_open_bound(). They are shared by every encrypted column of a statement, so a
# statement sends the keys once (SQLAlchemy renders one positional parameter per name).
_PRACTICE_PARAM = "cv_practice"
_PRACTICE_VERSIONS_PARAM = "cv_practice_versions"
_PRACTICE_KEYS_PARAM = "cv_practice_keys"
_PGC_REASONS = {
    1: "stored value is truncated",
    2: "unknown format byte",
    4: envelope.AUTHENTICATION_FAILED,
    5: "the row belongs to another practice than the one this request works on",
}


def _decrypt_field(value: Any, context: bytes) -> str:
    """Open a value selected with its row ids in front."""
    _counts.decrypted += 1
    if type(value) is not bytes:  # asyncpg already returns bytes: no copy
        value = bytes(value)
    try:
        return registry.current_cipher().open_prefixed(value, context)
    except DecryptionError:
        _counts.failed += 1
        raise


def _row_binding_expression(column: ColumnElement[Any]) -> ColumnElement[bytes]:
    """`uuid_send(workspace_id) || uuid_send(id)` of the row `column` is read from."""
    table = getattr(column, "table", None)
    columns = getattr(table, "c", None)
    if columns is None or "id" not in columns or "workspace_id" not in columns:
        raise ArgumentError(
            f"encrypted column {column} must be selected from a table or alias that has its "
            "row's id and workspace_id"
        )
    return func.uuid_send(columns.workspace_id).op("||")(func.uuid_send(columns.id))


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
        return self.seal_for_row(value, _binding_of(value, self.context))

    def seal_for_row(self, value: Any, binding: tuple[bytes, bytes]) -> bytes | None:
        """The bytes a write of `value` to this column of the row `binding` names stores
        with the application backend (format 0x03), for writers that send values without a
        compiled statement, such as `COPY`. The database backend seals in SQL instead."""
        if value is None:
            return None
        _counts.encrypted += 1
        return registry.current_cipher().seal(self.to_plaintext(value), binding, self.context_bytes)

    def bind_processor(self, dialect: Dialect) -> Any:
        """For plain text columns, a closure with the context bound in advance, as
        `result_processor` below: SQLAlchemy calls it once per written value. Same rules as
        `process_bind_param` (bound values only, str only, always sealed), without its three
        inner calls."""
        inner = self.impl_instance.bind_processor(dialect)
        if not self._plain_str or inner is not None or self._context_bytes is None:
            return super().bind_processor(dialect)
        context = self._context_bytes
        name = self.context

        def process(value: Any) -> bytes | None:
            if value is None:
                return None
            binding: tuple[bytes, bytes] | None = getattr(value, "row_binding", None)
            if binding is None:
                binding = _binding_of(value, name)  # raises UnboundValueError
            if not isinstance(value, str):
                raise TypeError(f"{name}: expected str, got {type(value).__name__}")
            _counts.encrypted += 1
            return registry.current_cipher().seal(value, binding, context)

        return process

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
            # `_decrypt_field` written out: one Python call less for every PHI value read.
            if value is None:
                return None
            _counts.decrypted += 1
            if type(value) is not bytes:
                value = bytes(value)
            try:
                return registry.current_cipher().open_prefixed(value, context)
            except DecryptionError:
                _counts.failed += 1
                raise

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
        # Format 0x04, sealed by the database under the row's practice data key, which
        # travels inside the one bound parameter built for this value.
        return func.carevault_pgc_seal_bound(
            type_coerce(bindvalue, _PgcryptoPacked(self)),
            literal(self.context),
            type_=LargeBinary,
        )

    def column_expression(self, column: ColumnElement[str]) -> ColumnElement[str] | None:
        prefixed = _row_binding_expression(column).op("||")(column)
        if registry.current_backend() is not registry.PhiBackend.PGCRYPTO:
            return type_coerce(prefixed, self)
        table_columns = column.table.c
        opened_bound = func.carevault_pgc_open_bound(
            column,
            table_columns.workspace_id,
            table_columns.id,
            # One shared parameter of each name per statement (not unique=True): however
            # many encrypted columns a statement reads, the practice's keys travel once.
            bindparam(_PRACTICE_PARAM, None, type_=_PracticeId()),
            bindparam(_PRACTICE_VERSIONS_PARAM, None, type_=_PracticeKeyVersions()),
            bindparam(_PRACTICE_KEYS_PARAM, None, type_=_PracticeKeys()),
            literal(self.context),
            type_=LargeBinary,
        )
        # Values of format 0x04 open in SQL with the practice's data keys, the only keys a
        # statement carries; everything else (0x01, 0x03, and 0x02 from before practice keys,
        # which needs a master key) comes back row-prefixed and opens in Python, so master
        # keys never reach the database.
        return type_coerce(
            case(
                (func.get_byte(column, 0) == envelope.FORMAT_PGCRYPTO_BOUND, opened_bound),
                else_=literal(bytes((_PGC_ROW_PREFIXED,)), LargeBinary).op("||")(prefixed),
            ),
            _PgcryptoOpened(self),
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


def _binding_of(value: Any, context: str | None) -> tuple[bytes, bytes]:
    binding: tuple[bytes, bytes] | None = getattr(value, "row_binding", None)
    if binding is None:
        raise UnboundValueError(
            f"{context}: an encrypted value must be bound to its row (write through the ORM, "
            "or use carevault.crypto.bind / bind_row_values for Core statements)"
        )
    return binding


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


class _PgcryptoPacked(TypeDecorator[Any]):
    """The one parameter of carevault_pgc_seal_bound(): version (4) | practice data key (32) |
    workspace id (16) | row id (16) | UTF-8 plaintext. Unbound values are refused here too."""

    impl = LargeBinary
    cache_ok = True

    def __init__(self, column_type: EncryptedString) -> None:
        super().__init__()
        self.column_type = column_type

    def process_bind_param(self, value: Any, dialect: Dialect) -> bytes | None:
        if value is None:
            return None
        workspace, row = _binding_of(value, self.column_type.context)
        cipher = registry.current_cipher()
        ring = cipher.ring
        version = cipher.data_keys.sealing_version(ring, workspace)
        material = cipher.data_keys.material(ring, workspace, version)
        if material is None:
            raise DecryptionError(f"the practice has no data key of key version {version}")
        _counts.encrypted += 1
        cipher.count_sealed(workspace, version)
        plaintext = self.column_type.to_plaintext(value).encode()
        return version.to_bytes(4, "big") + material + workspace + row + plaintext


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
        if opened[:1] == bytes((_PGC_ROW_PREFIXED,)):
            opened = opened[1:]
        return self.column_type.process_result_value(opened, dialect)


# Parameter types that take their value at execution time, so a cached compiled statement
# always sends the keys of the moment: the data keys of the practice the request works on,
# never a master key. Keys travel only as bound parameters (never as SQL text); engines are
# created with hide_parameters=True.


def _practice_keys() -> tuple[list[int], list[bytes]]:
    """The data keys of the practice this request works on (none outside a request)."""
    practice = current_practice.get()
    if practice is None:
        return [], []
    cipher = registry.current_cipher()
    versions, keys = [], []
    for version in cipher.data_keys.versions(practice):
        try:
            material = cipher.data_keys.material(cipher.ring, practice, version)
        except DecryptionError:  # a retired or unknown master version: nothing to send
            continue
        if material is not None:
            versions.append(version)
            keys.append(material)
    return versions, keys


class _PracticeId(TypeDecorator[uuid.UUID]):
    impl = Uuid
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> uuid.UUID | None:
        practice = current_practice.get()
        return None if practice is None else uuid.UUID(bytes=practice)


class _PracticeKeyVersions(TypeDecorator[list[int]]):
    impl = ARRAY(BigInteger)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> list[int]:
        return _practice_keys()[0]


class _PracticeKeys(TypeDecorator[list[bytes]]):
    impl = ARRAY(LargeBinary)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> list[bytes]:
        return _practice_keys()[1]


__all__ = ["EncryptedDate", "EncryptedString"]
