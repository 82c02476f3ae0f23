"""IANA time zone names: which this server knows. Settings (CAREVAULT_DEFAULT_TIME_ZONE) and
a practice's own zone (carevault.workspaces.time) are checked by the same rule."""

from __future__ import annotations

from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones


class UnknownTimeZone(ValueError):
    """Not an IANA time zone name this server knows."""


@cache
def known_time_zones() -> frozenset[str]:
    return frozenset(available_timezones())


def zone(name: str) -> ZoneInfo:
    if name not in known_time_zones():
        raise UnknownTimeZone(f"{name!r} is not an IANA time zone (for example Europe/Berlin)")
    try:
        return ZoneInfo(name)
    except ZoneInfoNotFoundError:
        raise UnknownTimeZone(f"{name!r} is not an IANA time zone") from None
