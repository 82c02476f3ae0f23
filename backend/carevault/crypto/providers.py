"""Where the key ring lives: a local file or an environment variable.

AWS Secrets Manager is `carevault.crypto.aws` (imported only when used, so the core runs
without boto3)."""

from __future__ import annotations

import fcntl
import logging
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from carevault.crypto.errors import KeyRingError, KeyRingUnavailable
from carevault.crypto.keyring import KeyRing

log = logging.getLogger(__name__)


class KeyProvider(Protocol):
    """Loads and stores the whole ring. Called at start-up and by the background refresh."""

    @property
    def description(self) -> str: ...

    def load(self) -> KeyRing: ...

    def store(self, ring: KeyRing) -> None: ...

    def initialize(self, before_create: Callable[[], None] | None = None) -> tuple[KeyRing, bool]:
        """Load the ring, creating a new one if there is none; True if it was created.

        `before_create` runs once the provider knows it has no ring, just before it makes one;
        an exception from it stops the creation (`carevault keys init` refuses that way when
        the database holds data sealed under an earlier ring).
        """
        ...


class LocalFileProvider:
    """A JSON key-ring file for development, mode 0600.

    Loading never creates a ring: a missing file is an error, so a deleted file can never be
    silently replaced by a new ring under which old rows are unreadable. Only `initialize`
    (`carevault keys init`, and `carevault run` in development) creates one, under an
    exclusive lock and with O_EXCL, so processes starting together agree on one ring.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    @property
    def description(self) -> str:
        return f"local file {self.path}"

    def load(self) -> KeyRing:
        if not self.path.exists():
            raise KeyRingUnavailable(
                f"key-ring file {self.path} does not exist (`carevault keys init` creates it)"
            )
        mode = stat.S_IMODE(self.path.stat().st_mode)
        if mode & 0o077:
            log.warning(
                "key-ring file %s is readable by others (mode %o); chmod 600 it", self.path, mode
            )
        try:
            return KeyRing.from_json(self.path.read_bytes())
        except OSError as exc:
            raise KeyRingUnavailable(f"cannot read {self.path}: {exc.strerror}") from None

    def initialize(self, before_create: Callable[[], None] | None = None) -> tuple[KeyRing, bool]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock_path = self.path.with_name(self.path.name + ".lock")
        with open(lock_path, "a") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)  # released when the file closes
            if self.path.exists():
                return self.load(), False
            if before_create is not None:
                before_create()
            ring = KeyRing.generate()
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:  # created by a process that does not take the lock
                return self.load(), False
            with os.fdopen(fd, "w") as handle:
                handle.write(ring.to_json())
                handle.flush()
                os.fsync(handle.fileno())
        log.info("created a new key ring at %s", self.path)
        return ring, True

    def store(self, ring: KeyRing) -> None:
        """Write atomically: a reader sees the old ring or the new one, never half of one."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(dir=self.path.parent, prefix=".keyring-")
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(ring.to_json())
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp_name, self.path)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise


class EnvironmentProvider:
    """The ring as JSON in an environment variable; read-only, rotated by redeploying."""

    def __init__(self, document: str | None, variable: str = "CAREVAULT_KEYRING_JSON") -> None:
        self.document = document
        self.variable = variable

    @property
    def description(self) -> str:
        return f"environment variable {self.variable}"

    def load(self) -> KeyRing:
        if not self.document:
            raise KeyRingUnavailable(f"{self.variable} is not set")
        return KeyRing.from_json(self.document)

    def store(self, ring: KeyRing) -> None:
        raise KeyRingError(
            f"the environment provider is read-only: put the new ring in {self.variable} "
            "(for example from `carevault keys generate`) and restart"
        )

    def initialize(self, before_create: Callable[[], None] | None = None) -> tuple[KeyRing, bool]:
        return self.load(), False  # never creates: the ring comes with the environment
