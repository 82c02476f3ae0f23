"""Lists that filter by change: `updated_since`, and the (updated_at, id) order with its
keyset cursor (the last item's `updated_at` and `id`), shared by the client, appointment
and note lists.

`updated_at` is the time the writing transaction began (PostgreSQL's now()), so a change
committed late can carry an `updated_at` earlier than one already read: a sync that moves
its `updated_since` forward should overlap a little, or follow the change feed
(GET /api/v1/events), which has no such gap.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Select, tuple_

S = TypeVar("S", bound="Select[*tuple[Any, ...]]")


@dataclass(frozen=True, slots=True)
class ChangedSince:
    """`updated_since`: only rows updated at or after it. With `after_id` (and the
    updated_at order): only rows after (updated_since, after_id), the keyset of the last
    item read. `by_updated_at`: ordered by (updated_at, id), oldest first."""

    updated_since: datetime | None = None
    after_id: uuid.UUID | None = None
    by_updated_at: bool = False

    @property
    def active(self) -> bool:
        return self.updated_since is not None or self.by_updated_at


NOT_FILTERED = ChangedSince()


def where_changed(statement: S, model: Any, changes: ChangedSince) -> S:
    """`statement` restricted to what `changes` asks for (its order is the caller's)."""
    if changes.updated_since is None:
        return statement
    if changes.after_id is not None:
        return statement.where(
            tuple_(model.updated_at, model.id) > tuple_(changes.updated_since, changes.after_id)
        )
    return statement.where(model.updated_at >= changes.updated_since)


def by_updated_at(statement: S, model: Any) -> S:
    return statement.order_by(model.updated_at, model.id)
