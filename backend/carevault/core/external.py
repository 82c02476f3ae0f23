"""Integrator-owned ids and metadata on clients, appointments and notes: what a valid value
is, and how metadata is kept (one JSON text, sealed like any PHI by the column's type).

`external_id` is the integrator's own id of a record, unique per practice and kind of
record, and it appears in URLs (`PUT /clients/external/{external_id}`): it must be an
opaque id from the integrator's system, never PHI (a name, an email, a medical record
number that is itself PHI). Its characters are limited to letters, digits and `._:-`, which
also keeps it URL-safe. `metadata` is a small map of strings, limited as Stripe limits its
own: at most 50 keys, keys of at most 40 characters, values of at most 500.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, StringConstraints

from carevault.core.fields import encodable

EXTERNAL_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:\-]{0,254}$"
METADATA_MAX_KEYS = 50
METADATA_KEY_MAX_CHARACTERS = 40
METADATA_VALUE_MAX_CHARACTERS = 500

ExternalId = Annotated[
    str,
    StringConstraints(pattern=EXTERNAL_ID_PATTERN, max_length=255),
    Field(
        description="Your own id of the record (letters, digits and `._:-`, up to 255): unique "
        "in the practice for this kind of record; never PHI (it appears in URLs)",
        examples=["crm-000123"],
    ),
]

_Key = Annotated[
    str,
    StringConstraints(min_length=1, max_length=METADATA_KEY_MAX_CHARACTERS),
    AfterValidator(encodable),
]
_Value = Annotated[
    str, StringConstraints(max_length=METADATA_VALUE_MAX_CHARACTERS), AfterValidator(encodable)
]


def _few_keys(value: dict[str, Any] | None) -> dict[str, Any] | None:
    if value is not None and len(value) > METADATA_MAX_KEYS:
        raise ValueError(f"metadata holds at most {METADATA_MAX_KEYS} keys")
    return value


Metadata = Annotated[
    dict[_Key, _Value],
    AfterValidator(_few_keys),
    Field(
        description="Your own key-value strings (at most 50 keys of up to 40 characters, "
        "values of up to 500), encrypted like PHI",
        examples=[{"crm_segment": "weekday-mornings"}],
    ),
]
MetadataChange = Annotated[
    dict[_Key, _Value | None],
    AfterValidator(_few_keys),
    Field(
        description="Merged into the record's metadata: a key sent with a value sets it, a key "
        "sent as null or empty removes it, keys not sent stay",
        examples=[{"crm_segment": "evenings", "legacy_flag": None}],
    ),
]


def parsed(stored: Any) -> Any:
    """The stored JSON text as a map (an absent value is an empty map); anything else as is."""
    if stored is None:
        return {}
    if isinstance(stored, str):
        return json.loads(stored)
    return stored


StoredMetadata = Annotated[dict[str, str], BeforeValidator(parsed)]


def stored(metadata: dict[str, str]) -> str | None:
    """The text kept for `metadata` (None for an empty map)."""
    return json.dumps(metadata, separators=(",", ":"), sort_keys=True) if metadata else None


def set_keys(change: dict[str, str | None] | None) -> dict[str, str]:
    """The keys a metadata change sets (for a new record, where removing means nothing)."""
    return {key: value for key, value in (change or {}).items() if value}


def merged(current: str | None, change: dict[str, str | None] | None) -> str | None:
    """`current` (stored text) with `change` applied; None as `change` clears every key."""
    if change is None:
        return None
    result = dict(parsed(current))
    for key, value in change.items():
        if value:
            result[key] = value
        else:
            result.pop(key, None)
    if len(result) > METADATA_MAX_KEYS:
        raise ValueError(f"metadata holds at most {METADATA_MAX_KEYS} keys")
    return stored(result)
