"""No new key ring over data sealed under an earlier one.

`carevault keys init` (and `carevault run` in development) create a ring when the provider
has none. If the database already holds practice data keys, encrypted values or audit seals,
a ring existed and the provider has lost it (a secrets store that forgot its state, a deleted
key-ring file, a mistyped secret id). A new ring could open none of that data, and the app
would go on sealing new data beside it under a key that the old data never had. So the
provider asks this module first, and the command refuses with what it found.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from sqlalchemy import column, exists, func, select, table, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError
from sqlalchemy.ext.asyncio import AsyncConnection

from carevault.runtime import StartupError

# Where the guard points an operator whose ring is missing.
RESTORE_DOC = "docs/how-to/operations.md#when-the-key-ring-is-missing"


class SealedDataWithoutRing(StartupError):
    """The provider has no key ring, but the database holds data sealed under one."""


@dataclass(frozen=True)
class SealedData:
    """What the database holds that only the missing ring could open or verify."""

    practice_keys: int = 0  # rows of workspace_keys: data keys and blind-index keys
    wrapped_under: tuple[int, ...] = ()  # the master key versions that wrapped them
    encrypted_columns: tuple[str, ...] = ()  # table.column holding at least one value
    audit_seals: int = 0  # MACs under the ring's audit key

    def __bool__(self) -> bool:
        return bool(self.practice_keys or self.encrypted_columns or self.audit_seals)

    def describe(self) -> str:
        parts = []
        if self.practice_keys:
            versions = ", ".join(map(str, self.wrapped_under))
            parts.append(
                f"{self.practice_keys} practice key(s) wrapped under key version(s) {versions}"
            )
        if self.encrypted_columns:
            shown = ", ".join(self.encrypted_columns[:3])
            more = ", …" if len(self.encrypted_columns) > 3 else ""
            parts.append(
                f"encrypted values in {len(self.encrypted_columns)} column(s) ({shown}{more})"
            )
        if self.audit_seals:
            parts.append(f"{self.audit_seals} audit seal(s)")
        return "; ".join(parts)


async def find_sealed_data(connection: AsyncConnection) -> SealedData:
    """Look only at tables and columns that exist, so a database migrated to an older
    revision, or not at all, can be checked too. Cheap: one EXISTS per encrypted column."""
    from carevault.lifecycle.reencrypt import encrypted_tables

    present = {
        (row.table_name, row.column_name)
        for row in await connection.execute(
            text(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema()"
            )
        )
    }
    tables = {name for name, _ in present}

    practice_keys, wrapped_under = 0, ()
    if ("workspace_keys", "wrapped_under") in present:
        keys = table("workspace_keys", column("wrapped_under"))
        row = (
            await connection.execute(
                select(func.count(), func.array_agg(keys.c.wrapped_under.distinct())).select_from(
                    keys
                )
            )
        ).one()
        practice_keys = int(row[0])
        wrapped_under = tuple(sorted(row[1] or ()))

    encrypted_columns = []
    for encrypted in encrypted_tables():
        for encrypted_column in encrypted.columns:
            if (encrypted.name, encrypted_column.name) not in present:
                continue
            bare = table(encrypted.name, column(encrypted_column.name))
            holds = await connection.scalar(
                select(exists().where(bare.c[encrypted_column.name].isnot(None)))
            )
            if holds:
                encrypted_columns.append(f"{encrypted.name}.{encrypted_column.name}")

    audit_seals = 0
    if "audit_seals" in tables:
        audit_seals = int(
            await connection.scalar(select(func.count()).select_from(table("audit_seals"))) or 0
        )
    return SealedData(practice_keys, wrapped_under, tuple(encrypted_columns), audit_seals)


def refuse_new_ring_over_sealed_data(database_url: str, where: str) -> None:
    """Raise SealedDataWithoutRing, in one line saying what was found and what to do, when
    the database holds data sealed under an earlier ring, or cannot be checked."""
    from carevault.db.engine import create_engine

    async def check() -> SealedData:
        engine = create_engine(database_url, pool_size=1)
        try:
            async with engine.connect() as connection:
                return await find_sealed_data(connection)
        finally:
            await engine.dispose()

    try:
        found = asyncio.run(check())
    except (OSError, TimeoutError, DBAPIError, InterfaceError) as exc:
        database = make_url(database_url).render_as_string(hide_password=True)
        raise SealedDataWithoutRing(
            f"refusing to create a new key ring in {where}: cannot check the database "
            f"{database} for data sealed under an earlier ring ({type(exc).__name__}); make "
            "it reachable and run the command again"
        ) from None
    if found:
        raise SealedDataWithoutRing(
            f"refusing to create a new key ring in {where}: the database holds "
            f"{found.describe()}, sealed under a key ring that is not there; restore that "
            f"ring to {where} (see {RESTORE_DOC}) or point CAREVAULT_DATABASE_URL at an empty "
            "database"
        )
