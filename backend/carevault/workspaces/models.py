from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from carevault.db.base import Base, Timestamps, UUIDPrimaryKey


class Workspace(UUIDPrimaryKey, Timestamps, Base):
    """A practice: the tenant every other row belongs to."""

    __tablename__ = "workspaces"

    name: Mapped[str] = mapped_column(String(200), unique=True)
