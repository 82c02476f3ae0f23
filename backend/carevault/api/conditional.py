"""HTTP conditional requests (RFC 9110): `ETag` on single-record answers, `If-Match` on
changes of one record, `If-None-Match` on reads. The one place routes get them from: a
route takes `IfMatch` or `IfNoneMatch` and calls `require` (before a change), `unchanged` (before a
read) and `tag` (on the record it answers with).

An entity tag names a version of a record, not its bytes: a digest of the record's id, its
`updated_at` and, for notes, its `version`. Every change of a client, appointment or note
(a save, a sign, a co-sign, an amendment, an archive, a delete or restore) writes
`updated_at`, so every change gives a new tag. The tags are strong (a strong comparison is
what `If-Match` needs); the JSON of one version is the same whenever it is read.

A `304 Not Modified` carries no body and writes no audit event: it discloses nothing the
caller was not given (and audited) before. It is answered only to a caller that may read
the record (the same chart-access rule as a read), so a tag cannot probe for records.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Request, Response
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.errors import ApiError
from carevault.appointments.models import Appointment
from carevault.auth.principal import Principal
from carevault.clients import access
from carevault.clients.models import Client
from carevault.core.versions import version_tag
from carevault.db.scoping import in_workspace
from carevault.notes.models import SessionNote

Versioned = type[Client] | type[Appointment] | type[SessionNote]


def etag(record_id: uuid.UUID, updated_at: datetime, version: int | None = None) -> str:
    """The strong entity tag of one version of a record (quoted, as the header carries it)."""
    # The same string is FHIR's `meta.versionId` (carevault.core.versions).
    return '"' + version_tag(record_id, updated_at, version) + '"'


def opaque(tag: str) -> str:
    """A tag without its quotes (and weakness): the version FHIR names it by."""
    return tag.removeprefix("W/").strip('"')


def etag_of(record: Any) -> str:
    """The tag of a client, appointment or note (an ORM instance or a row of its columns)."""
    return etag(record.id, record.updated_at, getattr(record, "version", None))


def etag_of_answer(body: Any) -> str | None:
    """The tag of a record answered as JSON (a create's remembered answer), or None when the
    answer is not one client, appointment or note (it has no `id` and `updated_at`)."""
    if not isinstance(body, dict):
        return None
    try:
        record_id = uuid.UUID(str(body["id"]))
        updated_at = datetime.fromisoformat(str(body["updated_at"]))
    except (KeyError, ValueError):
        return None
    version = body.get("version")
    return etag(record_id, updated_at, version if isinstance(version, int) else None)


def _tags(header: str) -> list[str]:
    return [tag.strip() for tag in header.split(",") if tag.strip()]


def matches_strongly(header: str, current: str) -> bool:
    """`If-Match`: `*` or a list of tags; a weak tag (`W/"…"`) never matches."""
    tags = _tags(header)
    return "*" in tags or current in tags


def matches_weakly(header: str, current: str) -> bool:
    """`If-None-Match`: `*` or a list of tags, compared without their weakness."""
    tags = [tag.removeprefix("W/") for tag in _tags(header)]
    return "*" in tags or current in tags


async def current_etag(
    db: AsyncSession,
    principal: Principal,
    model: Versioned,
    record_id: uuid.UUID,
    *,
    lock: bool,
    include_deleted: bool = False,
) -> str | None:
    """The record's current tag, or None when the caller cannot see it (the route then
    answers 404 as usual). Reads no encrypted column. With `lock`, the row stays locked
    until the transaction ends: a check of `If-Match` and the change it guards are one step
    (REST and FHIR alike), so no change slips in between."""
    columns = [model.id, model.updated_at]
    if model is SessionNote:
        columns.append(SessionNote.version)
    statement = access.charted(
        in_workspace(model, principal.workspace_id)
        .where(model.id == record_id)
        .with_only_columns(*columns),
        principal,
        model,
    )
    if model is SessionNote and not include_deleted:
        statement = statement.where(SessionNote.deleted_at.is_(None))
    if lock:
        statement = statement.with_for_update(of=model)  # held until the change commits
    row = (await db.execute(statement)).one_or_none()
    return None if row is None else etag_of(row)


class NotModified(Exception):
    """Answered as `304` with the tag and no body (the handler below); nothing was written."""

    def __init__(self, tag: str) -> None:
        super().__init__(tag)
        self.tag = tag


class Preconditions:
    """The request's conditional headers, and the `ETag` of its answer."""

    def __init__(self, response: Response, if_match: str | None, if_none_match: str | None) -> None:
        self._response = response
        self.if_match = if_match
        self.if_none_match = if_none_match

    def tag(self, record: Any) -> None:
        self._response.headers["ETag"] = etag_of(record)

    async def _current(
        self,
        db: AsyncSession,
        principal: Principal,
        model: Versioned,
        record_id: uuid.UUID,
        *,
        lock: bool,
        include_deleted: bool = False,
    ) -> str | None:
        return await current_etag(
            db, principal, model, record_id, lock=lock, include_deleted=include_deleted
        )

    async def require(
        self,
        db: AsyncSession,
        principal: Principal,
        model: Versioned,
        record_id: uuid.UUID,
        *,
        include_deleted: bool = False,
    ) -> None:
        """Before a change: 412 `precondition_failed` when `If-Match` names another version.
        The row stays locked until the change commits, so no change slips in between."""
        if self.if_match is None:
            return
        current = await self._current(
            db, principal, model, record_id, lock=True, include_deleted=include_deleted
        )
        if current is not None and not matches_strongly(self.if_match, current):
            raise ApiError(
                412,
                "precondition_failed",
                "the record changed since the version If-Match names; read it again",
                details={"current_etag": current},
            )

    async def unchanged(
        self, db: AsyncSession, principal: Principal, model: Versioned, record_id: uuid.UUID
    ) -> None:
        """Before a read: `304` (NotModified) when `If-None-Match` names the current version."""
        if self.if_none_match is None:
            return
        current = await self._current(db, principal, model, record_id, lock=False)
        if current is not None and matches_weakly(self.if_none_match, current):
            raise NotModified(current)


async def _on_change(
    response: Response,
    if_match: Annotated[
        str | None,
        Header(
            alias="If-Match",
            description="Change only if the record is still at this `ETag` (else 412 "
            "`precondition_failed`); optional",
        ),
    ] = None,
) -> Preconditions:
    return Preconditions(response, if_match, None)


async def _on_read(
    response: Response,
    if_none_match: Annotated[
        str | None,
        Header(
            alias="If-None-Match",
            description="304 with no body when the record is still at this `ETag`",
        ),
    ] = None,
) -> Preconditions:
    return Preconditions(response, None, if_none_match)


IfMatch = Annotated[Preconditions, Depends(_on_change)]
"""On a change of one record: `If-Match`, and the `ETag` of the record it answers with."""
IfNoneMatch = Annotated[Preconditions, Depends(_on_read)]
"""On a read of one record: `If-None-Match`, and the record's `ETag`."""


_ETAG_HEADER = {
    "ETag": {
        "description": "The record's version (a strong entity tag): send it back in "
        "`If-Match` to change the record only if unchanged, or `If-None-Match` to read it only "
        "if changed",
        "schema": {"type": "string"},
    }
}


def document_conditional_requests(document: dict[str, Any]) -> None:
    """In the OpenAPI document: the `ETag` header of every answer with one record (the
    operations taking `If-Match` or `If-None-Match`), and the `304` of those reading one."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
            if not headers & {"If-Match", "If-None-Match"}:
                continue
            responses = operation.setdefault("responses", {})
            for status in ("200", "201"):
                if "content" in responses.get(status, {}):
                    responses[status].setdefault("headers", {}).update(_ETAG_HEADER)
            if "If-None-Match" in headers:
                responses["304"] = {
                    "description": "Not Modified: the record is still at the `If-None-Match` "
                    "ETag (no body; not audited, as nothing is disclosed)",
                    "headers": _ETAG_HEADER,
                }


def install_not_modified_handler(app: FastAPI) -> None:
    async def not_modified(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, NotModified)
        return Response(status_code=304, headers={"ETag": exc.tag})

    app.add_exception_handler(NotModified, not_modified)
