"""Field rules shared by every domain's schemas and services, and how a refusal names the
fields at fault (`invalid`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any, Literal

from email_validator import EmailNotValidError, validate_email
from pydantic import AfterValidator, BeforeValidator, Strict

from carevault.core.errors import Invalid

# "Today" somewhere on Earth: the easternmost time zone is UTC+14, so a clinician there may
# record today's date while it is still yesterday in UTC.
EARLIEST_ZONE_AHEAD = timedelta(hours=14)


def latest_local_date() -> date:
    """The latest date that is "today" in some time zone; anything later is the future."""
    return (datetime.now(UTC) + EARLIEST_ZONE_AHEAD).date()


def encodable(value: str | None) -> str | None:
    """JSON allows lone surrogates ("\\ud800"); they cannot be encrypted as UTF-8."""
    if value is not None:
        try:
            value.encode()
        except UnicodeEncodeError:
            raise ValueError("text must be valid Unicode") from None
    return value


# C0 and C1 control characters and DEL. NUL cannot be stored in PostgreSQL text at all, and
# the others have no place in a name, an address of any kind, or a search.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# Free clinical text (SOAP notes, medical history) keeps tab and line breaks.
_CONTROL_IN_FREE_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Invisible characters that change how text is shown or split into lines (bidi overrides and
# isolates such as U+202E, zero-width space U+200B, soft hyphen, BOM: category Cf; the line
# and paragraph separators U+2028/U+2029: Zl, Zp). In a name or a location they make one
# record look like another, or break a line where the UI shows one. Zero-width non-joiner
# and joiner (U+200C, U+200D) stay: Persian and Indic names are spelled with them.
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Zl", "Zp"})
_JOINERS = frozenset({"\u200c", "\u200d"})


def _has_invisible(value: str) -> bool:
    if value.isascii():  # most text: no character to look up (a C scan, not a Python loop)
        return False
    return any(
        unicodedata.category(ch) in _INVISIBLE_CATEGORIES and ch not in _JOINERS
        for ch in value
        if ord(ch) > 0x7F
    )


def single_line(value: str | None) -> str | None:
    """A name, email, phone, location, token name or filter: one line, no control
    characters (C0, C1, DEL) and no invisible format or line-separator characters."""
    if value is not None and (_CONTROL.search(value) or _has_invisible(value)):
        raise ValueError("control and invisible formatting characters are not allowed here")
    return value


def multi_line(value: str | None) -> str | None:
    """A postal address: line breaks (LF, CR) allowed; tabs, other control characters and
    invisible format or separator characters refused."""
    if value is not None and (
        _CONTROL.search(value.replace("\r", "").replace("\n", "")) or _has_invisible(value)
    ):
        raise ValueError("control characters other than line breaks are not allowed here")
    return value


def free_text(value: str | None) -> str | None:
    """Free clinical text: tab and line breaks, but no NUL or other C0 control characters."""
    if value is not None and _CONTROL_IN_FREE_TEXT.search(value):
        raise ValueError("control characters other than tab and line breaks are not allowed")
    return value


def email_address(value: str | None) -> str | None:
    """Checked by email-validator (syntax only, no DNS); the text is kept as written.
    `.test` domains are allowed for test and demo data."""
    if value is not None:
        single_line(value)
        try:
            validate_email(value, check_deliverability=False, test_environment=True)
        except EmailNotValidError as exc:
            raise ValueError(f"not an email address: {exc}") from None
    return value


# An integer in a request body is a JSON number without a fraction: never true or false, a
# string of digits or a float, all of which pydantic's lax mode would convert
# (`{"version": true}` was saved as version 1; "2" and 3.0 were taken as 2 and 3).
StrictInteger = Annotated[int, Strict()]

_DECIMAL = re.compile(r"-?[0-9]+")


def _decimal_digits(value: object) -> object:
    if isinstance(value, str) and not _DECIMAL.fullmatch(value):
        raise ValueError("must be a whole number in decimal digits")
    return value


# An integer in a query string, where every value is text: decimal digits only ("3.0",
# "true", " 2" and other scripts' digits are refused, where lax mode took "3.0" as 3).
QueryInteger = Annotated[int, BeforeValidator(_decimal_digits)]

SingleLine = Annotated[str, AfterValidator(single_line)]
OptionalSingleLine = Annotated[str | None, AfterValidator(single_line)]


def not_nullable(schema: dict[str, Any]) -> None:
    """JSON schema of a field that may be omitted but not sent as null."""
    schema.pop("default", None)
    variants = schema.pop("anyOf", [])
    schema.update(next(v for v in variants if v.get("type") != "null"))


Location = Literal["body", "query", "path", "header"]


def field_path(location: Sequence[str | int]) -> str:
    """`details.field` of an error: where the value was sent, then its name, dotted
    (`body.plan`, `body.items.0.name`, `query.page_size`, `path.note_id`,
    `header.idempotency-key`). The same name in two places stays two fields."""
    return ".".join(str(part) for part in location)


def invalid(code: str, message: str, *fields: str, location: Location = "body") -> Invalid:
    """A refusal in the shape of validation errors (a 422 over HTTP), naming the fields
    where they were sent: `invalid(…, "session_date")` names `body.session_date`,
    `location="query"` a query parameter (see `field_path`)."""
    return Invalid(
        code,
        message,
        details=[{"field": field_path((location, field)), "message": message} for field in fields],
    )
