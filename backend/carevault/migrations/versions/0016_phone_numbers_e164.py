"""Phone numbers: each practice has a phone region, and client phones are indexed as E.164.

- `workspaces.phone_region`: the ISO 3166 region whose national numbers the practice writes
  (carevault.workspaces.phones). Practices that exist get CAREVAULT_DEFAULT_PHONE_REGION as
  set in the environment of the upgrade (US when unset): set it before upgrading a
  deployment whose practices are not in the US. Owners change their own afterwards.
- `clients.phone_bidx_region`: the region a row's phone was read in when its `phone_bidx`
  was computed from the number's E.164 form. Existing rows keep their digits-only index and
  get NULL, which marks them for `carevault reindex-phones`: the values are encrypted, so
  only the application, with the key ring, can read them and compute the new index. Until
  then searches also compare with the digits-only index (carevault.clients.phone_index).

Revision ID: 0016
Revises: 0015
"""

import os
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _configured_region() -> str:
    import phonenumbers

    configured = os.environ.get("CAREVAULT_DEFAULT_PHONE_REGION", "US").strip().upper()
    if configured not in phonenumbers.SUPPORTED_REGIONS:
        raise SystemExit(
            "CAREVAULT_DEFAULT_PHONE_REGION is not a region code libphonenumber knows "
            "(an ISO 3166 two-letter code such as US or GB)"
        )
    return configured


def upgrade() -> None:
    region = _configured_region()
    op.add_column(
        "workspaces",
        sa.Column("phone_region", sa.String(2), nullable=False, server_default="US"),
    )
    if region != "US":
        op.execute(
            sa.text("UPDATE workspaces SET phone_region = :region").bindparams(region=region)
        )
    op.add_column("clients", sa.Column("phone_bidx_region", sa.String(2), nullable=True))


def downgrade() -> None:
    # The code before this revision searches digits-only indexes alone: numbers written or
    # reindexed since the upgrade are not found by search until they are saved again.
    op.drop_column("clients", "phone_bidx_region")
    op.drop_column("workspaces", "phone_region")
