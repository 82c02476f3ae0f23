"""HAProxy in front of several `carevault serve` processes, on loopback: the configuration
(the one docs/how-to/scaling.md shows, with the ports filled in) and a bounded process that stops
with its owner. Used by the three-instance e2e test and `python -m tools.scale_bench`."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

HAPROXY = shutil.which("haproxy") or (
    "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
)
# Which instance answered: HAProxy's name for the server (a1, a2, ...), never anything else.
INSTANCE_HEADER = "X-CareVault-Instance"


def config(listen_port: int, servers: Sequence[tuple[str, int]]) -> str:
    """Round robin over `servers` (name, port), health-checked on /health/ready every
    500 ms (down after 2 failures, up after 2 successes); a request whose connection could
    not be made is sent to another server (`retry-on conn-failure`, `option redispatch`).
    Nothing else is retried by HAProxy: its other retry-on cases replay any method, and
    only creates with an Idempotency-Key are safe to replay; clients retry those."""
    lines = [
        "global",
        "    maxconn 2048",
        "    nbthread 1",
        "defaults",
        "    mode http",
        "    timeout connect 1s",
        "    timeout client 30s",
        "    timeout server 30s",
        "    timeout http-keep-alive 10s",
        "    retries 3",
        "    option redispatch 1",
        "    retry-on conn-failure",
        "frontend carevault",
        f"    bind 127.0.0.1:{listen_port}",
        "    default_backend carevault_instances",
        "backend carevault_instances",
        "    balance roundrobin",
        "    option httpchk",
        "    http-check send meth GET uri /health/ready",
        "    http-check expect status 200",
        "    default-server inter 500ms fall 2 rise 2",
        f"    http-response set-header {INSTANCE_HEADER} %s",
    ]
    lines += [f"    server {name} 127.0.0.1:{port} check" for name, port in servers]
    return "\n".join(lines) + "\n"


@contextmanager
def haproxy(
    directory: Path, listen_port: int, servers: Sequence[tuple[str, int]]
) -> Iterator[subprocess.Popen[bytes]]:
    """HAProxy in the foreground with its configuration and log in `directory`; stopped
    (then killed) when the block ends."""
    assert HAPROXY is not None, "HAProxy is not installed (scripts/setup-machine.sh)"
    path = directory / "haproxy.cfg"
    path.write_text(config(listen_port, servers))
    checked = subprocess.run(  # noqa: S603 (the installed haproxy, fixed arguments)
        [HAPROXY, "-c", "-q", "-f", str(path)], capture_output=True, text=True, timeout=30
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    with (directory / "haproxy.log").open("wb") as log:
        process = subprocess.Popen(  # noqa: S603 (the installed haproxy, fixed arguments)
            [HAPROXY, "-db", "-f", str(path)], stdout=log, stderr=subprocess.STDOUT
        )
        try:
            time.sleep(0.1)
            assert process.poll() is None, (directory / "haproxy.log").read_text()
            yield process
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
