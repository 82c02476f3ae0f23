"""Request-field rules shared by every domain's schemas and services."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from carevault.api.errors import ApiError

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


def not_nullable(schema: dict[str, Any]) -> None:
    """JSON schema of a field that may be omitted but not sent as null."""
    schema.pop("default", None)
    variants = schema.pop("anyOf", [])
    schema.update(next(v for v in variants if v.get("type") != "null"))


def invalid(code: str, message: str, *fields: str) -> ApiError:
    """A 422 in the shape of validation errors, naming the fields."""
    return ApiError(
        422, code, message, details=[{"field": field, "message": message} for field in fields]
    )
