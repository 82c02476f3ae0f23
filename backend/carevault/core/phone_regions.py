"""Phone regions: the ISO 3166 codes libphonenumber knows the numbers of. Settings
(CAREVAULT_DEFAULT_PHONE_REGION) and a practice's own region (carevault.workspaces.phones)
are checked by the same rule."""

from __future__ import annotations

from functools import cache

import phonenumbers


class UnknownRegion(ValueError):
    """Not a region libphonenumber knows the numbers of."""


@cache
def known_regions() -> frozenset[str]:
    return frozenset(phonenumbers.SUPPORTED_REGIONS)


def region_code(name: str) -> str:
    """`name` as a region code libphonenumber knows (upper case), or UnknownRegion."""
    code = name.strip().upper()
    if code not in known_regions():
        raise UnknownRegion(
            f"{name!r} is not a region CareVault knows the phone numbers of: use an ISO 3166 "
            "two-letter country code such as US, GB or DE"
        )
    return code
