"""`carevault doctor`: configuration, key ring, database, migrations, roles and pgcrypto,
each reported ok, warn or FAIL."""

from __future__ import annotations

import typer
from pydantic import ValidationError

from carevault.cli.common import (
    configuration_problems,
    database_url_for,
    load_settings,
    one_off_engine,
    run_async,
)
from carevault.crypto import FieldCipher, KeyRing, KeyRingError, StaticRing
from carevault.runtime import build_key_provider


def doctor() -> None:
    """Check configuration, key ring, database, migrations and pgcrypto."""
    failures = 0

    def report(ok: bool | None, what: str, detail: str) -> None:
        nonlocal failures
        mark = {True: "ok  ", False: "FAIL", None: "warn"}[ok]
        color = {True: typer.colors.GREEN, False: typer.colors.RED, None: typer.colors.YELLOW}
        typer.secho(f"[{mark}] {what}: {detail}", fg=color[ok])
        failures += ok is False

    try:
        settings = load_settings()
    except ValidationError as exc:
        report(False, "configuration", configuration_problems(exc))
        raise typer.Exit(1) from None
    report(True, "configuration", f"{settings.env.value}, PHI backend {settings.phi_backend.value}")

    provider = build_key_provider(settings)
    try:
        ring = provider.load()
        _self_test(ring)
        report(
            True,
            "key ring",
            f"{provider.description}, active version {ring.encryption_version()}"
            f" of {len(ring.keys)}, encrypt/decrypt self-test passed",
        )
        from carevault.cli.keys import key_age, key_warnings

        if ring.remote is not None:
            from carevault.crypto.kms import KmsKeys

            if isinstance(ring.remote, KmsKeys):
                arn = ring.remote.arn_of(ring.remote.key_id)
                state = ring.remote.state(arn, fresh=True).state
                report(
                    state == "Enabled",
                    "KMS key",
                    f"{arn}: {state} (GenerateDataKey, Encrypt and Decrypt self-test passed)",
                )
        for version in sorted(ring.keys):
            key = ring.keys[version]
            report(
                True,
                f"key version {version}",
                f"{ring.state_of(version)}, created {key.created_at.date().isoformat()}, "
                f"age {key_age(key.created_at)}",
            )
        for warning in key_warnings(settings, ring):
            report(None, "key age", warning)
    except KeyRingError as exc:
        report(False, "key ring", str(exc))

    try:
        url = database_url_for(settings)
        revision, head, pgcrypto, logging_settings = run_async(_database_facts(url))
        report(True, "database", "reachable")
        report(
            revision == head,
            "migrations",
            f"at {revision or 'nothing'}, code expects {head}"
            + ("" if revision == head else " (run `carevault db upgrade`)"),
        )
        problems = run_async(
            audit_privilege_problems_at(
                url, separate_sealer=bool(settings.audit_sealer_database_url)
            )
        )
        report(
            True if not problems else (False if settings.is_production else None),
            "database role",
            "the app's role can only read and append audit events"
            if not problems
            else "; ".join(problems)
            + " (set CAREVAULT_MIGRATION_DATABASE_URL to the owner and run `carevault db "
            "upgrade`)",
        )
        needs_pgcrypto = settings.phi_backend.value == "pgcrypto"
        report(
            True if pgcrypto else (False if needs_pgcrypto else None),
            "pgcrypto",
            "available"
            if pgcrypto
            else "not installed in this database (the fallback backend "
            "is unavailable; the default aesgcm backend does not need it)",
        )
        if needs_pgcrypto:
            leaks = parameter_logging(logging_settings)
            report(
                None if leaks else True,
                "server log",
                "; ".join(leaks) + ": with the pgcrypto backend, key material is a statement "
                "parameter and would reach the server log"
                if leaks
                else "statement parameters are not logged",
            )
    except Exception as exc:  # doctor reports every failure instead of stopping at the first
        report(False, "database", f"{type(exc).__name__}: {exc}")
    raise typer.Exit(1 if failures else 0)


def _self_test(ring: KeyRing) -> None:
    """Seal and open a probe under a throwaway data key wrapped by the active version."""
    import uuid

    from carevault.crypto.datakeys import wrap_data_key
    from carevault.crypto.keyring import new_key_material

    cipher = FieldCipher(StaticRing(ring))
    practice, row = uuid.uuid4().bytes, uuid.uuid4().bytes
    version = ring.encryption_version()
    wrapped = wrap_data_key(ring, practice, version, new_key_material())
    cipher.data_keys.store(practice, {version: wrapped})
    probe = "doctor self-test"
    sealed = cipher.seal(probe, (practice, row), b"doctor.probe")
    if cipher.open(sealed, (practice, row), b"doctor.probe") != probe:
        raise KeyRingError("the encrypt/decrypt self-test returned something else")


LOGGING_SETTINGS = (
    "log_statement",
    "log_min_duration_statement",
    "log_parameter_max_length",
    "log_parameter_max_length_on_error",
)


def parameter_logging(values: dict[str, str]) -> list[str]:
    """Which server settings would write bound parameters to the PostgreSQL log."""
    leaks = []
    logs_statements = values.get("log_statement") in ("mod", "all")
    logs_slow = values.get("log_min_duration_statement", "-1") not in ("-1", "")
    if (logs_statements or logs_slow) and values.get("log_parameter_max_length") != "0":
        which = "log_statement" if logs_statements else "log_min_duration_statement"
        leaks.append(f"{which} logs statements with log_parameter_max_length != 0")
    if values.get("log_parameter_max_length_on_error", "0") != "0":
        leaks.append("log_parameter_max_length_on_error != 0")
    return leaks


async def _database_facts(url: str) -> tuple[str | None, str | None, bool, dict[str, str]]:
    from sqlalchemy import text

    from carevault.db.migrate import current_revision, head_revision
    from carevault.runtime import pgcrypto_available

    async with one_off_engine(url) as engine:
        async with engine.connect() as connection:
            rows = await connection.execute(
                text("SELECT name, setting FROM pg_settings WHERE name = ANY(:names)"),
                {"names": list(LOGGING_SETTINGS)},
            )
            logging_settings = {name: setting for name, setting in rows.all()}
        return (
            await current_revision(engine),
            head_revision(),
            await pgcrypto_available(engine),
            logging_settings,
        )


async def audit_privilege_problems_at(url: str, *, separate_sealer: bool = False) -> list[str]:
    """What would let the app's database role tamper with the audit trail (`serve` warns,
    `doctor` fails in production); with `separate_sealer` (CAREVAULT_AUDIT_SEALER_DATABASE_URL
    set), also that it can still insert seals."""
    from carevault.db.roles import audit_privilege_problems

    async with one_off_engine(url) as engine:
        return await audit_privilege_problems(engine, separate_sealer=separate_sealer)
