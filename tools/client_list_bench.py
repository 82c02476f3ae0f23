"""Measure the client list and name search: server CPU per request against practice size.

    .venv/bin/python -m tools.client_list_bench [--sizes 100,10000] [--rounds 20]

Creates and drops its own database (carevault_listbench_*) on the local server, runs the app
in this process (its real lifespan; the audit sealer off so that it does not run during the
timings), imports one practice per size through `POST /clients/import` (fake clients from
tools.loadtest.fakedata), then times in-process requests made with httpx's ASGITransport:
`GET /health` (the floor: no database), a page of 50 clients (first and a middle page), a name
search and an email search. Kinds are timed in alternating rounds so that every figure comes
from the same moments of a shared machine. For each kind it reports, per request:

- app CPU: `time.process_time()` of this process (the app and the in-process HTTP client,
  which costs the same for every kind, so the ratio to /health is fair);
- database CPU: utime + stime of the PostgreSQL backends serving the app (from /proc);
- field decryptions (carevault.crypto's operation counter).

Every practice is warmed first (the first list of a practice also fills the app's cache of
its names, when the app has one); `--cold` adds a first-request figure per size, and
`--with-changes` times the first page right after a client is renamed (the rename itself is
not timed) and right after the app's name cache is emptied (a process's first list of the
practice). Database CPU is read from /proc in clock ticks (10 ms): only its mean over many
requests means anything.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx

ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
PASSWORD = "client list bench password"  # noqa: S105 (a throwaway bench user)
PAGE = 50


def cpu_of(pid: int) -> float:
    """utime + stime of a process, in seconds (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Tally:
    app_cpu: list[float] = field(default_factory=list)  # per request, one entry per round
    db_cpu: list[float] = field(default_factory=list)
    decrypted: list[float] = field(default_factory=list)


async def backend_pids(admin: asyncpg.Connection, database: str) -> list[int]:
    rows = await admin.fetch(
        "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        database,
    )
    return [row["pid"] for row in rows]


Step = Callable[[], Awaitable[None]]
Request = Callable[[], Awaitable[httpx.Response]]


async def main(
    sizes: list[int], rounds: int, per_round: int, cold: bool, with_changes: bool
) -> None:
    from carevault.api.app import create_app
    from carevault.auth import service as auth_service
    from carevault.auth.models import Role
    from carevault.config import Settings
    from carevault.crypto import LocalFileProvider
    from carevault.crypto.registry import operation_counts
    from carevault.db.engine import create_engine, session_factory
    from carevault.db.migrate import upgrade_async
    from carevault.workspaces import service as workspace_service
    from tools.loadtest.fakedata import write_clients_csv

    database = f"carevault_listbench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(ADMIN_DSN)
    await admin.execute(f'CREATE DATABASE "{database}"')
    url = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{database}"
    work = Path(tempfile.mkdtemp(prefix="carevault-listbench-"))
    try:
        engine = create_engine(url, pool_size=1)
        await upgrade_async(engine)
        await engine.dispose()
        (work / "data").mkdir()
        LocalFileProvider(work / "data" / "keyring.json").initialize()
        settings = Settings(data_dir=work / "data", audit_sealer=False, request_timeout_seconds=300)
        app = create_app(settings, database_url=url)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app, client=("203.0.113.7", 50000))
            http = httpx.AsyncClient(transport=transport, base_url="http://bench/api/v1")
            tokens: dict[int, str] = {}
            spaces: dict[int, uuid.UUID] = {}
            for size in sizes:
                engine = create_engine(url, pool_size=1)
                async with session_factory(engine)() as db, db.begin():
                    space = await workspace_service.create(db, f"Bench {size}")
                    spaces[size] = space.id
                    email = f"owner-{size}@bench.example"
                    await auth_service.create_user(
                        db, space, email=email, password=PASSWORD, role=Role.OWNER
                    )
                await engine.dispose()
                login = await http.post("/auth/login", json={"email": email, "password": PASSWORD})
                login.raise_for_status()
                created = await http.post(
                    "/auth/tokens",
                    json={"name": "bench", "scopes": ["clients:read", "clients:write"]},
                    headers={"X-CSRF-Token": login.json()["csrf_token"]},
                )
                created.raise_for_status()
                http.cookies.clear()
                tokens[size] = created.json()["token"]
                csv_path = write_clients_csv(work / f"clients-{size}.csv", size, seed=size).path
                started = time.monotonic()
                imported = await http.post(
                    "/clients/import",
                    content=csv_path.read_bytes(),
                    headers={
                        "Content-Type": "text/csv",
                        "Authorization": f"Bearer {tokens[size]}",
                    },
                    timeout=600,
                )
                imported.raise_for_status()
                print(f"imported {size:,} clients in {time.monotonic() - started:.1f} s")
            bench_db = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
            await bench_db.execute("VACUUM (ANALYZE) clients")
            await bench_db.close()

            def auth(size: int) -> dict[str, str]:
                return {"Authorization": f"Bearer {tokens[size]}"}

            def nothing() -> Awaitable[None]:
                return asyncio.sleep(0)

            # name -> (untimed step before each request, the timed request)
            kinds: dict[str, tuple[Step, Request]] = {
                "GET /health": (nothing, lambda: http.get("http://bench/health"))
            }
            cache = getattr(app.state.carevault, "client_list_cache", None)
            for size in sizes:
                middle = max(1, size // PAGE // 2)

                def first_page(s: int = size) -> Awaitable[httpx.Response]:
                    return http.get("/clients", params={"page_size": PAGE}, headers=auth(s))

                def middle_page(s: int = size, m: int = middle) -> Awaitable[httpx.Response]:
                    params = {"page_size": PAGE, "page": m}
                    return http.get("/clients", params=params, headers=auth(s))

                def name_search(s: int = size) -> Awaitable[httpx.Response]:
                    body = {"q": "son", "page_size": PAGE}
                    return http.post("/clients/search", json=body, headers=auth(s))

                def email_search(s: int = size) -> Awaitable[httpx.Response]:
                    body = {"q": "nobody@example.org", "page_size": PAGE}
                    return http.post("/clients/search", json=body, headers=auth(s))

                kinds[f"page 1 (50 a page), {size:,} clients"] = (nothing, first_page)
                kinds[f"page {middle} (50 a page), {size:,} clients"] = (nothing, middle_page)
                kinds[f"name search 'son', {size:,} clients"] = (nothing, name_search)
                kinds[f"email search, {size:,} clients"] = (nothing, email_search)
                if not with_changes:
                    continue
                some_client = (await first_page()).json()["items"][0]["id"]
                renames = iter(range(10**9))

                async def rename(
                    s: int = size, client_id: str = some_client, numbers: Any = renames
                ) -> None:
                    response = await http.patch(
                        f"/clients/{client_id}",
                        json={"last_name": f"Renamed {next(numbers)}"},
                        headers=auth(s),
                    )
                    response.raise_for_status()

                async def forget(s: int = size) -> None:
                    if cache is not None:
                        cache.drop(spaces[s])

                kinds[f"page 1 after a rename, {size:,} clients"] = (rename, first_page)
                kinds[f"page 1, cache emptied, {size:,} clients"] = (forget, first_page)

            counts = operation_counts()
            if cold:
                for size in sizes:
                    pids = await backend_pids(admin, database)
                    db_before = sum(cpu_of(p) for p in pids)
                    before, decrypted = time.process_time(), counts.decrypted
                    response = await kinds[f"page 1 (50 a page), {size:,} clients"][1]()
                    response.raise_for_status()
                    app_cpu = time.process_time() - before
                    db_cpu = sum(cpu_of(p) for p in pids) - db_before
                    print(
                        f"cold first page, {size:,} clients: app {app_cpu * 1000:.1f} ms, "
                        f"db {db_cpu * 1000:.0f} ms (10 ms ticks), "
                        f"{counts.decrypted - decrypted} decryptions"
                    )
            for step, request in kinds.values():  # warm: connections, caches, statements
                for _ in range(5):
                    await step()
                    (await request()).raise_for_status()
            pids = await backend_pids(admin, database)
            tallies = {name: Tally() for name in kinds}
            names = list(kinds)
            for round_number in range(rounds):
                shift = round_number % len(names)
                for name in names[shift:] + names[:shift]:
                    step, request = kinds[name]
                    app_cpu = db_cpu = 0.0
                    decrypted = 0
                    for _ in range(per_round):
                        await step()
                        db_before = sum(cpu_of(p) for p in pids)
                        before, decrypted_before = time.process_time(), counts.decrypted
                        response = await request()
                        app_cpu += time.process_time() - before
                        decrypted += counts.decrypted - decrypted_before
                        db_cpu += sum(cpu_of(p) for p in pids) - db_before
                        response.raise_for_status()
                    tally = tallies[name]
                    tally.app_cpu.append(app_cpu / per_round)
                    tally.db_cpu.append(db_cpu / per_round)
                    tally.decrypted.append(decrypted / per_round)
            floor = statistics.median(tallies["GET /health"].app_cpu)
            print(
                f"\n{rounds} rounds x {per_round} requests, kinds interleaved; medians of the "
                "rounds, per request"
            )
            print(
                "| request | app CPU | vs /health | database CPU | decryptions |\n"
                "| --- | ---: | ---: | ---: | ---: |"
            )
            for name, tally in tallies.items():
                app_ms = statistics.median(tally.app_cpu) * 1000
                db_ms = statistics.mean(tally.db_cpu) * 1000
                print(
                    f"| {name} | {app_ms:.2f} ms | {app_ms / (floor * 1000):.1f}x | "
                    f"{db_ms:.2f} ms | {statistics.median(tally.decrypted):.0f} |"
                )
            await http.aclose()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,10000")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--per-round", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="also time each first page")
    parser.add_argument(
        "--with-changes",
        action="store_true",
        help="also time a page after a rename (untimed) and after emptying the name cache",
    )
    arguments = parser.parse_args()
    asyncio.run(
        main(
            [int(s) for s in arguments.sizes.split(",")],
            arguments.rounds,
            arguments.per_round,
            arguments.cold,
            arguments.with_changes,
        )
    )
