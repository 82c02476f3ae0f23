"""Reads from the read replica, for the routes that may (carevault.db.replica).

`ReplicaReads` is the request's session, switched to read from the replica when the
router allows it; the credential is authenticated first (on the primary: a revoked token
or a shred must never be judged on a replica that has not replayed it). A route takes it
in place of `DbSession`; its audit event still goes to the primary in the same session. A
request presenting a write's position (`CareVault-Read-After`, or its cookie) reads from the
replica only once the replica has replayed it."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.dependencies import (
    REPLICA_ROUTE,
    app_state,
    get_db,
    request_credential,
    request_read_after,
)
from carevault.auth.dependencies import CurrentPrincipal
from carevault.db.routing import READ_BIND


async def replica_reads(request: Request, _principal: CurrentPrincipal) -> AsyncSession:
    db = await get_db(request)
    router = app_state(request).replica
    if router is not None:
        request.scope[REPLICA_ROUTE] = True
        bind = router.route(request_credential(request), request_read_after(request))
        if bind is not None:
            db.sync_session.info[READ_BIND] = bind
    return db


ReplicaReads = Annotated[AsyncSession, Depends(replica_reads)]
