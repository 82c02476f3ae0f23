#!/usr/bin/env bash
# Install what `make test` needs on a Debian machine, or say in one line what to install.
# Run by `make test` and .ci/run, and with --loadtest by `make loadtest`. With everything
# present it changes nothing, prints nothing and takes a fraction of a second, whoever runs it;
# installing needs apt-get and root (or sudo without a password).
#
# Needs: make; Python 3.11+ able to create a virtualenv (python3-venv); Node.js 20.19+ with npm
# (Vite 7); Chromium at /usr/bin/chromium (the UI's browser tests); a PostgreSQL server on
# 127.0.0.1:5432 that user postgres reaches without a password prompt, offering pgcrypto
# (postgresql-contrib). Without that server the Python tests start an embedded one and skip the
# pgcrypto tests, so outside CI a missing server is a note; under CI=true it is an error.
# wrk, the load generator `make loadtest` drives the server with: its driver's tests skip
# without it outside CI. PgBouncer and HAProxy (Debian's pgbouncer and haproxy), which the
# scaling tests put in front of PostgreSQL and of several CareVault processes: those tests
# skip without them outside CI.
#
# Usage: scripts/setup-machine.sh [--check] [--loadtest]
#   --check     say what is missing and what would be done, change nothing; exit 1 if anything is.
#   --loadtest  what `make loadtest` needs instead: wrk, and the PostgreSQL server (required:
#               the load test has no embedded fallback). No browser, Node.js or pgcrypto.
# Environment: CI, PYTHON (the interpreter the Makefile uses), CHROMIUM_PATH (another browser),
# CAREVAULT_TEST_ADMIN_DSN (the tests use that server: the local one is left alone),
# SBIN_DIRS (where else to look for daemons such as pgbouncer; default /usr/sbin:/sbin, which
# a user's PATH may leave out).
set -euo pipefail
cd "$(dirname "$0")/.."

CHECK_ONLY=false
FOR=test
for argument in "$@"; do
    case "$argument" in
        --check) CHECK_ONLY=true ;;
        --loadtest) FOR=loadtest ;;
        *) echo "usage: $0 [--check] [--loadtest]" >&2; exit 2 ;;
    esac
done
IN_CI=false
case "${CI:-}" in [Tt][Rr][Uu][Ee] | [Yy][Ee][Ss] | 1) IN_CI=true ;; esac
# Whether the tests can do without what `want` names (see below): outside CI, yes.
STRICT=$IN_CI
[ "$FOR" = test ] || STRICT=true
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
PG_HOST=127.0.0.1
PG_PORT=5432

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: %s\n' "$*" >&2; exit 1; }
joined() { local IFS=','; local text="$*"; printf '%s' "${text//,/, }"; }

# "major.minor[.patch]" at least "major.minor"?
version_at_least() {
    [[ $1 =~ ^([0-9]+)\.([0-9]+) ]] || return 1
    local major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}
    [[ $2 =~ ^([0-9]+)\.([0-9]+)$ ]]
    ((major > BASH_REMATCH[1] || (major == BASH_REMATCH[1] && minor >= BASH_REMATCH[2])))
}

# How to act as root: "" (we are root), "sudo -n", or "none". Asked only when needed.
ROOT_VIA=unknown
root_via() {
    if [ "$ROOT_VIA" = unknown ]; then
        if [ "$(id -u)" = 0 ]; then ROOT_VIA=""
        elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then ROOT_VIA="sudo -n"
        else ROOT_VIA=none; fi
    fi
    [ "$ROOT_VIA" != none ]
}
as_root() { $ROOT_VIA "$@"; }

# Debian packages to install: `need` ones the tests cannot do without; `want` ones (PostgreSQL,
# wrk, outside CI) whose absence only makes some tests skip. `what` names each for the messages.
required=() wanted=() what=()
MISSING=false
need() { what+=("$1"); required+=("${@:2}"); }
want() { if $STRICT; then need "$@"; else what+=("$1"); wanted+=("${@:2}"); fi; }

APT_UPDATED=false
apt_install() {
    if $CHECK_ONLY; then say "would install $*"; return; fi
    say "installing $* (Debian packages; a few minutes the first time)"
    local log apt=(env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=300)
    log=$(mktemp)
    if ! $APT_UPDATED; then
        as_root "${apt[@]}" update >"$log" 2>&1 \
            || { tail -n 20 "$log" >&2; rm -f "$log"; die "apt-get update failed (its last lines are above)"; }
        APT_UPDATED=true
    fi
    as_root "${apt[@]}" install "$@" >"$log" 2>&1 \
        || { tail -n 20 "$log" >&2; rm -f "$log"; die "apt-get install $* failed (its last lines are above)"; }
    rm -f "$log"
}

# Install what was found missing, or print the one line that says what to install.
install_missing() {
    [ ${#what[@]} -gt 0 ] || return 0
    MISSING=true
    local packages=("${required[@]}" "${wanted[@]}")
    if command -v apt-get >/dev/null && root_via; then
        apt_install "${packages[@]}"
    elif [ ${#required[@]} -gt 0 ] && command -v apt-get >/dev/null; then
        die "missing $(joined "${what[@]}"), and installing needs root: sudo apt-get install -y ${packages[*]}"
    elif [ ${#required[@]} -gt 0 ]; then
        die "missing $(joined "${what[@]}"), and there is no apt-get here: install them with this system's package manager (Debian's names: ${packages[*]})"
    else
        say "note: no $(joined "${what[@]}"), so some tests skip (without PostgreSQL, an embedded PostgreSQL stands in and the pgcrypto tests skip; without wrk, the load generator's tests skip; without pgbouncer or haproxy, the scaling tests skip); for all tests: sudo apt-get install -y ${packages[*]}"
    fi
    required=() wanted=() what=()
}

pg_answers() {
    if command -v pg_isready >/dev/null; then
        pg_isready -h "$PG_HOST" -p "$PG_PORT" -q 2>/dev/null
    else
        (exec 3<>"/dev/tcp/$PG_HOST/$PG_PORT") 2>/dev/null
    fi
}
# -w: never prompt for a password (a prompt would hang CI, which has no standard input).
pg_query() {
    PGCONNECT_TIMEOUT=5 psql -w -h "$PG_HOST" -p "$PG_PORT" -U postgres -d postgres -tAc "$1" \
        2>/dev/null </dev/null || true
}

# --- 1. What a package install provides ---------------------------------------------------
command -v make >/dev/null || need "make" make

python="${PYTHON:-}"
[ -n "$python" ] || python=$(command -v python3.11 || command -v python3 || true)
if [ -z "$python" ] || ! command -v "$python" >/dev/null; then
    need "Python 3" python3 python3-venv
elif [ ! -f .venv/.installed ]; then # once the virtualenv exists, venv is no longer needed
    py=$("$python" -c 'import importlib.util as u, sys
print("%d.%d" % sys.version_info[:2], "venv" if u.find_spec("ensurepip") else "-")' || true)
    py_version=${py%% *}
    version_at_least "$py_version" 3.11 \
        || die "$python is Python ${py_version:-that does not run}: CareVault needs 3.11 or newer (install it, or set PYTHON=/path/to/python3.11)"
    [ "${py#* }" = venv ] || need "Python's venv" "python$py_version-venv"
fi

if [ "$FOR" = test ]; then
    if ! command -v node >/dev/null; then
        need "Node.js" nodejs
        command -v npm >/dev/null || need "npm" npm
    elif ! command -v npm >/dev/null; then
        need "npm" npm
    fi
    [ -x "$CHROMIUM" ] || need "Chromium at $CHROMIUM" chromium
fi

command -v wrk >/dev/null || want "wrk (the load generator)" wrk
if [ "$FOR" = test ]; then
    # Daemons live in /usr/sbin, which a user's PATH may not include.
    sbin_has() { PATH="$PATH:${SBIN_DIRS-/usr/sbin:/sbin}" command -v "$1" >/dev/null; }
    sbin_has pgbouncer || want "PgBouncer" pgbouncer
    sbin_has haproxy || want "HAProxy" haproxy
    # The shared rate limits' and notices' tests use the Redis on 127.0.0.1:6379 when one
    # answers, else start Debian's redis-server themselves (tests/support/redis_server.py).
    sbin_has redis-server || want "Redis" redis-server
fi

use_local_pg=true
[ -z "${CAREVAULT_TEST_ADMIN_DSN:-}" ] || use_local_pg=false
pg_missing=false
if $use_local_pg && ! pg_answers && ! command -v pg_ctlcluster >/dev/null; then
    want "PostgreSQL on $PG_HOST:$PG_PORT" postgresql postgresql-contrib
    pg_missing=true
fi

install_missing
# Not installed (and said so), or only would be (--check): nothing more to do with it here.
if $pg_missing && { $CHECK_ONLY || ! command -v pg_ctlcluster >/dev/null; }; then use_local_pg=false; fi
[ "$FOR" != test ] || $CHECK_ONLY || [ -x "$CHROMIUM" ] \
    || die "no browser at $CHROMIUM: install Debian's chromium, or set CHROMIUM_PATH to a Chromium"

# --- 2. Node.js new enough for Vite 7 (Debian 12's is 18: not something apt can fix there) ---
if [ "$FOR" = test ] && command -v node >/dev/null; then
    node_version=$(node --version 2>/dev/null || true)
    version_at_least "${node_version#v}" 20.19 \
        || die "Node.js ${node_version:-(does not run)} is too old for the web UI (Vite 7): install Node.js 20.19 or newer"
fi

# --- 3. A running PostgreSQL that user postgres reaches, with pgcrypto --------------------
if $use_local_pg && ! pg_answers; then
    if $CHECK_ONLY; then
        say "would start PostgreSQL"
        MISSING=true
        use_local_pg=false
    elif command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ] && root_via; then
        say "starting PostgreSQL"
        for conf in /etc/postgresql/*/main; do
            [ -d "$conf" ] || continue
            version=${conf#/etc/postgresql/}
            as_root pg_ctlcluster --skip-systemctl-redirect "${version%/main}" main start || true
        done
        for _ in {1..30}; do pg_answers && break; sleep 1; done
    fi
    if $use_local_pg && ! pg_answers; then
        message="no PostgreSQL answers on $PG_HOST:$PG_PORT and this script could not start it"
        elsewhere="set CAREVAULT_TEST_ADMIN_DSN"
        [ "$FOR" = test ] || elsewhere="point make loadtest at another server (LOADTEST_ARGS=--admin-dsn=...)"
        $STRICT && die "$message: start it as root (pg_ctlcluster VERSION main start) or $elsewhere"
        say "note: $message, so the tests use an embedded PostgreSQL and skip the pgcrypto tests"
        use_local_pg=false
    fi
fi

if $use_local_pg && command -v psql >/dev/null; then
    if [ "$(pg_query 'SELECT 1')" != 1 ]; then
        # A stock Debian server asks for a password over TCP: give postgres a random one, kept
        # in ~/.pgpass, which psql and asyncpg (so the tests) read.
        if $CHECK_ONLY; then
            say "would give the PostgreSQL user postgres a password, kept in ~/.pgpass"
            MISSING=true
        elif [ "$(id -u)" != 0 ] || ! id postgres >/dev/null 2>&1; then
            die "user postgres cannot connect to $PG_HOST:$PG_PORT without a password: put it in ~/.pgpass, or set CAREVAULT_TEST_ADMIN_DSN=postgresql://USER:PASSWORD@$PG_HOST:$PG_PORT/postgres"
        else
            say "giving the PostgreSQL user postgres a password, kept in ~/.pgpass"
            password="carevault-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
            su postgres -c "psql -qc \"ALTER USER postgres PASSWORD '$password'\"" </dev/null >/dev/null
            pgpass="$HOME/.pgpass"
            touch "$pgpass"
            { grep -v "^$PG_HOST:$PG_PORT:\*:postgres:" "$pgpass" || true
              echo "$PG_HOST:$PG_PORT:*:postgres:$password"; } >"$pgpass.new"
            chmod 600 "$pgpass.new" && mv "$pgpass.new" "$pgpass"
            [ "$(pg_query 'SELECT 1')" = 1 ] || die "still cannot connect to PostgreSQL on $PG_HOST:$PG_PORT as postgres"
        fi
    fi
    available=$(pg_query "SELECT count(*) FROM pg_available_extensions WHERE name = 'pgcrypto'")
    if [ "$FOR" = test ] && [ "$available" = 0 ]; then
        want "pgcrypto in PostgreSQL" postgresql-contrib
        install_missing
    fi
fi

if $CHECK_ONLY && $MISSING; then exit 1; fi
exit 0
