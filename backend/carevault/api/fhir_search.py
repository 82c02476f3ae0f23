"""FHIR search parameters: parsing, prefixes, the opaque paging cursor. No rules: what a
parameter means is decided by the router, through the services."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from urllib.parse import parse_qsl, urlencode

from carevault.api.errors import ApiError

DEFAULT_COUNT = 20
MAX_COUNT = 1000
# Parameters every interaction accepts (and ignores, but for _format's media type).
GENERAL = frozenset({"_format", "_pretty"})
PAGING = frozenset({"_count", "_cursor"})
JSON_FORMATS = frozenset({"json", "application/json", "application/fhir+json"})
PREFIXES = ("eq", "ge", "le", "gt", "lt")


@dataclass(frozen=True, slots=True)
class Bound:
    """One prefixed value of a date or instant parameter (`ge2025-01-01`)."""

    prefix: str
    value: datetime
    precision_day: bool

    def accepts(self, when: datetime | date) -> bool:
        moment = _as_datetime(when)
        if self.precision_day and self.prefix in ("eq", "le", "gt"):
            # A day stands for all of it: le2025-01-31 includes that whole day.
            day = self.value.date()
            other = moment.date()
            return {
                "eq": other == day,
                "le": other <= day,
                "gt": other > day,
            }[self.prefix]
        return {
            "eq": moment == self.value,
            "ge": moment >= self.value,
            "le": moment <= self.value,
            "gt": moment > self.value,
            "lt": moment < self.value,
        }[self.prefix]


def _as_datetime(value: datetime | date) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime.combine(value, time.min, tzinfo=UTC)


class Params:
    """A search's parameters (query string, plus a form body for POST `_search`), refused
    when any is not among `allowed` (400 naming every one, as the REST API's
    `unknown_parameter`)."""

    def __init__(self, items: Iterable[tuple[str, str]], allowed: Iterable[str]) -> None:
        self.items = [(name, value) for name, value in items]
        accepted = GENERAL | frozenset(allowed)
        unknown = sorted({name for name, _ in self.items if name not in accepted})
        if unknown:
            # Modifiers (`name:exact`) and chains are unsupported too: named as sent.
            raise ApiError(
                400,
                "unknown_parameter",
                f"unsupported search parameter(s): {', '.join(unknown)}; this interaction "
                f"accepts: {', '.join(sorted(accepted))}",
                details={"parameters": unknown},
            )
        for value in self.all("_format"):
            if value not in JSON_FORMATS:
                raise ApiError(415, "unsupported_media_type", "only JSON is served (_format=json)")

    def all(self, name: str) -> list[str]:
        return [value for key, value in self.items if key == name]

    def one(self, name: str) -> str | None:
        values = self.all(name)
        if len(values) > 1:
            raise ApiError(400, "bad_request", f"{name} may be given once")
        if values and not values[0].strip():
            raise ApiError(400, "bad_request", f"{name} is empty")
        return values[0].strip() if values else None

    def names(self) -> set[str]:
        return {name for name, _ in self.items}

    def without(self, *names: str) -> list[tuple[str, str]]:
        return [(key, value) for key, value in self.items if key not in names]

    def count(self) -> int:
        text = self.one("_count")
        if text is None:
            return DEFAULT_COUNT
        if not text.isdigit() or not 1 <= int(text) <= MAX_COUNT:
            raise ApiError(400, "bad_request", f"_count is a whole number from 1 to {MAX_COUNT}")
        return int(text)

    def bounds(self, name: str) -> list[Bound]:
        """The prefixed dates of `name` (`ge2025-01-01`, `lt2025-02-01T10:00:00Z`)."""
        found = []
        for raw in self.all(name):
            for text in raw.split(","):
                found.append(parse_bound(name, text.strip()))
        return found


def parse_bound(name: str, text: str) -> Bound:
    prefix = text[:2] if text[:2] in PREFIXES else "eq"
    value = text[2:] if text[:2] in PREFIXES else text
    if text[:2].isalpha() and text[:2] not in PREFIXES:
        raise ApiError(
            400, "bad_request", f"{name}: prefix {text[:2]!r} is not supported (eq ge le gt lt)"
        )
    try:
        if len(value) == 10:
            day = date.fromisoformat(value)
            return Bound(prefix, datetime.combine(day, time.min, tzinfo=UTC), True)
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ApiError(
            400, "bad_request", f"{name}: a date (YYYY-MM-DD) or an instant with its offset"
        ) from None
    if moment.tzinfo is None:
        raise ApiError(400, "bad_request", f"{name}: an instant needs its offset (Z)")
    return Bound(prefix, moment, False)


def form_items(body: bytes) -> list[tuple[str, str]]:
    """An application/x-www-form-urlencoded body's items."""
    try:
        return parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
    except UnicodeDecodeError:
        raise ApiError(400, "bad_request", "the form body is not UTF-8") from None


def encode_cursor(resource_type: str, page: int) -> str:
    """An opaque cursor to the `page`th page of a search (the search's other parameters
    travel in the next link itself)."""
    raw = json.dumps({"t": resource_type, "p": page}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(resource_type: str, cursor: str | None) -> int:
    """The page a cursor points at (1 without one); 400 for a cursor not made here."""
    if cursor is None:
        return 1
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        state = json.loads(base64.urlsafe_b64decode(padded.encode()))
        page = state["p"]
        if state["t"] != resource_type or not isinstance(page, int) or page < 1:
            raise ValueError
    except (ValueError, KeyError, TypeError, binascii.Error, json.JSONDecodeError):
        raise ApiError(400, "invalid_cursor", "_cursor is not a cursor of this search") from None
    return int(page)


def next_link(
    base: str, path: str, params: Params, resource_type: str, page: int, *, form: Sequence[str] = ()
) -> str:
    """The URL of the next page: the same search (but the parameters in `form`, which came
    in a POST body and are PHI: those are sent again in the body), the cursor moved on."""
    kept = [(k, v) for k, v in params.without("_cursor") if k not in form]
    kept.append(("_cursor", encode_cursor(resource_type, page)))
    return f"{base}/{path}?{urlencode(kept)}"


def self_link(base: str, path: str, params: Params, *, form: Sequence[str] = ()) -> str:
    kept = [(k, v) for k, v in params.items if k not in form]
    return f"{base}/{path}" + (f"?{urlencode(kept)}" if kept else "")
