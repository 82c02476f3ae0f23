"""What a domain refuses, and why, without HTTP.

Services raise these with a stable machine-readable `code` (the same codes the API answers
with) and a `message` for people; neither ever carries PHI or key material. The web layer
maps each kind to an HTTP status in one table (carevault.api.errors.DOMAIN_STATUS); nothing
here knows about status codes, so the domains can be called from the CLI, jobs and tests
alike.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """An expected refusal: `code` for programs, `message` for people, `details` JSON-ready
    (for example the fields at fault, or the current version of a record). Raise one of the
    kinds below, never this base: the kind is what decides the answer."""

    def __init__(self, code: str, message: str, *, details: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


class NotFound(DomainError):
    """No such record, or one of another practice (never said which)."""


class Conflict(DomainError):
    """The request clashes with the current state: a stale version, an overlap."""


class Forbidden(DomainError):
    """The caller may not do this, though the record exists and saying so is allowed: a
    co-signature by the note's own author, a chart outside the care team that
    break-the-glass may open."""


class Gone(DomainError):
    """The data existed and is no longer there (a shredded practice)."""


class Invalid(DomainError):
    """A value the rules refuse; `details` names the fields (see core.fields.invalid)."""


def not_found(what: str) -> NotFound:
    """The one wording of a missing record: `what` is a kind ("client"), never a value."""
    return NotFound("not_found", f"{what} not found")
