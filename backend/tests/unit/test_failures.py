"""The failure vocabulary: which infrastructure errors become which 503, and the incident
log that says so once per interval instead of once per request."""

from __future__ import annotations

import errno
import logging

import asyncpg
import pytest
from sqlalchemy import exc as sa_exc

from carevault.api import failures
from carevault.db.deadlines import DeadlineExceeded, Deadlines, connection_broken


def _wrapped(error: Exception) -> sa_exc.DBAPIError:
    """As SQLAlchemy raises a driver error."""
    wrapped = sa_exc.OperationalError("SELECT 1", {}, error)
    wrapped.__cause__ = error
    return wrapped


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (asyncpg.exceptions.DiskFullError("no space"), failures.STORAGE_FULL),
        (_wrapped(asyncpg.exceptions.DiskFullError("no space")), failures.STORAGE_FULL),
        (OSError(errno.ENOSPC, "No space left on device"), failures.STORAGE_FULL),
        (asyncpg.exceptions.QueryCanceledError("statement timeout"), failures.TIMEOUT),
        (
            asyncpg.exceptions.IdleInTransactionSessionTimeoutError("idle"),
            failures.TIMEOUT,
        ),
        (TimeoutError(), failures.TIMEOUT),
        (sa_exc.TimeoutError("QueuePool limit"), failures.TIMEOUT),
        (DeadlineExceeded("late"), failures.TIMEOUT),
        (ConnectionRefusedError(errno.ECONNREFUSED, "refused"), failures.UNAVAILABLE),
        (asyncpg.exceptions.CannotConnectNowError("starting up"), failures.UNAVAILABLE),
        (asyncpg.exceptions.AdminShutdownError("shutting down"), failures.UNAVAILABLE),
        (asyncpg.exceptions.TooManyConnectionsError("full"), failures.UNAVAILABLE),
        (asyncpg.exceptions.ReadOnlySQLTransactionError("standby"), failures.UNAVAILABLE),
        (asyncpg.exceptions.ConnectionDoesNotExistError("gone"), failures.UNAVAILABLE),
        (_wrapped(asyncpg.exceptions.InterfaceError("closed")), failures.UNAVAILABLE),
        (asyncpg.exceptions.CharacterNotInRepertoireError("NUL"), failures.UNSTORABLE),
        # The driver's own errors, by family: a connection the server ended mid-request
        # (pg_ctl stop -m fast) fails the next statement with this, from the direct pool.
        (
            asyncpg.InternalClientError(
                "cannot switch to state 12; another operation (2) is in progress"
            ),
            failures.UNAVAILABLE,
        ),
        (asyncpg.exceptions.ProtocolError("unexpected message"), failures.UNAVAILABLE),
        (asyncpg.exceptions.OutdatedSchemaCacheError("cached plan"), failures.UNAVAILABLE),
        (asyncpg.InterfaceError("connection is closed"), failures.UNAVAILABLE),
        (_wrapped(asyncpg.InternalClientError("any text at all")), failures.UNAVAILABLE),
        (sa_exc.InterfaceError("SELECT 1", {}, Exception("closed")), failures.UNAVAILABLE),
        (sa_exc.DisconnectionError("closed while pooled"), failures.UNAVAILABLE),
        (BrokenPipeError(errno.EPIPE, "broken pipe"), failures.UNAVAILABLE),
        (ConnectionResetError(errno.ECONNRESET, "reset"), failures.UNAVAILABLE),
        # SQLSTATE classes: operator intervention, transaction rollback, system error.
        (asyncpg.exceptions.DatabaseDroppedError("dropped"), failures.UNAVAILABLE),
        (asyncpg.exceptions.CrashShutdownError("crash"), failures.UNAVAILABLE),
        (asyncpg.exceptions.SerializationError("retry"), failures.UNAVAILABLE),
        (asyncpg.exceptions.DeadlockDetectedError("deadlock"), failures.UNAVAILABLE),
        (asyncpg.exceptions.ClientCannotConnectError("refused"), failures.UNAVAILABLE),
        (asyncpg.exceptions.InvalidPasswordError("rotated"), failures.UNAVAILABLE),
        (asyncpg.exceptions.InvalidCatalogNameError("no such database"), failures.UNAVAILABLE),
        # A value asyncpg cannot encode for its column: the client-side twin of class 22.
        (
            asyncpg.exceptions._base.DataError("invalid input for query argument $1"),
            failures.UNSTORABLE,
        ),
    ],
)
def test_infrastructure_errors_map_to_stable_codes(
    error: Exception, expected: failures.Failure
) -> None:
    assert failures.classify(error) is expected


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.exceptions.UniqueViolationError("duplicate"),
        asyncpg.exceptions.PostgresSyntaxError("syntax"),
        asyncpg.exceptions.UndefinedColumnError("no such column"),
        sa_exc.InvalidRequestError("misuse of the session"),
        FileNotFoundError(errno.ENOENT, "missing"),
        ValueError("a bug"),
    ],
)
def test_other_errors_stay_defects(error: Exception) -> None:
    assert failures.classify(error) is None


@pytest.mark.parametrize(
    ("error", "broken"),
    [
        (asyncpg.InternalClientError("cannot switch to state 12"), True),
        (asyncpg.InterfaceError("connection is closed"), True),
        (asyncpg.exceptions.AdminShutdownError("terminating"), True),
        (asyncpg.exceptions.ConnectionDoesNotExistError("gone"), True),
        (ConnectionResetError(), True),
        (TimeoutError(), True),
        (asyncpg.exceptions._base.DataError("invalid input for query argument"), False),
        (asyncpg.exceptions.UniqueViolationError("duplicate"), False),
        (asyncpg.exceptions.QueryCanceledError("statement timeout"), False),
    ],
)
def test_a_connection_that_raised_a_driver_error_is_not_pooled_again(
    error: Exception, broken: bool
) -> None:
    assert connection_broken(error) is broken


def test_incidents_are_logged_once_per_interval_with_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="carevault.failures")
    log = failures.IncidentLog(interval=3600)
    for _ in range(50):
        log.record("database_unavailable", ConnectionRefusedError(), "/api/v1/clients")
    log.record("storage_full", asyncpg.exceptions.DiskFullError("x"), "/api/v1/clients")
    assert [r.code for r in caplog.records] == [  # type: ignore[attr-defined]
        "database_unavailable",
        "storage_full",
    ]
    assert all(r.exc_info is None for r in caplog.records)
    assert log.seen_within("database_unavailable", 60)
    assert not log.seen_within("database_timeout", 60)


def test_the_suppressed_count_is_reported_when_the_interval_has_passed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="carevault.failures")
    log = failures.IncidentLog(interval=0)
    log.record("database_timeout", TimeoutError(), "/r")
    log.interval = 3600
    log.record("database_timeout", TimeoutError(), "/r")
    log.record("database_timeout", TimeoutError(), "/r")
    log.interval = 0
    log.record("database_timeout", TimeoutError(), "/r")
    assert [r.suppressed for r in caplog.records] == [0, 2]  # type: ignore[attr-defined]


def test_every_database_limit_derives_from_the_request_deadline() -> None:
    limits = Deadlines(10.0)
    args = limits.connect_args()
    assert args["command_timeout"] == 6.0 and args["timeout"] == 2.5
    assert args["server_settings"] == {
        "statement_timeout": "5000",
        "idle_in_transaction_session_timeout": "10000",
    }
    # The client waits for a commit longer than the server may still accept it.
    assert limits.commit_fence < limits.command < limits.request
    assert limits.pool < limits.request


def test_a_key_refresh_is_overdue_after_two_intervals_and_the_grace() -> None:
    from datetime import UTC, datetime, timedelta

    from carevault.api.readiness import KEY_REFRESH_GRACE_SECONDS, _refresh_overdue

    now = datetime.now(UTC)
    limit = 2 * 300 + KEY_REFRESH_GRACE_SECONDS
    assert not _refresh_overdue(now - timedelta(seconds=limit - 10), 300)
    assert _refresh_overdue(now - timedelta(seconds=limit + 10), 300)
    assert not _refresh_overdue(None, 300)
