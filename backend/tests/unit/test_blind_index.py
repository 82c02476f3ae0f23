import pytest

from carevault.crypto import BlindIndex, KeyRing, StaticRing, normalize_email, normalize_phone

RING = KeyRing.generate()
INDEX = BlindIndex(StaticRing(RING))
SCOPE = "6f1f5a3e-0000-4000-8000-000000000001"


def test_email_normalisation_finds_the_same_row() -> None:
    assert normalize_email("  Ada.Lovelace@Example.ORG ") == "ada.lovelace@example.org"
    assert INDEX.email("Ada.Lovelace@Example.ORG ", SCOPE) == INDEX.email(
        "ada.lovelace@example.org", SCOPE
    )


def test_phone_normalisation_keeps_digits_only() -> None:
    assert normalize_phone("+1 (555) 010-9999") == "15550109999"
    assert INDEX.phone("+1 (555) 010-9999", SCOPE) == INDEX.phone("15550109999", SCOPE)


def test_different_values_kinds_and_scopes_do_not_collide() -> None:
    email = INDEX.email("a@example.org", SCOPE)
    assert email != INDEX.email("b@example.org", SCOPE)
    assert email != INDEX.email("a@example.org", "another-workspace")
    assert INDEX.email("5550109999@x", SCOPE) != INDEX.phone("5550109999", SCOPE)


def test_index_uses_the_blind_index_key_not_the_encryption_key() -> None:
    value = INDEX.email("a@example.org", SCOPE)
    assert value is not None and len(value) == 32
    rotated = BlindIndex(StaticRing(RING.rotated()))
    assert rotated.email("a@example.org", SCOPE) == value  # rotating encryption keys: no change
    other = BlindIndex(StaticRing(KeyRing.generate()))
    assert other.email("a@example.org", SCOPE) != value


@pytest.mark.parametrize("value", [None, "", "   ", "---"])
def test_values_that_normalise_to_nothing_have_no_index(value: str | None) -> None:
    assert INDEX.phone(value, SCOPE) is None
