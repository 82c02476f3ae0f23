"""Keeps the current key ring in memory and refreshes it in a background thread.

Nothing on the request path ever calls the provider: readers take `manager.ring`, a plain
attribute holding an immutable snapshot. When a refresh fails the last good ring keeps
serving and the failure is recorded for /health/ready.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

from carevault.crypto.errors import KeyRingError
from carevault.crypto.keyring import KeyRing
from carevault.crypto.providers import KeyProvider

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class KeyRingStatus:
    source: str
    loaded: bool
    active_version: int | None
    active_created_at: datetime | None
    versions: dict[int, str]
    last_refresh_at: datetime | None
    last_success_at: datetime | None
    last_error: str | None
    consecutive_failures: int
    ttl_seconds: float
    pending_version: int | None = None
    pending_activate_after: datetime | None = None
    # Why the last refreshed ring was refused (it would have stranded data), if it was.
    refused_reason: str | None = None
    created_at: dict[int, datetime] = field(default_factory=dict)

    @property
    def active_age_seconds(self) -> float | None:
        if self.active_created_at is None:
            return None
        return (datetime.now(UTC) - self.active_created_at).total_seconds()


# A read that meets a version this process lacks reloads the ring at most this often.
MISS_REFRESH_INTERVAL_SECONDS = 5.0


class KeyRingManager:
    def __init__(self, provider: KeyProvider, ttl_seconds: float) -> None:
        if ttl_seconds <= 0:
            raise ValueError("the key cache TTL must be positive")
        self.provider = provider
        self.ttl_seconds = ttl_seconds
        self._ring: KeyRing | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_refresh_at: datetime | None = None
        self._last_success_at: datetime | None = None
        self._last_error: str | None = None
        self._failures = 0
        self._refused: str | None = None
        self._last_miss_refresh = float("-inf")

    @property
    def ring(self) -> KeyRing:
        ring = self._ring
        if ring is None:
            raise KeyRingError("the key ring has not been loaded")
        return ring

    def load(self) -> KeyRing:
        """The first load: errors propagate, so a start without keys fails loudly."""
        ring = self.provider.load()
        self._accept(ring)
        return ring

    def refresh(self) -> bool:
        """Reload from the provider; on failure keep the cached ring and record why."""
        try:
            ring = self.provider.load()
        except KeyRingError as exc:
            self._record_failure(str(exc))
            return False
        except Exception as exc:  # a refresh thread must never die silently
            self._record_failure(f"unexpected {type(exc).__name__}")
            return False
        return self._accept(ring)

    def refresh_after_miss(self) -> bool:
        """An immediate refresh because a value named a version this ring lacks; at most one
        per MISS_REFRESH_INTERVAL_SECONDS. True when the ring changed."""
        with self._lock:
            now = time.monotonic()
            if now - self._last_miss_refresh < MISS_REFRESH_INTERVAL_SECONDS:
                return False
            self._last_miss_refresh = now
        before = self._ring
        log.warning("a stored value names a key version this process lacks; refreshing now")
        return self.refresh() and self._ring is not before

    def start(self) -> None:
        """Load now (raising on failure), then refresh every TTL in a daemon thread."""
        if self._ring is None:
            self.load()
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(
                target=self._refresh_loop, name="carevault-keyring-refresh", daemon=True
            )
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def status(self) -> KeyRingStatus:
        ring = self._ring
        pending = ring.pending if ring else None
        return KeyRingStatus(
            source=self.provider.description,
            loaded=ring is not None,
            active_version=ring.encryption_version() if ring else None,
            active_created_at=ring.keys[ring.encryption_version()].created_at if ring else None,
            versions={version: ring.state_of(version) for version in sorted(ring.keys)}
            if ring
            else {},
            last_refresh_at=self._last_refresh_at,
            last_success_at=self._last_success_at,
            last_error=self._last_error,
            consecutive_failures=self._failures,
            ttl_seconds=self.ttl_seconds,
            pending_version=pending.version
            if pending and ring and ring.encryption_version() != pending.version
            else None,
            pending_activate_after=pending.activate_after
            if pending and ring and ring.encryption_version() != pending.version
            else None,
            refused_reason=self._refused,
            created_at={v: k.created_at for v, k in ring.keys.items()} if ring else {},
        )

    def _refresh_loop(self) -> None:
        while not self._stop.wait(self.ttl_seconds):
            self.refresh()

    def _accept(self, ring: KeyRing) -> bool:
        previous = self._ring
        if previous is not None:
            try:
                previous.check_successor(ring)
            except KeyRingError as refused:
                # Serving the old ring keeps every row readable; the operator must look.
                self._refused = str(refused)
                self._record_failure(f"refused the refreshed key ring: {refused}")
                return False
        with self._lock:
            self._refused = None
            self._ring = ring
            now = datetime.now(UTC)
            self._last_refresh_at = self._last_success_at = now
            self._last_error = None
            self._failures = 0
        if previous is not None and previous.pending_version != ring.pending_version:
            log.info("pending key version is now %s", ring.pending_version)
        return True

    def _record_failure(self, reason: str) -> None:
        with self._lock:
            self._last_refresh_at = datetime.now(UTC)
            self._last_error = reason
            self._failures += 1
        log.warning("key ring refresh failed, still serving the cached ring: %s", reason)
