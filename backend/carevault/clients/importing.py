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
from array import array
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
from sqlalchemy import any_, bindparam, insert, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.types import LargeBinary

from carevault.audit import service as audit
from carevault.clients.models import Client
from carevault.clients.phone_index import PHONE_FIELDS, index_columns
from carevault.core.errors import Conflict
from carevault.core.external import EXTERNAL_ID_PATTERN
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
from carevault.db.encryption import bound_changes, bound_rows
from carevault.db.scoping import in_workspace, workspace_filter
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
    # The integrator's own id (carevault.core.external): letters, digits and `._:-`.
    external_id: str | None = Field(default=None, max_length=255, pattern=EXTERNAL_ID_PATTERN)

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
    # The line of the file the row was read from (`validated`), for the import's results.
    _line: int = PrivateAttr(default=0)

    @property
    def line(self) -> int:
        return self._line

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
    record._line = line
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
    "external_id_bidx",
)
EXTERNAL_KIND = "external-id:client"


@dataclass(frozen=True, slots=True)
class ImportedRow:
    """One row's outcome: the client it created (or, in an upsert, updated)."""

    line: int
    id: uuid.UUID
    external_id: str | None
    action: Literal["created", "updated"]


class ImportResults:
    """Each written row's line, client id, external id and whether it was created or
    updated, kept compactly (about 21 bytes a row, plus the external ids that were given) so
    memory still grows only slightly with the file."""

    def __init__(self) -> None:
        self._ids = bytearray()
        self._lines = array("I")
        self._updated = bytearray()
        self._external_ids: dict[int, str] = {}

    def add(self, line: int, client_id: uuid.UUID, external_id: str | None, updated: bool) -> None:
        if external_id is not None:
            self._external_ids[len(self._lines)] = external_id
        self._ids += client_id.bytes
        self._lines.append(line)
        self._updated.append(updated)

    def __len__(self) -> int:
        return len(self._lines)

    def order_since(self, start: int) -> None:
        """Put the rows added since `start` (one batch's) back in file order."""
        ids = bytes(self._ids[start * 16 :])
        rows = sorted(
            (
                self._lines[position],
                ids[(position - start) * 16 : (position - start) * 16 + 16],
                self._updated[position],
                self._external_ids.pop(position, None),
            )
            for position in range(start, len(self._lines))
        )
        for offset, (line, client_id, updated, external_id) in enumerate(rows):
            position = start + offset
            self._lines[position] = line
            self._ids[position * 16 : position * 16 + 16] = client_id
            self._updated[position] = updated
            if external_id is not None:
                self._external_ids[position] = external_id

    @property
    def updated(self) -> int:
        return sum(self._updated)

    def ids(self) -> list[uuid.UUID]:
        ids = bytes(self._ids)
        return [uuid.UUID(bytes=ids[i : i + 16]) for i in range(0, len(ids), 16)]

    def __iter__(self) -> Iterator[ImportedRow]:
        ids = bytes(self._ids)
        for position, line in enumerate(self._lines):
            yield ImportedRow(
                line,
                uuid.UUID(bytes=ids[position * 16 : position * 16 + 16]),
                self._external_ids.get(position),
                "updated" if self._updated[position] else "created",
            )


_TAKEN = (
    in_workspace(Client, bindparam("workspace_id"))
    .where(Client.external_id_bidx == any_(bindparam("indexes", type_=ARRAY(LargeBinary()))))
    .with_only_columns(Client.external_id_bidx, Client.id)
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

    def __init__(
        self,
        db: AsyncSession,
        workspace_id: uuid.UUID,
        results: ImportResults,
        *,
        upsert: bool = False,
    ) -> None:
        self.db = db
        self.workspace_id = workspace_id
        self.scope = str(workspace_id)
        self.index = PracticeBlindIndex(current_cipher())
        self.results = results  # the ids the audit event lists, and the answer's rows
        self.upsert = upsert
        self.use_copy = current_backend() is not PhiBackend.PGCRYPTO
        self._sealers = _sealers()
        self._driver_connection: Any = None

    @property
    def count(self) -> int:
        return len(self.results)

    def _external_index(self, record: ClientImportRow) -> bytes | None:
        return self.index.compute(EXTERNAL_KIND, record.external_id, self.scope)

    async def write(self, batch: list[ClientImportRow]) -> None:
        """Write the batch; a row naming an external id already written earlier in the
        batch starts a new part, so that it sees (and, in an upsert, updates) that client."""
        part: list[ClientImportRow] = []
        named: set[bytes] = set()
        for record in batch:
            index = self._external_index(record)
            if index is not None and index in named:
                await self._write_part(part)
                part, named = [], set()
            if index is not None:
                named.add(index)
            part.append(record)
        await self._write_part(part)

    async def _write_part(self, batch: list[ClientImportRow]) -> None:
        left = remaining()  # the request's deadline (None in the CLI), as for any statement
        if left is not None and left <= 0:
            raise DeadlineExceeded("the request deadline passed")
        if not batch:
            return
        start = len(self.results)
        batch = await self._update_existing(batch)
        if self.use_copy:
            await self._copy(batch)
        else:
            await self._insert(batch)
        self.results.order_since(start)

    async def _update_existing(self, batch: list[ClientImportRow]) -> list[ClientImportRow]:
        """The rows of `batch` whose external id no client has yet. The others: in an
        upsert, the fields they hold a value for are written to that client (a blank cell
        never clears); otherwise the import is refused, naming each such row."""
        indexes = {
            index: record for record in batch if (index := self._external_index(record)) is not None
        }
        if not indexes:
            return batch
        taken = {
            row.external_id_bidx: row.id
            for row in await self.db.execute(
                _TAKEN, {"workspace_id": self.workspace_id, "indexes": list(indexes)}
            )
        }
        if not taken:
            return batch
        if not self.upsert:
            errors = [
                RowError(
                    indexes[index].line,
                    "external_id",
                    "another client of the practice has this external_id; import with upsert "
                    "to update that client",
                )
                for index in taken
            ]
            errors.sort(key=attrgetter("line"))
            raise ImportRejected(errors[:MAX_REPORTED_ERRORS], len(errors))
        for index, client_id in taken.items():
            record = indexes[index]
            values = {
                name: value
                for name, value in record.model_dump(exclude={"external_id"}).items()
                if value is not None
            }
            if "email" in values:
                values["email_bidx"] = self.index.email(record.email, self.scope)
            if "phone" in values:
                values |= index_columns(self.index, record.phone_number, self.scope)
            await self.db.execute(
                update(Client)
                .where(workspace_filter(Client, self.workspace_id), Client.id == client_id)
                .values(bound_changes(Client, self.workspace_id, client_id, values))
                .execution_options(synchronize_session=False)
            )
            self.results.add(record.line, client_id, record.external_id, updated=True)
        return [record for record in batch if self._external_index(record) not in taken]

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
                    self._external_index(record),
                )
            )
            self.results.add(record.line, row_id, record.external_id, updated=False)
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
                external_id_bidx=self._external_index(record),
                **index_columns(self.index, record.phone_number, self.scope),
            )
            rows.append(values)
            self.results.add(record.line, row_id, record.external_id, updated=False)
        await self.db.execute(insert(Client), bound_rows(Client, rows))


def _external_id_clash(error: BaseException) -> bool:
    cause = error.orig if isinstance(error, IntegrityError) else error
    return getattr(cause, "sqlstate", None) == "23505" and "external_id" in str(cause)


async def import_clients(
    db: AsyncSession,
    actor: audit.Actor,
    workspace_id: uuid.UUID,
    records: Iterable[ClientImportRow],
    *,
    source: str,
    progress: Callable[[int], None] | None = None,
    batch_rows: int = BATCH_ROWS,
    upsert: bool = False,
    results: ImportResults | None = None,
) -> int:
    """Write `records` (a list, or `validated(...)` streaming a file) in batches of
    `batch_rows` in the caller's transaction, then the one `client.import` audit event;
    returns the count of rows written. `progress` hears how many rows each written batch
    held; `results` (if given) collects each row's line, client id, external id and action.
    `upsert`: a row whose `external_id` a client already has updates that client (the fields
    the row has a value for) instead of refusing the import. An exception from `records`
    (ImportRejected) propagates: the caller's rollback then undoes it all."""
    # A practice from before data keys existed gets its keys here rather than failing.
    await provision(db, current_cipher().ring, [workspace_id])
    await load_workspace_keys(db, workspace_id)
    collected = results if results is not None else ImportResults()
    writer = _BatchWriter(db, workspace_id, collected, upsert=upsert)
    pending = iter(records)
    try:
        while batch := list(islice(pending, batch_rows)):
            await writer.write(batch)
            if progress is not None:
                progress(len(batch))
            del batch  # the next batch is read without this one still alive
    except Exception as clash:
        # Another request gave a client one of the file's external ids meanwhile (through
        # SQLAlchemy, or asyncpg's own error from COPY).
        if not _external_id_clash(clash):
            raise
        raise Conflict(
            "external_id_taken",
            "another client of the practice took one of the file's external ids meanwhile; "
            "nothing was imported",
        ) from None
    await audit.record(
        db,
        actor,
        "client.import",
        resource_type="client",
        resource_ids=collected.ids(),
        details={"count": writer.count, "source": source}
        | ({"upsert": True, "updated": collected.updated} if upsert else {}),
    )
    return writer.count
