"""A practice's phone region: how a number written without its country code is read.

A clinician in London writes `020 7946 0018`; one in Boston writes `555-010-4477`. Each
workspace names the region whose national numbers it writes (`phone_region`, an ISO 3166
two-letter code set by owners; new practices get CAREVAULT_DEFAULT_PHONE_REGION), and every
phone number is read with Google's libphonenumber (the `phonenumbers` package) into its
E.164 form (`+442079460018`), which is what the blind index of a client's phone is computed
from. A number is refused when it is not *possible* (the wrong length for its country, no
known country code, a local number without its area code); whether it is *assigned* is not
checked, so the fictional `555` numbers of films and tests are accepted.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import phonenumbers
from phonenumbers import NumberParseException, PhoneNumberFormat, ValidationResult
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.workspaces.models import Workspace

# CAREVAULT_DEFAULT_PHONE_REGION's default, and the column default of workspaces.phone_region.
DEFAULT_PHONE_REGION = "US"


class NotAPhoneNumber(ValueError):
    """The text cannot be read as a possible phone number. The message says why without
    repeating the number (it is PHI); `reason` is the same as a stable code."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class PhoneNumber:
    """A number as read in a practice: its E.164 form and the region it was read in."""

    e164: str
    region: str


_PARSE_FAILURES = {
    NumberParseException.INVALID_COUNTRY_CODE: "unknown_country_code",
    NumberParseException.NOT_A_NUMBER: "not_a_number",
    NumberParseException.TOO_SHORT_AFTER_IDD: "too_short",
    NumberParseException.TOO_SHORT_NSN: "too_short",
    NumberParseException.TOO_LONG: "too_long",
}
_IMPOSSIBLE = {
    ValidationResult.INVALID_COUNTRY_CODE: "unknown_country_code",
    ValidationResult.TOO_SHORT: "too_short",
    ValidationResult.TOO_LONG: "too_long",
    ValidationResult.INVALID_LENGTH: "invalid_length",
    ValidationResult.IS_POSSIBLE_LOCAL_ONLY: "local_only",
}


def _explain(reason: str, where: str, national: bool) -> str:
    hint = "; a number from another country needs its + and country code" if national else ""
    return {
        "not_a_number": "is not a phone number",
        "unknown_country_code": "does not start with a known country calling code",
        "too_short": f"is too short for a phone number {where}{hint}",
        "too_long": f"is too long for a phone number {where}{hint}",
        "invalid_length": f"has a length no phone number {where} has{hint}",
        "local_only": f"is a local number {where}: add the area code",
    }[reason]


def read_phone(text: str, region: str) -> PhoneNumber:
    """Read `text` as written in a practice of `region` (a code from `region_code`): a number
    starting with + (or the region's international prefix, 00 or 011) keeps its own country;
    anything else is a national number of `region`. An extension is accepted and left out of
    the E.164 form. Raises NotAPhoneNumber."""
    national = not text.lstrip().startswith(("+", "\uff0b"))
    try:
        number = phonenumbers.parse(text, region)
    except NumberParseException as failure:
        reason = _PARSE_FAILURES.get(failure.error_type, "not_a_number")
        raise NotAPhoneNumber(reason, _explain(reason, f"in {region}", national)) from None
    result = phonenumbers.is_possible_number_with_reason(number)
    if result != ValidationResult.IS_POSSIBLE:
        reason = _IMPOSSIBLE.get(result, "invalid_length")
        country = phonenumbers.region_code_for_country_code(number.country_code or 0)
        where = (
            f"with country code +{number.country_code}"
            if country in ("ZZ", "001")
            else (f"in {country} (+{number.country_code})")
        )
        raise NotAPhoneNumber(reason, _explain(reason, where, national))
    return PhoneNumber(phonenumbers.format_number(number, PhoneNumberFormat.E164), region)


async def practice_phone_region(db: AsyncSession, workspace_id: uuid.UUID) -> str:
    found = await db.scalar(select(Workspace.phone_region).where(Workspace.id == workspace_id))
    return found or DEFAULT_PHONE_REGION
