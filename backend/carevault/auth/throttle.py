"""Password-guessing throttle with progressive delays.

Every password check first takes a per-bucket advisory lock, decides whether the check may
run, and if so inserts a `pending` attempt row and commits, all before argon2 runs.
Concurrent guesses therefore see each other: the sixth of twelve simultaneous guesses
already counts five. The request's transaction later marks the row `failed` or
`succeeded`; a request that dies in between leaves it `pending`, which counts as a failure.

There is no hard lockout. The first FREE_FAILURES failures in a bucket cost nothing; after
that each check must wait FIRST_DELAY after the bucket's latest attempt, doubling with every
further failure up to MAX_DELAY. A user who mistypes waits half a minute; a guesser gets
about 100 checks a day per account. A success resets the bucket.

Refused checks write no attempt row (spamming cannot extend the wait) and no per-refusal
audit row: they are tallied per email and hour, with one audit event per account and hour.

Neither table grows without bound under guesses at random emails: every admitted check also
deletes a bounded batch of rows that no longer count for anyone (attempts past the counting
window, tallies past their retention), so deletion keeps pace with insertion.
"""

from __future__ import annotations

import hashlib
import ipaddress
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.audit import service as audit
from carevault.auth.models import LoginAttempt, LoginThrottleTally
from carevault.core.clock import utc_now
from carevault.db.housekeeping import delete_batch

FREE_FAILURES = 5
FIRST_DELAY = timedelta(seconds=30)
MAX_DELAY = timedelta(minutes=15)
COUNT_WINDOW = timedelta(hours=24)
ADDRESS_WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_ADDRESS = 20
TALLY_RETENTION = timedelta(days=30)
# Expired rows deleted per admitted check: more than one check can add, so the tables shrink
# back to their windows, and few enough that a sign-in never does a long delete.
HOUSEKEEPING_BATCH = 100

# Two-integer advisory locks live in a key space apart from the audit chain's bigint locks.
_LOCK_CLASS = 0x4356_4C47  # "CVLG"


def required_wait(failures: int) -> timedelta:
    """How long after the latest attempt the next check may run, given the failures so far."""
    if failures < FREE_FAILURES:
        return timedelta(0)
    doublings = min(failures - FREE_FAILURES, 16)  # 30 s · 2**16 is far past the cap
    wait: timedelta = min(FIRST_DELAY * 2**doublings, MAX_DELAY)
    return wait


def address_key(ip: str) -> str:
    """What the per-address limit counts under: an IPv4 address as it is, an IPv6 address by
    its /64 (one subscriber or LAN usually holds a whole /64, so counting each address would
    give it unlimited tries), an IPv4-mapped IPv6 address as the IPv4 address."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip  # not an address (a test client's name): counted as given
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def bucket_key(*parts: str) -> bytes:
    return hashlib.sha256("\x1f".join(("carevault/throttle", *parts)).encode()).digest()


def _lock_id(value: bytes) -> int:
    return int.from_bytes(hashlib.sha256(value).digest()[:4], "big", signed=True)


@dataclass(frozen=True)
class Allowed:
    attempt_id: uuid.UUID


@dataclass(frozen=True)
class Refused:
    retry_after_seconds: int


@dataclass(frozen=True)
class Subject:
    """Whom a check is for, for the tally and the hourly audit event; no PHI."""

    email_key: bytes
    workspace_id: uuid.UUID | None = None
    user_id: uuid.UUID | None = None


async def _lock(db: AsyncSession, value: bytes) -> None:
    await db.execute(select(func.pg_advisory_xact_lock(_LOCK_CLASS, _lock_id(value))))


async def _bucket_wait(db: AsyncSession, bucket: bytes, now: datetime) -> timedelta:
    last_success = await db.scalar(
        select(func.max(LoginAttempt.at)).where(
            LoginAttempt.bucket == bucket, LoginAttempt.outcome == "succeeded"
        )
    )
    since = max(now - COUNT_WINDOW, last_success) if last_success else now - COUNT_WINDOW
    failures, latest = (
        await db.execute(
            select(func.count(), func.max(LoginAttempt.at)).where(
                LoginAttempt.bucket == bucket,
                LoginAttempt.outcome != "succeeded",
                LoginAttempt.at > since,
            )
        )
    ).one()
    if latest is None:
        return timedelta(0)
    return latest + required_wait(int(failures)) - now


async def _address_wait(db: AsyncSession, address: str, now: datetime) -> timedelta:
    failures, oldest = (
        await db.execute(
            select(func.count(), func.min(LoginAttempt.at)).where(
                LoginAttempt.ip_address == address,
                LoginAttempt.outcome != "succeeded",
                LoginAttempt.at > now - ADDRESS_WINDOW,
            )
        )
    ).one()
    if failures < MAX_FAILURES_PER_ADDRESS:
        return timedelta(0)
    return oldest + ADDRESS_WINDOW - now


async def _tally_refusal(db: AsyncSession, subject: Subject, ip: str | None, now: datetime) -> None:
    hour = now.replace(minute=0, second=0, microsecond=0)
    statement = (
        insert(LoginThrottleTally)
        .values(email_key=subject.email_key, hour=hour, refused=1)
        .on_conflict_do_update(
            index_elements=["email_key", "hour"],
            set_={"refused": LoginThrottleTally.refused + 1},
        )
        .returning(LoginThrottleTally.refused)
    )
    refused = (await db.execute(statement)).scalar_one()
    if refused == 1 and subject.workspace_id is not None:
        # One event when an account starts being throttled in an hour; the count is tallied.
        await audit.record(
            db,
            audit.Actor(subject.workspace_id, ip_address=ip),
            "auth.login_throttled",
            resource_type="user",
            resource_ids=[subject.user_id] if subject.user_id else None,
            details={"hour": hour.isoformat()},
        )


async def begin(
    db: AsyncSession,
    bucket: bytes,
    subject: Subject,
    ip: str | None,
    *,
    check_address: bool,
) -> Allowed | Refused:
    """Decide whether a password check may run; if so, record it first. Commits the
    session's transaction either way (the attempt, or the tally, must stick), which also
    releases the lock: the caller continues in a new transaction on the same connection, so
    a burst of sign-ins never needs two pooled connections each."""
    address = address_key(ip) if check_address and ip else None
    await _lock(db, bucket)
    if address:
        await _lock(db, b"address:" + address.encode())  # always after the bucket lock
    now = utc_now()
    wait = await _bucket_wait(db, bucket, now)
    if address:
        wait = max(wait, await _address_wait(db, address, now))
    result: Allowed | Refused
    if wait > timedelta(0):
        await _tally_refusal(db, subject, ip, now)
        result = Refused(max(1, int(wait.total_seconds()) + 1))
    else:
        await _delete_expired(db, now)
        attempt = LoginAttempt(bucket=bucket, ip_address=address, at=now, outcome="pending")
        db.add(attempt)
        await db.flush()
        result = Allowed(attempt.id)
    await db.commit()
    return result


async def _delete_expired(db: AsyncSession, now: datetime) -> None:
    """Delete a bounded batch of attempts and tallies that no longer count for any bucket.
    Rows past COUNT_WINDOW are outside every window (the address window is shorter), so no
    bucket lock is needed to remove them."""
    await delete_batch(
        db, (LoginAttempt.id,), LoginAttempt.at < now - COUNT_WINDOW, HOUSEKEEPING_BATCH
    )
    await delete_batch(
        db,
        (LoginThrottleTally.email_key, LoginThrottleTally.hour),
        LoginThrottleTally.hour < now - TALLY_RETENTION,
        HOUSEKEEPING_BATCH,
    )


async def finish(db: AsyncSession, attempt_id: uuid.UUID, *, succeeded: bool) -> None:
    """Mark the attempt in the request's transaction (if that fails, it stays a failure)."""
    outcome = "succeeded" if succeeded else "failed"
    await db.execute(
        update(LoginAttempt).where(LoginAttempt.id == attempt_id).values(outcome=outcome)
    )
