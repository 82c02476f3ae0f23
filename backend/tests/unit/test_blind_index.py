import pytest

from carevault.crypto import (
    BlindIndex,
    KeyRing,
    StaticRing,
    normalize_email,
    normalize_phone_digits,
)

RING = KeyRing.generate()
INDEX = BlindIndex(StaticRing(RING))
SCOPE = "6f1f5a3e-0000-4000-8000-000000000001"


def test_email_normalisation_finds_the_same_row() -> None:
    assert normalize_email("  Ada.Lovelace@Example.ORG ") == "ada.lovelace@example.org"
    assert INDEX.email("Ada.Lovelace@Example.ORG ", SCOPE) == INDEX.email(
        "ada.lovelace@example.org", SCOPE
    )


def test_the_pre_e164_phone_kind_keeps_digits_only() -> None:
    assert normalize_phone_digits("+1 (555) 010-9999") == "15550109999"
    assert INDEX.phone_digits("+1 (555) 010-9999", SCOPE) == INDEX.phone_digits(
        "15550109999", SCOPE
    )


def test_the_e164_kind_takes_only_numbers_already_in_e164_form() -> None:
    """Reading what was typed needs the practice's region and libphonenumber, which the
    crypto core leaves to the application: it refuses rather than guesses."""
    assert INDEX.phone("+15550109999", SCOPE) is not None
    for typed in ("+1 (555) 010-9999", "15550109999", "+05550109999", "+1", "", "+１５５５"):
        with pytest.raises(ValueError, match=r"E\.164") as refused:
            INDEX.phone(typed, SCOPE)
        assert typed not in str(refused.value) or not typed
    # The two phone kinds never share an index, whatever the digits.
    assert INDEX.phone("+15550109999", SCOPE) != INDEX.phone_digits("+15550109999", SCOPE)


def test_different_values_kinds_and_scopes_do_not_collide() -> None:
    email = INDEX.email("a@example.org", SCOPE)
    assert email != INDEX.email("b@example.org", SCOPE)
    assert email != INDEX.email("a@example.org", "another-workspace")
    assert INDEX.email("5550109999@x", SCOPE) != INDEX.phone_digits("5550109999", SCOPE)


def test_index_uses_the_blind_index_key_not_the_encryption_key() -> None:
    value = INDEX.email("a@example.org", SCOPE)
    assert value is not None and len(value) == 32
    rotated = BlindIndex(StaticRing(RING.rotated()))
    assert rotated.email("a@example.org", SCOPE) == value  # rotating encryption keys: no change
    other = BlindIndex(StaticRing(KeyRing.generate()))
    assert other.email("a@example.org", SCOPE) != value


@pytest.mark.parametrize("value", [None, "", "   ", "---"])
def test_values_that_normalise_to_nothing_have_no_index(value: str | None) -> None:
    assert INDEX.phone_digits(value, SCOPE) is None
