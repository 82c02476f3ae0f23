"""Does `carevault import clients` work in a fresh process? Checked once per run on a
one-row file in a throwaway database, so the real measurements never fail half-way."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tools.loadtest.database import Database
from tools.loadtest.processes import run_carevault

PROBE_DATABASE = "carevault_loadtest_probe"


@dataclass(frozen=True)
class ImportCli:
    preload_models: bool
    problem: str | None


async def check_import_cli(
    env: Mapping[str, str], admin_dsn: str, work_dir: Path, password: str
) -> ImportCli:
    db = Database(admin_dsn, PROBE_DATABASE)
    await db.recreate()
    try:
        probe_env = {**env, "CAREVAULT_DATABASE_URL": db.sqlalchemy_url}
        run_carevault(["db", "upgrade"], probe_env)
        run_carevault(
            ["users", "create", "--workspace", "Probe", "--email", "probe@loadtest.invalid"],
            probe_env,
            stdin=password + "\n",
        )
        csv_path = work_dir / "probe.csv"
        csv_path.write_text("First Name,Last Name\nAda,Lovelace\n", encoding="utf-8")
        arguments = ["import", "clients", str(csv_path), "--workspace", "Probe"]
        try:
            run_carevault(arguments, probe_env)
            return ImportCli(False, None)
        except RuntimeError as failure:
            message = str(failure)
            if "NoReferencedTableError" not in message:
                raise
        run_carevault(arguments, probe_env, preload_models=True)
        return ImportCli(
            True,
            "`carevault import clients` fails in a fresh process: NoReferencedTableError "
            "(audit_events.actor_token_id references api_tokens, whose model the command "
            "never imports), after inserting every row and before commit. Measured with the "
            "same command run as `python -c 'import carevault.db.models; from carevault.cli "
            "import main; main()' import clients ...`.",
        )
    finally:
        await db.drop()
