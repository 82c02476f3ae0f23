"""scripts/setup-machine.sh decides what to install: these tests run it on a pretend machine.

The pretend machine is a PATH of stubs (apt-get, id, psql, node...) beside a few real core
utilities, and a copy of the script in a scratch project (so no .venv is found). Nothing is
installed: the apt-get stub records its arguments and "installs" by creating the stubs.
"""

from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "setup-machine.sh"
REAL_TOOLS = (
    "dirname",
    "env",
    "mktemp",
    "tail",
    "rm",
    "sleep",
    "od",
    "tr",
    "grep",
    "mv",
    "touch",
    "chmod",
)


def _executable(path: Path, body: str) -> None:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


class Machine:
    """A Debian machine with everything `make test` needs; tests take parts away."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bin = root / "bin"
        self.state = root / "state"
        self.home = root / "home"
        for directory in (self.bin, self.state, self.home):
            directory.mkdir()
        project = root / "project" / "scripts"
        project.mkdir(parents=True)
        self.script = project / "setup-machine.sh"
        shutil.copy(SCRIPT, self.script)
        for tool in REAL_TOOLS:
            found = shutil.which(tool)
            assert found, tool
            (self.bin / tool).symlink_to(found)
        self.chromium = root / "chromium"
        self.uid = 1000
        self.stub("id", '[ "$1" = -u ] && echo "$STUB_UID"; exit 0')
        for tool in ("make", "npm", "pg_ctlcluster", "wrk", "pgbouncer", "haproxy", "redis-server"):
            self.stub(tool)
        self.stub("node", "echo v20.20.2")
        self.stub("python3", 'echo "3.11 venv"')
        self.stub("chromium", path=self.chromium)
        self.postgres_up()
        # psql answers 1 to SELECT 1 unless the server wants a password that ~/.pgpass lacks,
        # and says whether pgcrypto is available.
        self.stub(
            "psql",
            f"""case "$*" in
  *pg_available_extensions*) [ -f {self.state}/no-pgcrypto ] && echo 0 || echo 1 ;;
  *) [ -f {self.state}/password-needed ] && [ ! -f "$HOME/.pgpass" ] && exit 2; echo 1 ;;
esac""",
        )

    def stub(self, name: str, body: str = "exit 0", *, path: Path | None = None) -> None:
        _executable(path or self.bin / name, body)

    def remove(self, *names: str) -> None:
        for name in names:
            (self.chromium if name == "chromium" else self.bin / name).unlink()

    def postgres_up(self, up: bool = True) -> None:
        self.stub("pg_isready", f"[ -f {self.state}/pg-up ]")
        (self.state / "pg-up").touch() if up else (self.state / "pg-up").unlink(missing_ok=True)

    def with_apt_get(self) -> None:
        """apt-get that records each call and creates what the packages would have installed."""
        installs = {
            "make": f"make_stub {self.bin}/make",
            "nodejs": f"make_stub {self.bin}/node 'echo v20.20.2'",
            "npm": f"make_stub {self.bin}/npm",
            "chromium": f"make_stub {self.chromium}",
            "postgresql": f"make_stub {self.bin}/pg_ctlcluster",
            "postgresql-contrib": f"/bin/rm -f {self.state}/no-pgcrypto",
            "wrk": f"make_stub {self.bin}/wrk",
            "pgbouncer": f"make_stub {self.bin}/pgbouncer",
            "haproxy": f"make_stub {self.bin}/haproxy",
            "redis-server": f"make_stub {self.bin}/redis-server",
        }
        cases = "\n".join(f"    {package}) {action} ;;" for package, action in installs.items())
        self.stub(
            "apt-get",
            f"""echo "$*" >> {self.state}/apt.log
make_stub() {{ printf '#!/bin/sh\\n%s\\n' "${{2:-exit 0}}" > "$1"; /bin/chmod +x "$1"; }}
for argument in "$@"; do
  case "$argument" in
{cases}
  esac
done""",
        )

    def apt_calls(self) -> list[str]:
        log = self.state / "apt.log"
        return log.read_text().splitlines() if log.exists() else []

    def run(self, *args: str, ci: bool = False, **env: str) -> subprocess.CompletedProcess[str]:
        environment = {
            "PATH": str(self.bin),
            "HOME": str(self.home),
            "STUB_UID": str(self.uid),
            "CHROMIUM_PATH": str(self.chromium),
            "SBIN_DIRS": "",  # the pretend machine's daemons are stubs on its PATH
            **({"CI": "true"} if ci else {}),
            **env,
        }
        return subprocess.run(
            ["/bin/bash", str(self.script), *args],
            env=environment,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path)


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, result
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("setup: ")
    return lines[0]


def test_everything_present_changes_nothing_and_prints_nothing(machine: Machine) -> None:
    result = machine.run(ci=True)

    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_without_apt_get_one_line_names_every_package_to_install(machine: Machine) -> None:
    machine.remove("make", "node", "npm", "chromium")

    line = one_error_line(machine.run())

    assert "no apt-get here" in line
    assert line.endswith("(Debian's names: make nodejs npm chromium)")
    assert "Chromium at" in line


def test_not_root_without_sudo_says_what_to_run_as_root(machine: Machine) -> None:
    machine.with_apt_get()
    machine.remove("chromium")

    line = one_error_line(machine.run())

    assert "installing needs root" in line
    assert line.endswith("sudo apt-get install -y chromium")
    assert machine.apt_calls() == []


def test_root_installs_what_is_missing_says_so_then_has_nothing_to_do(machine: Machine) -> None:
    machine.with_apt_get()
    machine.remove("make", "chromium", "node", "npm")
    machine.uid = 0

    first = machine.run(ci=True)

    assert first.returncode == 0, first
    assert "setup: installing make nodejs npm chromium" in first.stdout
    calls = machine.apt_calls()
    assert len(calls) == 2
    assert calls[0].endswith("update")
    assert calls[1].endswith("install make nodejs npm chromium")
    second = machine.run(ci=True)
    assert (second.returncode, second.stdout, second.stderr) == (0, "", "")
    assert len(machine.apt_calls()) == 2


def test_check_mode_reports_and_changes_nothing(machine: Machine) -> None:
    machine.with_apt_get()
    machine.remove("chromium")
    machine.postgres_up(False)
    machine.uid = 0

    result = machine.run("--check")

    assert result.returncode == 1
    assert "would install chromium" in result.stdout
    assert "would start PostgreSQL" in result.stdout
    assert machine.apt_calls() == []


def test_python_without_venv_needs_its_venv_package(machine: Machine) -> None:
    machine.with_apt_get()
    machine.stub("python3", 'echo "3.11 -"')

    assert "sudo apt-get install -y python3.11-venv" in one_error_line(machine.run())


def test_python_too_old_is_one_line(machine: Machine) -> None:
    machine.stub("python3", 'echo "3.9 venv"')

    assert "Python 3.9: CareVault needs 3.11 or newer" in one_error_line(machine.run())


def test_node_too_old_for_vite_is_one_line(machine: Machine) -> None:
    machine.stub("node", "echo v18.20.4")

    line = one_error_line(machine.run())

    assert "Node.js v18.20.4 is too old" in line
    assert "20.19 or newer" in line


def test_no_postgres_is_a_note_outside_ci_and_an_error_under_ci(machine: Machine) -> None:
    machine.remove("pg_ctlcluster")
    machine.postgres_up(False)

    outside = machine.run()
    under_ci = machine.run(ci=True)

    assert outside.returncode == 0, outside
    assert outside.stderr == ""
    assert len(outside.stdout.splitlines()) == 1
    assert "an embedded PostgreSQL stands in" in outside.stdout
    assert "(Debian's names: postgresql postgresql-contrib)" in one_error_line(under_ci)


def test_another_server_configured_leaves_the_local_one_alone(machine: Machine) -> None:
    machine.remove("pg_ctlcluster", "psql")
    machine.postgres_up(False)

    result = machine.run(ci=True, CAREVAULT_TEST_ADMIN_DSN="postgresql://u:p@db.invalid/postgres")

    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_missing_pgcrypto_installs_contrib_as_root_and_is_an_error_under_ci(
    machine: Machine,
) -> None:
    machine.with_apt_get()
    (machine.state / "no-pgcrypto").touch()

    assert "sudo apt-get install -y postgresql-contrib" in one_error_line(machine.run(ci=True))
    assert "pgcrypto" in machine.run().stdout  # outside CI: a note
    machine.uid = 0
    installed = machine.run(ci=True)
    assert installed.returncode == 0, installed
    assert machine.apt_calls()[-1].endswith("install postgresql-contrib")
    assert machine.run(ci=True).stdout == ""


def test_a_server_that_wants_a_password_gets_one_in_pgpass(machine: Machine) -> None:
    (machine.state / "password-needed").touch()
    machine.stub("su", f'echo "$*" > {machine.state}/su.log')

    as_user = machine.run()
    machine.uid = 0
    as_root = machine.run()

    assert "CAREVAULT_TEST_ADMIN_DSN" in one_error_line(as_user)
    assert as_root.returncode == 0, as_root
    assert "password" in as_root.stdout
    assert "ALTER USER postgres PASSWORD" in (machine.state / "su.log").read_text()
    pgpass = machine.home / ".pgpass"
    assert stat.S_IMODE(pgpass.stat().st_mode) == 0o600
    (line,) = pgpass.read_text().splitlines()
    assert line.startswith("127.0.0.1:5432:*:postgres:carevault-")
    password = line.rsplit(":", 1)[1]
    assert password not in as_root.stdout + as_root.stderr
    assert machine.run().stdout == ""  # the password works from now on


def test_without_wrk_its_tests_skip_outside_ci_and_ci_needs_it(machine: Machine) -> None:
    machine.with_apt_get()
    machine.remove("wrk")

    outside = machine.run()

    assert outside.returncode == 0, outside
    assert "the load generator's tests skip" in outside.stdout
    assert "sudo apt-get install -y wrk" in outside.stdout
    assert "sudo apt-get install -y wrk" in one_error_line(machine.run(ci=True))


def test_loadtest_installs_wrk_and_nothing_the_browser_tests_need(machine: Machine) -> None:
    machine.with_apt_get()
    machine.remove("wrk", "chromium", "node", "npm")
    (machine.state / "no-pgcrypto").touch()

    as_user = machine.run("--loadtest")
    machine.uid = 0
    as_root = machine.run("--loadtest")

    line = one_error_line(as_user)
    assert "missing wrk (the load generator)" in line
    assert line.endswith("sudo apt-get install -y wrk")
    assert as_root.returncode == 0, as_root
    assert "setup: installing wrk" in as_root.stdout
    assert machine.apt_calls()[-1].endswith("install wrk")
    assert machine.run("--loadtest").stdout == ""


def test_loadtest_cannot_do_without_the_postgres_server(machine: Machine) -> None:
    machine.remove("pg_ctlcluster")
    machine.postgres_up(False)

    line = one_error_line(machine.run("--loadtest"))

    assert "(Debian's names: postgresql postgresql-contrib)" in line


def test_pgbouncer_and_haproxy_are_installed_as_root_and_their_tests_skip_without(
    machine: Machine,
) -> None:
    machine.with_apt_get()
    machine.remove("pgbouncer", "haproxy")

    outside = machine.run()
    assert outside.returncode == 0, outside
    assert "the scaling tests skip" in outside.stdout
    assert "sudo apt-get install -y pgbouncer haproxy" in outside.stdout
    line = one_error_line(machine.run(ci=True))
    assert "missing PgBouncer, HAProxy" in line
    assert line.endswith("sudo apt-get install -y pgbouncer haproxy")

    machine.uid = 0
    as_root = machine.run()
    assert as_root.returncode == 0, as_root
    assert machine.apt_calls()[-1].endswith("install pgbouncer haproxy")
    assert machine.run().stdout == ""  # installed: nothing more to do


def test_loadtest_needs_neither_pgbouncer_nor_haproxy(machine: Machine) -> None:
    machine.remove("pgbouncer", "haproxy")
    assert machine.run("--loadtest").returncode == 0
