"""Declarative base with stable constraint names, and the columns every tenant table shares."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, ForeignKeyConstraint, MetaData, event, func
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, mapped_column

from carevault.db.encryption import bind_instance

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# Binds encrypted attributes to their row on every flush (registered with the base, so no
# model can be used without it).
event.listen(Base, "before_insert", bind_instance, propagate=True)
event.listen(Base, "before_update", bind_instance, propagate=True)


class IdentifiedById:
    """The ORM knows a row by its `id` alone (`session.get(Model, id)`), even where the
    table's key is `(id, workspace_id)` (WorkspaceScoped; migration 0029)."""

    @declared_attr.directive
    def __mapper_args__(cls) -> dict[str, Any]:
        return {"primary_key": [cls.__table__.c.id]}  # type: ignore[attr-defined]


class UUIDPrimaryKey(IdentifiedById):
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)


class Timestamps:
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


class WorkspaceScoped:
    """Every tenant row names its workspace; queries filter on it through one helper. It is
    part of the table's primary key, `(id, workspace_id)`, and of every key that refers to
    the row, `(workspace_id, x_id)`: the distribution column a Citus cluster shards on
    (docs/how-to/sharding.md). `id` leads, so a lookup by id alone still uses it."""

    @declared_attr
    def workspace_id(cls) -> Mapped[uuid.UUID]:
        return mapped_column(
            ForeignKey("workspaces.id", ondelete="RESTRICT"),
            primary_key=True,
            index=True,
            nullable=False,
        )


def tenant_foreign_key(
    table: str, column: str, parent: str, ondelete: str | None = None
) -> ForeignKeyConstraint:
    """`(workspace_id, column) -> parent(workspace_id, id)`: a reference between tenant tables
    that cannot cross practices, named as the single-column key it replaced (migration 0029).
    `SET NULL` clears `column` alone (PostgreSQL 15's column list): `workspace_id` stays."""
    if ondelete == "SET NULL":
        ondelete = f"SET NULL ({column})"
    return ForeignKeyConstraint(
        ["workspace_id", column],
        [f"{parent}.workspace_id", f"{parent}.id"],
        ondelete=ondelete,
        name=f"fk_{table}_{column}_{parent}",
    )
