"""A KMS key's state as last described (no boto3 here: readiness imports it anywhere)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class KeyState:
    key_id: str
    state: str  # KMS's KeyState ("Enabled", "Disabled", "PendingDeletion", …) or "unreachable"
    checked_at: datetime
    deletion_date: datetime | None = None
