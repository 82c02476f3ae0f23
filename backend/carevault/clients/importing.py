"""Bulk import of clients from another system's export (CSV or JSON lines).

All or nothing: every row is validated first and any bad row is reported by line number
with nothing written; valid files are inserted in batches inside the caller's transaction,
so a failure part-way leaves no partial import behind.
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
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.fields import (
    email_address,
    free_text,
    latest_local_date,
    multi_line,
    single_line,
)
from carevault.audit import service as audit
from carevault.clients.models import Client
from carevault.crypto import PracticeBlindIndex, current_cipher
from carevault.db.encryption import bound_rows
from carevault.workspaces.keys import load_workspace_keys, provision

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
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("email")
    @classmethod
    def _looks_like_email(cls, value: str | None) -> str | None:
        return email_address(value)

    @field_validator("first_name", "last_name", "phone", "emergency_contact_phone")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        return single_line(value)

    @field_validator("date_of_birth")
    @classmethod
    def _not_in_future(cls, value: date | None) -> date | None:
        if value is not None and value > latest_local_date():
            raise ValueError("is in the future")
        return value


@dataclass(frozen=True)
class RowError:
    line: int
    field: str | None
    message: str


class ImportRejected(Exception):
    """The file has bad rows; nothing was imported."""

    def __init__(self, errors: list[RowError], total_errors: int) -> None:
        super().__init__(f"{total_errors} bad row(s); nothing imported")
        self.errors = errors
        self.total_errors = total_errors


def _header_key(name: str) -> str:
    key = re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")
    return HEADER_ALIASES.get(key, key)


def read_rows(text: str, file_format: ImportFormat) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, raw fields) for each record; line numbers count from 1 as in an editor.
    A CSV row with more or fewer fields than the header is an error, not silently cut."""
    if file_format == "csv":
        reader = csv.reader(io.StringIO(text, newline=""))
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
                    {"__error__": f"{len(row)} field(s) where the header has {len(keys)}"},
                )
                continue
            yield reader.line_num, dict(zip(keys, row, strict=True))
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            yield number, {"__error__": f"not valid JSON ({exc.msg})"}
            continue
        except (ValueError, RecursionError):
            # An integer of thousands of digits, or nesting deeper than the parser allows.
            yield number, {"__error__": "not valid JSON (a number or nesting beyond limits)"}
            continue
        if not isinstance(record, dict):
            yield number, {"__error__": "each line must be a JSON object"}
            continue
        yield number, {_header_key(str(k)): v for k, v in record.items()}


KNOWN_COLUMNS = frozenset(ClientImportRow.model_fields)


def validate(
    rows: Iterable[tuple[int, dict[str, Any]]],
    *,
    ignore_unknown_columns: bool = False,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> list[ClientImportRow]:
    """Every row validated before anything is written; raises ImportRejected listing errors.
    Unknown columns are errors unless ignored explicitly: silently dropping data is worse.
    More than `max_rows` records is refused as soon as the next one is read, so a huge file
    never becomes a huge list in memory."""
    valid: list[ClientImportRow] = []
    errors: list[RowError] = []
    total_errors = 0
    for count, (line, fields) in enumerate(rows, start=1):
        if count > max_rows:
            message = f"more than {max_rows} rows; split the file (CAREVAULT_IMPORT_MAX_ROWS)"
            raise ImportRejected([RowError(line, None, message)], 1)
        if "__error__" in fields:
            total_errors += 1
            if len(errors) < MAX_REPORTED_ERRORS:
                errors.append(RowError(line, None, str(fields["__error__"])))
            continue
        if ignore_unknown_columns:
            fields = {k: v for k, v in fields.items() if k in KNOWN_COLUMNS}
        try:
            valid.append(ClientImportRow.model_validate(fields))
        except ValidationError as exc:
            for problem in exc.errors():
                total_errors += 1
                if len(errors) < MAX_REPORTED_ERRORS:
                    field = ".".join(str(p) for p in problem["loc"]) or None
                    errors.append(RowError(line, field, problem["msg"]))
    if total_errors:
        raise ImportRejected(errors, total_errors)
    return valid


def detect_format(name: str, text: str) -> ImportFormat:
    if name.lower().endswith((".jsonl", ".ndjson", ".json")):
        return "jsonl"
    if name.lower().endswith(".csv"):
        return "csv"
    return "jsonl" if text.lstrip().startswith("{") else "csv"


async def import_clients(
    db: AsyncSession,
    actor: audit.Actor,
    workspace_id: uuid.UUID,
    records: list[ClientImportRow],
    *,
    source: str,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Insert validated rows in batches in the caller's transaction; returns the count."""
    # A practice from before data keys existed gets its keys here rather than failing.
    await provision(db, current_cipher().ring, [workspace_id])
    await load_workspace_keys(db, workspace_id)
    index = PracticeBlindIndex(current_cipher())
    scope = str(workspace_id)
    created: list[uuid.UUID] = []
    for start in range(0, len(records), BATCH_ROWS):
        batch = []
        for record in records[start : start + BATCH_ROWS]:
            values = record.model_dump()
            client_id = uuid.uuid4()
            created.append(client_id)
            values.update(
                id=client_id,
                workspace_id=workspace_id,
                email_bidx=index.email(record.email, scope),
                phone_bidx=index.phone(record.phone, scope),
            )
            batch.append(values)
        await db.execute(insert(Client), bound_rows(Client, batch))
        if progress is not None:
            progress(len(batch))
    await audit.record(
        db,
        actor,
        "client.import",
        resource_type="client",
        resource_ids=created,
        details={"count": len(created), "source": source},
    )
    return len(created)
