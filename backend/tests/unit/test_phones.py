"""Reading phone numbers in a practice's region (carevault.workspaces.phones)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pydantic import ValidationError

from carevault.config import Settings
from carevault.core.phone_regions import UnknownRegion, region_code
from carevault.workspaces.phones import NotAPhoneNumber, PhoneNumber, read_phone


@pytest.mark.parametrize(
    ("typed", "region", "e164"),
    [
        ("+1 (555) 010-4477", "US", "+15550104477"),
        ("555-010-4477", "US", "+15550104477"),
        ("1 555 010 4477", "US", "+15550104477"),  # the national prefix 1
        ("011 44 20 7946 0018", "US", "+442079460018"),  # the US international prefix
        ("＋１ (５５５) 010-4477", "US", "+15550104477"),  # full-width digits and plus
        ("+1 555 010 4477 ext. 12", "US", "+15550104477"),  # the extension is not dialled
        ("020 7946 0018", "GB", "+442079460018"),
        ("+44 (0)20 7946 0018", "GB", "+442079460018"),
        ("00 1 555 010 4477", "GB", "+15550104477"),
    ],
)
def test_numbers_are_read_into_e164_in_the_practice_region(
    typed: str, region: str, e164: str
) -> None:
    assert read_phone(typed, region) == PhoneNumber(e164, region)


@pytest.mark.parametrize(
    ("typed", "region", "reason", "says"),
    [
        ("555 0100", "US", "local_only", "add the area code"),
        ("12", "US", "too_short", "too short for a phone number in US (+1)"),
        ("020 7946 0018", "US", "too_long", "needs its + and country code"),
        ("+44 20 7946 0018 99", "US", "too_long", "too long for a phone number in GB (+44)"),
        ("+41 22 222 22 222", "US", "invalid_length", "no phone number in CH (+41) has"),
        ("+999 555 0100", "US", "unknown_country_code", "country calling code"),
        ("", "US", "not_a_number", "is not a phone number"),
        ("ask reception", "GB", "not_a_number", "is not a phone number"),
    ],
)
def test_impossible_numbers_say_why_without_repeating_the_number(
    typed: str, region: str, reason: str, says: str
) -> None:
    with pytest.raises(NotAPhoneNumber) as refused:
        read_phone(typed, region)
    assert refused.value.reason == reason
    assert says in str(refused.value)
    assert not typed or typed not in str(refused.value)


def test_regions_are_iso_codes_libphonenumber_knows() -> None:
    assert region_code(" gb ") == "GB"
    for unknown in ("XX", "UK", "GBR", "", "001"):
        with pytest.raises(UnknownRegion, match="two-letter"):
            region_code(unknown)


def test_the_default_region_comes_from_configuration() -> None:
    assert Settings(_env_file=None).default_phone_region == "US"
    assert Settings(default_phone_region="de").default_phone_region == "DE"
    with pytest.raises(ValidationError, match="ISO 3166"):
        Settings(default_phone_region="Europe")


def test_the_crypto_core_does_not_load_phonenumbers() -> None:
    """Reading numbers belongs to the application; the blind index takes E.164 as given."""
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, carevault.crypto; print('phonenumbers' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "False"
