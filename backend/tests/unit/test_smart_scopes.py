"""SMART v2 scopes onto CareVault's (carevault.auth.scopes)."""

from __future__ import annotations

import pytest

from carevault.auth.scopes import (
    SmartScopeError,
    carevault_scopes_of,
    expand_scopes,
    parse_smart_scope,
)

CLINICAL = ("clients", "appointments", "notes")


@pytest.mark.parametrize(
    ("scope", "granted"),
    [
        ("user/Patient.rs", {"clients:read"}),
        ("user/Patient.r", {"clients:read"}),
        ("user/Patient.cruds", {"clients:read", "clients:write"}),
        ("user/Patient.c", {"clients:write"}),
        ("user/DocumentReference.rs", {"notes:read"}),
        ("user/Encounter.read", {"notes:read"}),
        ("user/Appointment.write", {"appointments:write"}),
        ("user/AuditEvent.rs", {"audit:read"}),
        ("user/AuditEvent.cruds", {"audit:read"}),
        ("user/Practitioner.rs", set()),
        ("user/*.rs", {"clients:read", "appointments:read", "notes:read"}),
        ("system/*.cruds", {f"{r}:{a}" for r in CLINICAL for a in ("read", "write")}),
    ],
)  # fmt: skip
def test_a_smart_scope_grants_the_carevault_scopes_it_maps_onto(
    scope: str, granted: set[str]
) -> None:
    assert carevault_scopes_of(parse_smart_scope(scope)) == granted


@pytest.mark.parametrize(
    "scope",
    ["patient/*.rs", "launch/patient", "user/Observation.rs", "user/Patient.sr", "user/Patient.x",
     "user/Patient.", "user/Patient.rrs", "other/Patient.rs"],
)  # fmt: skip
def test_scopes_carevault_does_not_grant_are_refused_by_name(scope: str) -> None:
    with pytest.raises(SmartScopeError) as refused:
        parse_smart_scope(scope)
    assert repr(scope) in str(refused.value)


def test_a_token_keeps_its_smart_scopes_next_to_what_they_grant() -> None:
    assert expand_scopes(["notes:read", "user/Patient.rs", "user/Patient.rs"]) == (
        ["notes:read", "clients:read"],
        ["user/Patient.rs"],
    )


def test_smart_scopes_narrow_by_resource_type_and_permission() -> None:
    documents = parse_smart_scope("user/DocumentReference.rs")
    assert documents.allows("DocumentReference", "r")
    assert not documents.allows("Encounter", "r")
    assert not documents.allows("DocumentReference", "u")
    assert parse_smart_scope("user/*.cruds").allows("Patient", "d")
