"""Declarative base with stable constraint names, and the columns every tenant table shares."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, MetaData, event, func
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


class UUIDPrimaryKey:
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)


class Timestamps:
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


class WorkspaceScoped:
    """Every tenant row names its workspace; queries filter on it through one helper."""

    @declared_attr
    def workspace_id(cls) -> Mapped[uuid.UUID]:
        return mapped_column(
            ForeignKey("workspaces.id", ondelete="RESTRICT"), index=True, nullable=False
        )
