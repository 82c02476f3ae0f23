"""The query parameters of lists that filter by change (carevault.db.changes)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import Depends, Query
from pydantic import AfterValidator, AwareDatetime

from carevault.core.fields import invalid
from carevault.db.changes import ChangedSince


def _as_utc(value: datetime) -> datetime:
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("the time is out of range") from None


async def changed_since(
    updated_since: Annotated[
        AwareDatetime | None,
        AfterValidator(lambda v: None if v is None else _as_utc(v)),
        Query(
            description="Only records updated at or after this time (ISO 8601 with a UTC "
            "offset, microseconds kept)",
            examples=["2025-01-15T10:14:37.123456Z"],
        ),
    ] = None,
    sort: Annotated[
        Literal["updated_at"] | None,
        Query(
            description="`updated_at`: by (updated_at, id), oldest first; omitted: the list's "
            "usual order"
        ),
    ] = None,
    after_id: Annotated[
        uuid.UUID | None,
        Query(
            description="With `sort=updated_at` and `updated_since`: the keyset cursor. Send "
            "the last item's `updated_at` as `updated_since` and its `id` as `after_id` to "
            "read what follows, stable while records change"
        ),
    ] = None,
) -> ChangedSince:
    if after_id is not None and (updated_since is None or sort != "updated_at"):
        raise invalid(
            "validation_error",
            "after_id needs sort=updated_at and updated_since (the last item's updated_at)",
            "after_id",
            location="query",
        )
    return ChangedSince(updated_since, after_id, sort == "updated_at")


ChangedSinceParams = Annotated[ChangedSince, Depends(changed_since)]
