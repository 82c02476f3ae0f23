"""Bulk import of clients from another system's export (CSV or JSON lines).

Streamed and all or nothing. The file is read, validated, encrypted and written one batch
of `BATCH_ROWS` rows at a time inside the caller's transaction, so memory holds one batch
(plus 16 bytes per imported row, the ids the audit event lists) however long the file is.
The first bad row stops the writing: nothing more is encrypted or written and the caller's
transaction is rolled back, so nothing of the file is imported. The rest of the file is then
only read and validated, to report up to `MAX_REPORTED_ERRORS` problems (the first bad row
first, each with its line number) so that one run finds them all.

Batches go in with PostgreSQL `COPY` (binary, through asyncpg), the values sealed by the
column types exactly as an ORM write seals them. With `CAREVAULT_PHI_BACKEND=pgcrypto` the
values are sealed inside the database by a SQL function, which `COPY` cannot call, so there
each batch is one multi-row `INSERT` as before.
"""

from __future__ import annotations

import csv
import io
import json
import re
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from itertools import islice
from operator import attrgetter
from typing import IO, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
)
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.audit import service as audit
from carevault.clients.models import Client
from carevault.clients.phone_index import PHONE_FIELDS, index_columns
from carevault.core.fields import (
    email_address,
    encodable,
    free_text,
    latest_local_date,
    multi_line,
    single_line,
)
from carevault.crypto import PhiBackend, PracticeBlindIndex, current_cipher
from carevault.crypto.registry import current_backend
from carevault.crypto.types import EncryptedString
from carevault.db.deadlines import DeadlineExceeded, remaining
from carevault.db.encryption import bound_rows
from carevault.workspaces.keys import load_workspace_keys, provision
from carevault.workspaces.phones import NotAPhoneNumber, PhoneNumber, read_phone

BATCH_ROWS = 1000
MAX_REPORTED_ERRORS = 100
DEFAULT_MAX_ROWS = 100_000  # CAREVAULT_IMPORT_MAX_ROWS
ImportFormat = Literal["csv", "jsonl"]

# Header names seen in practice-management exports, mapped to ours.
HEADER_ALIASES = {
    "firstname": "first_name",
    "given_name": "first_name",
    "lastname": "last_name",
    "surname": "last_name",
    "family_name": "last_name",
    "e_mail": "email",
    "email_address": "email",
    "mobile": "phone",
    "phone_number": "phone",
    "telephone": "phone",
    "dob": "date_of_birth",
    "birth_date": "date_of_birth",
    "birthdate": "date_of_birth",
    "emergency_contact": "emergency_contact_name",
    "emergency_phone": "emergency_contact_phone",
    "history": "medical_history",
}

# A spreadsheet that opens a later export runs a cell starting with one of these as a formula
# (OWASP "CSV injection": `=HYPERLINK(...)`, `+cmd|...`, `@SUM(...)`; a leading tab or CR
# is stripped on import, so the sign after it is what counts). Imported text fields that
# start so are refused, by line and field; phone fields are exempt: they are read into
# numbers (a leading "+" is the country code) and refused when they are not one.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
FORMULA_CHECKED = (
    "first_name",
    "last_name",
    "email",
    "address",
    "emergency_contact_name",
    "medical_history",
    "notes",
)


def not_a_formula(value: str | None) -> str | None:
    if value is not None and value.startswith(FORMULA_PREFIXES):
        raise ValueError(
            f"starts with {value[0]!r}, which spreadsheets run as a formula when the data is "
            "exported and opened later; begin the cell with another character (such as an "
            "apostrophe, as spreadsheets do: it is kept)"
        )
    return value


ShortName = Annotated[str | None, Field(default=None, max_length=500), AfterValidator(single_line)]
Address = Annotated[str | None, Field(default=None, max_length=500), AfterValidator(multi_line)]
LongText = Annotated[str | None, Field(default=None, max_length=5000), AfterValidator(free_text)]


class ClientImportRow(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    first_name: str = Field(min_length=1, max_length=200)
    last_name: str = Field(min_length=1, max_length=200)
    email: str | None = Field(default=None, max_length=320)
    phone: str | None = Field(default=None, max_length=50)
    date_of_birth: date | None = None
    address: Address
    emergency_contact_name: ShortName
    emergency_contact_phone: str | None = Field(default=None, max_length=50)
    medical_history: LongText
    notes: LongText

    @field_validator("*", mode="before")
    @classmethod
    def _blank_is_missing(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        if not value.isascii():
            encodable(value)  # a JSON "\ud800" escape: refused here, by line, not when sealing
        return value if value.strip() else None

    @field_validator("email")
    @classmethod
    def _looks_like_email(cls, value: str | None) -> str | None:
        return email_address(value)

    @field_validator("first_name", "last_name", "phone", "emergency_contact_phone")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        return single_line(value)

    @field_validator(*FORMULA_CHECKED)
    @classmethod
    def _not_a_formula(cls, value: str | None) -> str | None:
        return not_a_formula(value)

    @field_validator("date_of_birth")
    @classmethod
    def _not_in_future(cls, value: date | None) -> date | None:
        if value is not None and value > latest_local_date():
            raise ValueError("is in the future")
        return value

    # `phone` as read in the practice's region (`read_phones`), for its blind index.
    _phone_number: PhoneNumber | None = PrivateAttr(default=None)

    def read_phones(self, region: str) -> list[tuple[str, str]]:
        """Read the phone fields in the practice's `region`; (field, why) for each that is
        not a possible number."""
        problems = []
        for name in PHONE_FIELDS:
            text = getattr(self, name)
            if text is None:
                continue
            try:
                number = read_phone(text, region)
            except NotAPhoneNumber as bad:
                problems.append((name, str(bad)))
                continue
            if name == "phone":
                self._phone_number = number
        return problems

    @property
    def phone_number(self) -> PhoneNumber | None:
        if self.phone is not None and self._phone_number is None:
            raise RuntimeError("an imported row's phone must be read first (validated())")
        return self._phone_number


@dataclass(frozen=True)
class RowError:
    line: int
    field: str | None
    message: str


class ImportRejected(Exception):
    """The file has bad rows; nothing was imported. `errors[0]` is the first bad row."""

    def __init__(self, errors: list[RowError], total_errors: int) -> None:
        super().__init__(f"{total_errors} bad row(s); nothing imported")
        self.errors = errors
        self.total_errors = total_errors


def _header_key(name: str) -> str:
    key = re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")
    return HEADER_ALIASES.get(key, key)


class UndecodableLine(Exception):
    """A line of the file is not UTF-8 text."""

    def __init__(self, line: int) -> None:
        super().__init__(f"line {line} is not UTF-8 text")
        self.line = line


def text_lines(binary: IO[bytes]) -> Iterator[str]:
    """The lines of a UTF-8 file (a leading BOM is dropped), decoded a chunk at a time and
    split as `open(..., newline="")` splits them, line ends kept, which is what `csv` needs.
    A line that is not UTF-8 raises `UndecodableLine` with its number. `binary` stays open."""
    # Undecodable bytes become lone surrogates, which no valid UTF-8 decodes to, so the line
    # holding them is found exactly (a strict decoder fails on a whole chunk, lines earlier).
    text = io.TextIOWrapper(binary, encoding="utf-8-sig", errors="surrogateescape", newline="")
    try:
        for number, line in enumerate(text, start=1):
            if not line.isascii():
                try:
                    line.encode()
                except UnicodeEncodeError:
                    raise UndecodableLine(number) from None
            yield line
    finally:
        text.detach()


ERROR_KEY = "__error__"


def read_rows(
    source: str | Iterable[str], file_format: ImportFormat
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, raw fields) for each record, read lazily from `source` (the whole text,
    or its lines as `text_lines` gives them); line numbers count from 1 as in an editor.
    A CSV row with more or fewer fields than the header is an error, not silently cut. A
    line that cannot be read at all (not UTF-8, a CSV field over the csv module's limit)
    is an error that ends the file."""
    # A whole text is split exactly as a file is (an io.StringIO would hold four bytes a
    # character of it on top).
    lines = (
        text_lines(io.BytesIO(source.encode(errors="surrogatepass")))
        if isinstance(source, str)
        else source
    )
    try:
        if file_format == "csv":
            yield from _csv_rows(lines)
        else:
            yield from _jsonl_rows(lines)
    except UndecodableLine as bad:
        yield bad.line, {ERROR_KEY: "not UTF-8 text; nothing after this line was read"}


def _csv_rows(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    reader = csv.reader(lines)
    try:
        header = next(reader, None)
        if header is None:
            return
        keys = [_header_key(name) for name in header]
        for row in reader:
            if not row:
                continue  # a blank line
            if len(row) != len(keys):
                yield (
                    reader.line_num,
                    {ERROR_KEY: f"{len(row)} field(s) where the header has {len(keys)}"},
                )
                continue
            yield reader.line_num, dict(zip(keys, row, strict=True))
    except csv.Error as exc:
        # A field longer than the csv module's limit, or a line end inside an unquoted field:
        # the reader cannot say where the next record starts, so nothing after is read.
        yield reader.line_num, {ERROR_KEY: f"not valid CSV ({exc}); nothing after was read"}


def _jsonl_rows(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            yield number, {ERROR_KEY: f"not valid JSON ({exc.msg})"}
            continue
        except (ValueError, RecursionError):
            # An integer of thousands of digits, or nesting deeper than the parser allows.
            yield number, {ERROR_KEY: "not valid JSON (a number or nesting beyond limits)"}
            continue
        if not isinstance(record, dict):
            yield number, {ERROR_KEY: "each line must be a JSON object"}
            continue
        yield number, {_header_key(str(k)): v for k, v in record.items()}


KNOWN_COLUMNS = frozenset(ClientImportRow.model_fields)


def _problems(
    line: int, fields: dict[str, Any], ignore_unknown_columns: bool, phone_region: str
) -> tuple[ClientImportRow | None, list[RowError]]:
    if ERROR_KEY in fields:
        return None, [RowError(line, None, str(fields[ERROR_KEY]))]
    if ignore_unknown_columns:
        fields = {k: v for k, v in fields.items() if k in KNOWN_COLUMNS}
    try:
        record = ClientImportRow.model_validate(fields)
    except ValidationError as exc:
        return None, [
            RowError(line, ".".join(str(p) for p in problem["loc"]) or None, problem["msg"])
            for problem in exc.errors()
        ]
    problems = [RowError(line, name, why) for name, why in record.read_phones(phone_region)]
    return (None, problems) if problems else (record, [])


def validated(
    rows: Iterable[tuple[int, dict[str, Any]]],
    *,
    phone_region: str,
    ignore_unknown_columns: bool = False,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> Iterator[ClientImportRow]:
    """The valid records, in file order, as they are read, phone numbers read in the
    practice's `phone_region` (carevault.workspaces.phones). At the first bad row it stops
    yielding, reads the rest only to list up to `MAX_REPORTED_ERRORS` problems (the first
    bad row first), and raises `ImportRejected`: a consumer that writes what it is given
    inside a transaction and lets the exception roll it back imports all rows or none.
    Unknown columns are errors unless ignored explicitly: silently dropping data is worse.
    More than `max_rows` records is refused as soon as the next one is read."""
    errors: list[RowError] = []
    total_errors = 0
    for count, (line, fields) in enumerate(rows, start=1):
        if count > max_rows:
            message = f"more than {max_rows} rows; split the file (CAREVAULT_IMPORT_MAX_ROWS)"
            errors.append(RowError(line, None, message))
            raise ImportRejected(errors[:MAX_REPORTED_ERRORS], total_errors + 1)
        record, problems = _problems(line, fields, ignore_unknown_columns, phone_region)
        if problems:
            total_errors += len(problems)
            errors.extend(problems[: MAX_REPORTED_ERRORS - len(errors)])
        elif record is not None and not total_errors:
            yield record
    if total_errors:
        raise ImportRejected(errors, total_errors)


def validate(
    rows: Iterable[tuple[int, dict[str, Any]]],
    *,
    phone_region: str,
    ignore_unknown_columns: bool = False,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> list[ClientImportRow]:
    """Every record of a small file at once (tests, tools); imports stream `validated`."""
    return list(
        validated(
            rows,
            phone_region=phone_region,
            ignore_unknown_columns=ignore_unknown_columns,
            max_rows=max_rows,
        )
    )


def detect_format(name: str, head: str) -> ImportFormat:
    """From the file name, else from its first characters (`head`)."""
    if name.lower().endswith((".jsonl", ".ndjson", ".json")):
        return "jsonl"
    if name.lower().endswith(".csv"):
        return "csv"
    return "jsonl" if head.lstrip().startswith("{") else "csv"


# Writing ---------------------------------------------------------------------------------

RECORD_FIELDS = tuple(ClientImportRow.model_fields)
COPY_COLUMNS = (
    "id",
    "workspace_id",
    *RECORD_FIELDS,
    "email_bidx",
    "phone_bidx",
    "phone_bidx_region",
)
_record_values = attrgetter(*RECORD_FIELDS)


def _sealers() -> tuple[Callable[[Any, tuple[bytes, bytes]], bytes | None], ...]:
    """One function per imported field: the column type's own sealing (format 0x03, bound to
    the practice, the row and `clients.<column>`), the one an ORM write of that column uses."""
    sealers = []
    for name in RECORD_FIELDS:
        column_type = Client.__table__.c[name].type
        if not isinstance(column_type, EncryptedString):
            raise TypeError(f"clients.{name} is imported but not encrypted")
        sealers.append(column_type.seal_for_row)
    return tuple(sealers)


class _BatchWriter:
    """Writes batches of validated records as `clients` rows of one practice."""

    def __init__(self, db: AsyncSession, workspace_id: uuid.UUID) -> None:
        self.db = db
        self.workspace_id = workspace_id
        self.scope = str(workspace_id)
        self.index = PracticeBlindIndex(current_cipher())
        self.created = bytearray()  # 16 bytes per row: the ids the audit event lists
        self.use_copy = current_backend() is not PhiBackend.PGCRYPTO
        self._sealers = _sealers()
        self._driver_connection: Any = None

    @property
    def count(self) -> int:
        return len(self.created) // 16

    def created_ids(self) -> list[uuid.UUID]:
        created = bytes(self.created)
        return [uuid.UUID(bytes=created[i : i + 16]) for i in range(0, len(created), 16)]

    async def write(self, batch: list[ClientImportRow]) -> None:
        left = remaining()  # the request's deadline (None in the CLI), as for any statement
        if left is not None and left <= 0:
            raise DeadlineExceeded("the request deadline passed")
        if self.use_copy:
            await self._copy(batch)
        else:
            await self._insert(batch)

    async def _copy(self, batch: list[ClientImportRow]) -> None:
        workspace_id, workspace = self.workspace_id, self.workspace_id.bytes
        index, email_index, scope = self.index, self.index.email, self.scope
        sealers = self._sealers
        rows = []
        for record in batch:
            row_id = uuid.uuid4()
            binding = (workspace, row_id.bytes)
            values = _record_values(record)
            phone = index_columns(index, record.phone_number, scope)
            rows.append(
                (
                    row_id,
                    workspace_id,
                    *[seal(value, binding) for seal, value in zip(sealers, values, strict=True)],
                    email_index(record.email, scope),
                    phone["phone_bidx"],
                    phone["phone_bidx_region"],
                )
            )
            self.created += binding[1]
        connection = await self._connection()
        await connection.copy_records_to_table(
            Client.__tablename__, records=rows, columns=COPY_COLUMNS
        )

    async def _connection(self) -> Any:
        """The session's own asyncpg connection, inside the session's transaction."""
        if self._driver_connection is None:
            connection = await self.db.connection()
            raw: Any = (await connection.get_raw_connection()).driver_connection
            # SQLAlchemy begins its transaction on the driver lazily, with the first
            # statement (the key lookups before any batch); a COPY outside it would commit
            # on its own and break "all rows or none".
            if not raw.is_in_transaction():
                raise RuntimeError("the import's transaction has not begun on its connection")
            self._driver_connection = raw
        return self._driver_connection

    async def _insert(self, batch: list[ClientImportRow]) -> None:
        rows = []
        for record in batch:
            values = record.model_dump()
            row_id = uuid.uuid4()
            values.update(
                id=row_id,
                workspace_id=self.workspace_id,
                email_bidx=self.index.email(record.email, self.scope),
                **index_columns(self.index, record.phone_number, self.scope),
            )
            rows.append(values)
            self.created += row_id.bytes
        await self.db.execute(insert(Client), bound_rows(Client, rows))


async def import_clients(
    db: AsyncSession,
    actor: audit.Actor,
    workspace_id: uuid.UUID,
    records: Iterable[ClientImportRow],
    *,
    source: str,
    progress: Callable[[int], None] | None = None,
    batch_rows: int = BATCH_ROWS,
) -> int:
    """Write `records` (a list, or `validated(...)` streaming a file) in batches of
    `batch_rows` in the caller's transaction, then the one `client.import` audit event;
    returns the count. `progress` hears how many rows each written batch held. An exception
    from `records` (ImportRejected) propagates: the caller's rollback then undoes it all."""
    # A practice from before data keys existed gets its keys here rather than failing.
    await provision(db, current_cipher().ring, [workspace_id])
    await load_workspace_keys(db, workspace_id)
    writer = _BatchWriter(db, workspace_id)
    pending = iter(records)
    while batch := list(islice(pending, batch_rows)):
        await writer.write(batch)
        if progress is not None:
            progress(len(batch))
        del batch  # the next batch is read without this one still alive
    await audit.record(
        db,
        actor,
        "client.import",
        resource_type="client",
        resource_ids=writer.created_ids(),
        details={"count": writer.count, "source": source},
    )
    return writer.count
