"""Throughput with 1, 2 and 3 `carevault serve` instances behind HAProxy, on this machine.

    python -m tools.scale_bench [--instances 1,2,3] [--seconds 10] [--connections 16]

For each count: a fresh set of instances (one worker each) on one database, with Redis
(shared request limits and notices, when it answers on 127.0.0.1:6379) and HAProxy in front
(round robin, the configuration of docs/how-to/scaling.md); wrk (one thread, a closed loop of
`--connections` connections) reads one client record through HAProxy with an API token for
`--seconds`: the hot read path (credential lookup, shared rate limit in Redis, ten fields
decrypted, an audit event committed). Reports requests/s, non-2xx answers, and the CPU
seconds each process used during the run (each instance, PostgreSQL's backends of the
database, HAProxy, Redis, wrk), per 1,000 requests too, as JSON and a Markdown table.

On a machine with as many cores as processes, requests/s rise with instances until
PostgreSQL or the load generator is the limit; on a 2-core machine they cannot rise much:
the figures say where the CPU goes. Never part of the product; loopback only; every process
it starts is stopped when it ends.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import asyncpg
import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "backend") not in sys.path:
    sys.path.insert(0, str(ROOT / "backend"))

from tools.haproxy import haproxy  # noqa: E402
from tools.loadtest.database import DEFAULT_ADMIN_DSN  # noqa: E402
from tools.loadtest.processes import free_port  # noqa: E402

PASSWORD = "scale-bench-password"  # noqa: S105 (a throwaway account on a throwaway database)
EMAIL = "owner@scale.example"
TICKS = os.sysconf("SC_CLK_TCK")
LUA = """
wrk.method = "GET"
wrk.headers["Authorization"] = "Bearer %s"
"""


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (its own threads), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def pids_named(name: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def carevault(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(  # noqa: S603 (our interpreter, fixed arguments)
        [sys.executable, "-m", "carevault", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
    )
    if done.returncode != 0:
        raise SystemExit(f"carevault {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def wait_ready(base: str, process: subprocess.Popen[bytes], seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"an instance exited ({process.returncode})")
        try:
            if httpx.get(f"{base}/health/ready", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"{base} never became ready")


async def database_backends(dsn: str, database: str) -> list[int]:
    connection = await asyncpg.connect(dsn)
    try:
        rows = await connection.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = $1", database
        )
        return [row["pid"] for row in rows]
    finally:
        await connection.close()


def run_once(
    count: int, env: dict[str, str], work: Path, admin_dsn: str, database: str, args: Any
) -> dict[str, Any]:
    with ExitStack() as stack:
        servers, processes = [], []
        for number in range(count):
            port = free_port()
            log = stack.enter_context((work / f"n{count}-a{number + 1}.log").open("wb"))
            process = subprocess.Popen(  # noqa: S603 (our interpreter, fixed arguments)
                [sys.executable, "-m", "carevault", "serve", "--port", str(port)],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            stack.callback(stop, process)
            servers.append((f"a{number + 1}", port))
            processes.append(process)
        for (_, port), process in zip(servers, processes, strict=True):
            wait_ready(f"http://127.0.0.1:{port}", process)
        front = free_port()
        balancer = stack.enter_context(haproxy(work, front, servers))
        base = f"http://127.0.0.1:{front}"
        time.sleep(1.5)  # HAProxy's health checks mark every server up (rise 2, 500 ms apart)
        with httpx.Client(base_url=f"{base}/api/v1", timeout=30) as http:
            login = http.post("/auth/login", json={"email": EMAIL, "password": PASSWORD})
            login.raise_for_status()
            csrf = {"X-CSRF-Token": login.json()["csrf_token"]}
            token = http.post(
                "/auth/tokens", json={"name": "bench", "scopes": ["clients:read"]}, headers=csrf
            ).json()["token"]
            client = http.get("/clients", params={"page_size": 1}).json()["items"][0]["id"]
            # Warm every instance (first request per process opens the practice's keys).
            for _ in range(count * 4):
                http.get(f"/clients/{client}", headers={"Authorization": f"Bearer {token}"})
        script = work / "bench.lua"
        script.write_text(LUA % token)
        backends = asyncio.run(database_backends(admin_dsn, database))
        watched = {
            **{name: process.pid for (name, _), process in zip(servers, processes, strict=True)},
            "haproxy": balancer.pid,
        }
        redis = pids_named("redis-server")
        before = {name: cpu_seconds(pid) for name, pid in watched.items()}
        postgres_before = {pid: cpu_seconds(pid) for pid in backends}
        redis_before = sum(cpu_seconds(pid) for pid in redis)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        wrk = subprocess.run(  # noqa: S603 (the installed wrk, fixed arguments)
            [
                shutil.which("wrk") or "wrk",
                "-t1",
                f"-c{args.connections}",
                f"-d{round(args.seconds)}s",
                "-s",
                str(script),
                f"{base}/api/v1/clients/{client}",
            ],
            capture_output=True,
            text=True,
            timeout=args.seconds + 60,
        )
        elapsed = time.monotonic() - started
        reaped = resource.getrusage(resource.RUSAGE_CHILDREN)  # wrk is the only one reaped
        wrk_cpu = reaped.ru_utime + reaped.ru_stime - children.ru_utime - children.ru_stime
        # Backends opened during the run (pools growing to the concurrency) count whole.
        backends = asyncio.run(database_backends(admin_dsn, database))
        postgres = sum(cpu_seconds(pid) - postgres_before.get(pid, 0.0) for pid in backends)
        used = {name: round(cpu_seconds(pid) - before[name], 2) for name, pid in watched.items()}
        used["postgres"] = round(postgres, 2)
        used["wrk"] = round(wrk_cpu, 2)
        used["redis"] = round(sum(cpu_seconds(pid) for pid in redis) - redis_before, 2)
        out = wrk.stdout
        if "Requests/sec" not in out:
            raise SystemExit(f"wrk failed:\n{out}{wrk.stderr}")
        rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
        total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
        bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        errors = re.search(r"Socket errors: (.*)", out)
        latency = re.search(r"Latency\s+(\S+)\s+(\S+)\s+(\S+)", out)
        instance_cpu = sum(used[name] for name, _ in servers)
        return {
            "instances": count,
            "requests": total,
            "requests_per_second": rate,
            "non_2xx": int(bad.group(1)) if bad else 0,
            "socket_errors": errors.group(1) if errors else "",
            "latency_avg": latency.group(1) if latency else "",
            "seconds": round(elapsed, 1),
            "cpu_seconds": used,
            "instance_cpu_share": round(instance_cpu / elapsed, 2),  # cores, all instances
            "instance_cpu_ms_per_request": round(1000 * instance_cpu / max(total, 1), 3),
            "postgres_cpu_ms_per_request": round(1000 * postgres / max(total, 1), 3),
        }


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def markdown(results: list[dict[str, Any]], cores: int) -> str:
    lines = [
        f"Machine: {cores} cores (`nproc`), everything on it: the instances, PostgreSQL, "
        "Redis, HAProxy and wrk.",
        "",
        "| instances | requests/s | non-2xx | CPU of each instance (cores) | "
        "instances' CPU per request | PostgreSQL CPU per request | HAProxy, Redis, wrk (s) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for result in results:
        cpu, seconds = result["cpu_seconds"], result["seconds"]
        each = ", ".join(f"{cpu[f'a{n + 1}'] / seconds:.2f}" for n in range(result["instances"]))
        lines.append(
            f"| {result['instances']} | {result['requests_per_second']:.0f} | "
            f"{result['non_2xx']} | {each} | {result['instance_cpu_ms_per_request']:.2f} ms | "
            f"{result['postgres_cpu_ms_per_request']:.2f} ms | {cpu['haproxy']}, "
            f"{cpu['redis']}, {cpu['wrk']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", default="1,2,3")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--admin-dsn", default=DEFAULT_ADMIN_DSN)
    parser.add_argument("--output", type=Path, default=Path("reports/scale_bench.json"))
    args = parser.parse_args()
    counts = [int(n) for n in args.instances.split(",")]
    database = f"cv_scale_{uuid.uuid4().hex[:8]}"

    async def admin(sql: str) -> None:
        connection = await asyncpg.connect(args.admin_dsn)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    asyncio.run(admin(f'CREATE DATABASE "{database}"'))
    try:
        with tempfile.TemporaryDirectory(prefix="cv-scale-") as temporary:
            work = Path(temporary)
            url = args.admin_dsn.rsplit("/", 1)[0].replace(
                "postgresql://", "postgresql+asyncpg://", 1
            )
            env = {k: v for k, v in os.environ.items() if not k.startswith("CAREVAULT_")}
            env.update(
                CAREVAULT_DATABASE_URL=f"{url}/{database}",
                CAREVAULT_DATA_DIR=str(work / "data"),
                CAREVAULT_API_RATE_LIMIT_PER_MINUTE="1000000",
                CAREVAULT_API_RATE_LIMIT_PER_PRACTICE_PER_MINUTE="10000000",
                CAREVAULT_REDIS_URL="redis://127.0.0.1:6379/0",
                CAREVAULT_WEBHOOK_WORKER="false",
                CAREVAULT_LOG_LEVEL="warning",
            )
            carevault(env, "db", "upgrade")
            carevault(env, "keys", "init")
            carevault(env, "users", "create", "--workspace", "Scale clinic", "--email", EMAIL,
                      "--role", "owner", stdin=PASSWORD + "\n")  # fmt: skip
            csv = "first_name,last_name,email,medical_history\n" + "".join(
                f"Given{n},Family{n},c{n}@scale.example,History {n}\n" for n in range(20)
            )
            (work / "clients.csv").write_text(csv)
            carevault(env, "import", "clients", "--workspace", "Scale clinic",
                      str(work / "clients.csv"))  # fmt: skip
            results = []
            for count in counts:
                result = run_once(count, env, work, args.admin_dsn, database, args)
                print(json.dumps(result), flush=True)
                results.append(result)
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2) + "\n")
    table = markdown(results, os.cpu_count() or 0)
    args.output.with_suffix(".md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
