"""Two database roles: the owner runs migrations, the runtime role serves requests.

The owner (CAREVAULT_MIGRATION_DATABASE_URL) owns every table. After migrating, it creates
or updates the runtime role, the user named in CAREVAULT_DATABASE_URL: no DDL, no TRUNCATE
(except on the readiness scratch table `health_space_probe`, which never holds a committed
row), ordinary SELECT/INSERT/UPDATE/DELETE on application tables, and only SELECT and INSERT
on the audit tables (every table whose name starts with `audit_`); on the history tables
(HISTORY_TABLES: the versions a note had before each amendment) SELECT, INSERT and UPDATE of
their encrypted columns only (for `reencrypt`), never DELETE. Only a table's owner can
ALTER it or disable its triggers, so the runtime role cannot switch off the trigger that
keeps `audit_events` append-only, nor delete or rewrite events.

When both URLs name the same user (development), there is one role and nothing to set up.

With CAREVAULT_AUDIT_SEALER_DATABASE_URL, a third role seals: only it may INSERT into
audit_seals and audit_checkpoints (SEALER_TABLES), and it may do nothing else but read the
audit events; the runtime role then only reads those two tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

AUDIT_TABLE_PREFIX = "audit_"
# Written only by the sealer (and the checkpoint writer, which runs with it).
SEALER_TABLES = ("audit_seals", "audit_checkpoints")
# History the app only appends to: no DELETE or TRUNCATE (rows go only with their parent, by
# ON DELETE CASCADE, which runs with the table owner's privileges), and UPDATE of nothing but
# the encrypted columns, which `reencrypt` rewrites in place under the active key (each value
# is bound to its row and column, so no other row's value can be moved there).
HISTORY_TABLES: dict[str, tuple[str, ...]] = {
    "session_versions": ("subjective", "objective", "assessment", "plan", "reason"),
}
# Read by `carevault serve` to check the schema revision; never written at runtime.
READ_ONLY_TABLES = ("alembic_version",)
# Emptied (in a rolled-back subtransaction) by readiness to make its probe allocate space.
SPACE_PROBE_TABLE = "health_space_probe"


class RoleSetupError(RuntimeError):
    """The runtime role cannot be made least-privileged; the message says why."""


@dataclass(frozen=True)
class RuntimeRole:
    name: str
    password: str | None


def sealer_role_for(
    migration_url: str, runtime_url: str, sealer_url: str | None
) -> RuntimeRole | None:
    """The sealer's own role to set up, or None when none is configured."""
    if not sealer_url:
        return None
    owner, runtime, sealer = make_url(migration_url), make_url(runtime_url), make_url(sealer_url)
    if sealer.database != owner.database:
        raise RoleSetupError(
            f"CAREVAULT_AUDIT_SEALER_DATABASE_URL names database {sealer.database!r} but the "
            f"migration URL names {owner.database!r}; they must be the same database"
        )
    if not sealer.username or sealer.username in (owner.username, runtime.username):
        raise RoleSetupError(
            "CAREVAULT_AUDIT_SEALER_DATABASE_URL must name a role of its own, neither the "
            "owner nor the runtime role"
        )
    return RuntimeRole(sealer.username, sealer.password)


def runtime_role_for(migration_url: str, runtime_url: str) -> RuntimeRole | None:
    """The role to set up, or None when both URLs use the same user (development)."""
    owner, runtime = make_url(migration_url), make_url(runtime_url)
    if owner.database != runtime.database:
        raise RoleSetupError(
            f"CAREVAULT_MIGRATION_DATABASE_URL names database {owner.database!r} but "
            f"CAREVAULT_DATABASE_URL names {runtime.database!r}; they must be the same database"
        )
    if not runtime.username or runtime.username == owner.username:
        return None
    return RuntimeRole(runtime.username, runtime.password)


async def _scalar(connection: AsyncConnection, sql: str, **params: object) -> object:
    return (await connection.execute(text(sql), params)).scalar()


async def _execute_formatted(connection: AsyncConnection, template: str, *args: str) -> None:
    """Run DDL built by PostgreSQL's format(): %I quotes identifiers, %L literals. DDL takes
    no bind parameters, so quoting is left to the server rather than done by hand."""
    placeholders = ", ".join(f"CAST(:a{i} AS text)" for i in range(len(args)))
    statement = await _scalar(
        connection,
        f"SELECT format(CAST(:template AS text), {placeholders})",
        template=template,
        **{f"a{i}": arg for i, arg in enumerate(args)},
    )
    await connection.exec_driver_sql(str(statement))


async def _table_names(connection: AsyncConnection) -> list[str]:
    rows = await connection.execute(
        text(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
        )
    )
    return [row[0] for row in rows]


async def ensure_runtime_role(
    owner_engine: AsyncEngine, role: RuntimeRole, *, separate_sealer: bool = False
) -> bool:
    """Create the runtime role when missing (with the runtime URL's password) and set its
    privileges on every table (with `separate_sealer`, no INSERT on SEALER_TABLES). Returns
    True when the role was created."""
    async with owner_engine.begin() as connection:
        created = await _create_least_role(connection, role)
        await _grant(connection, role.name, separate_sealer=separate_sealer)
    return created


async def ensure_sealer_role(owner_engine: AsyncEngine, role: RuntimeRole) -> bool:
    """Create the sealer's role when missing and give it what sealing needs and nothing
    more: SELECT on audit_events, SELECT and INSERT on SEALER_TABLES."""
    async with owner_engine.begin() as connection:
        created = await _create_least_role(connection, role)
        await _connect_and_usage(connection, role.name)
        for table in await _table_names(connection):
            await _execute_formatted(connection, "REVOKE ALL ON TABLE %I FROM %I", table, role.name)
            if table in SEALER_TABLES:
                await _execute_formatted(
                    connection, "GRANT SELECT, INSERT ON TABLE %I TO %I", table, role.name
                )
            elif table == "audit_events":
                await _execute_formatted(
                    connection, "GRANT SELECT ON TABLE %I TO %I", table, role.name
                )
    return created


async def _create_least_role(connection: AsyncConnection, role: RuntimeRole) -> bool:
    """Create `role` when missing; refuse one with powers beyond its tables' privileges."""
    owner = str(await _scalar(connection, "SELECT current_user"))
    attributes = (
        await connection.execute(
            text(
                "SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolbypassrls "
                "FROM pg_roles WHERE rolname = :name"
            ),
            {"name": role.name},
        )
    ).one_or_none()
    created = attributes is None
    if created:
        if role.password:
            await _execute_formatted(
                connection, "CREATE ROLE %I LOGIN PASSWORD %L", role.name, role.password
            )
        else:
            await _execute_formatted(connection, "CREATE ROLE %I LOGIN", role.name)
    elif attributes is not None and attributes[0]:
        raise RoleSetupError(
            f"the role {role.name!r} is a superuser or can create roles or "
            "databases or bypass row security; use an ordinary role"
        )
    if await _scalar(
        connection,
        "SELECT pg_has_role(:runtime, :owner, 'USAGE')",
        runtime=role.name,
        owner=owner,
    ):
        raise RoleSetupError(
            f"the role {role.name!r} is a member of the owner role {owner!r}, so "
            f"it could alter the audit table; revoke that membership (REVOKE {owner} "
            f"FROM {role.name})"
        )
    return created


async def _connect_and_usage(connection: AsyncConnection, name: str) -> None:
    # CONNECT and USAGE usually come with PUBLIC; granting them needs more than owning the
    # tables (owning the database or schema), so only when they are missing.
    database = str(await _scalar(connection, "SELECT current_database()"))
    if not await _scalar(
        connection,
        "SELECT has_database_privilege(:name, :database, 'CONNECT')",
        name=name,
        database=database,
    ):
        await _execute_formatted(connection, "GRANT CONNECT ON DATABASE %I TO %I", database, name)
    schema = str(await _scalar(connection, "SELECT current_schema()"))
    if not await _scalar(
        connection,
        "SELECT has_schema_privilege(:name, :schema, 'USAGE')",
        name=name,
        schema=schema,
    ):
        await _execute_formatted(connection, "GRANT USAGE ON SCHEMA %I TO %I", schema, name)
    await _execute_formatted(connection, "REVOKE CREATE ON SCHEMA %I FROM %I", schema, name)
    if await _scalar(
        connection,
        "SELECT has_schema_privilege(:name, :schema, 'CREATE')",
        name=name,
        schema=schema,
    ):
        # PostgreSQL before 15 lets everyone create in public; the runtime role must not.
        await _execute_formatted(connection, "REVOKE CREATE ON SCHEMA %I FROM PUBLIC", schema)


async def _grant(connection: AsyncConnection, name: str, *, separate_sealer: bool) -> None:
    await _connect_and_usage(connection, name)
    schema = str(await _scalar(connection, "SELECT current_schema()"))
    for table in await _table_names(connection):
        await _execute_formatted(connection, "REVOKE ALL ON TABLE %I FROM %I", table, name)
        if table in HISTORY_TABLES:
            columns = ", ".join(f'"{column}"' for column in HISTORY_TABLES[table])
            privileges = f"SELECT, INSERT, UPDATE ({columns})"
        elif separate_sealer and table in SEALER_TABLES:
            privileges = "SELECT"
        elif table.startswith(AUDIT_TABLE_PREFIX):
            privileges = "SELECT, INSERT"
        elif table in READ_ONLY_TABLES:
            privileges = "SELECT"
        elif table == SPACE_PROBE_TABLE:
            privileges = "SELECT, INSERT, TRUNCATE"
        else:
            privileges = "SELECT, INSERT, UPDATE, DELETE"
        await _execute_formatted(connection, f"GRANT {privileges} ON TABLE %I TO %I", table, name)
    # nextval() for identity and serial columns; not UPDATE (setval).
    await _execute_formatted(
        connection, "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA %I TO %I", schema, name
    )


async def audit_privilege_problems(
    runtime_engine: AsyncEngine, *, separate_sealer: bool = False
) -> list[str]:
    """What the connected role could do to the audit trail that it must not: each entry is
    one problem in plain words. Empty: the role can only read and append audit events (and,
    with `separate_sealer`, only read SEALER_TABLES)."""
    problems: list[str] = []
    async with runtime_engine.connect() as connection:
        role = (
            await connection.execute(
                text(
                    "SELECT current_user, rolsuper, rolbypassrls FROM pg_roles "
                    "WHERE rolname = current_user"
                )
            )
        ).one()
        if role.rolsuper:
            problems.append(f"{role.current_user} is a superuser")
        if await _scalar(
            connection, "SELECT has_schema_privilege(current_user, current_schema(), 'CREATE')"
        ):
            problems.append(f"{role.current_user} can create tables (DDL)")
        tables = (
            await connection.execute(
                text(
                    "SELECT tablename, tableowner FROM pg_tables "
                    "WHERE schemaname = current_schema() AND tablename LIKE 'audit\\_%'"
                )
            )
        ).all()
        if not tables:
            problems.append("no audit_events table (run `carevault db upgrade`)")
        for table, owner in tables:
            if await _scalar(
                connection, "SELECT pg_has_role(current_user, :owner, 'USAGE')", owner=owner
            ):
                problems.append(
                    f"{role.current_user} owns {table} (or acts as its owner {owner}): it can "
                    "ALTER it and DISABLE TRIGGER"
                )
            forbidden = ["UPDATE", "DELETE", "TRUNCATE", "TRIGGER", "REFERENCES"]
            if separate_sealer and table in SEALER_TABLES:
                forbidden.append("INSERT")  # the sealer's role alone writes seals
            for privilege in forbidden:
                if await _scalar(
                    connection,
                    "SELECT has_table_privilege(current_user, :table, :privilege)",
                    table=table,
                    privilege=privilege,
                ):
                    problems.append(f"{role.current_user} has {privilege} on {table}")
        for table in HISTORY_TABLES:
            for privilege in ("UPDATE", "DELETE", "TRUNCATE"):
                if await _scalar(
                    connection,
                    "SELECT to_regclass(:table) IS NOT NULL "
                    "AND has_table_privilege(current_user, :table, :privilege)",
                    table=table,
                    privilege=privilege,
                ):
                    problems.append(f"{role.current_user} has {privilege} on {table}")
    return problems
