"""What a running app does with a notice from another process (carevault.notifications)."""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy import make_url

from carevault.api.state import AppState
from carevault.config import Settings
from carevault.crypto import current_cipher
from carevault.db.pooler import Pooler, configured_pooler
from carevault.notifications import Kind, Notice, Notifier

log = logging.getLogger(__name__)


async def apply_notice(state: AppState, notice: Notice) -> None:
    """Drop what this process keeps that the notice made stale. Revocations need nothing
    here: every request reads its credential, user and practice from the database."""
    if notice.kind is Kind.SHRED and notice.workspace_id is not None:
        current_cipher().data_keys.forget(notice.workspace_id.bytes)
        if state.client_list_cache is not None:
            state.client_list_cache.drop(notice.workspace_id)
    elif notice.kind is Kind.KEY_ACTIVATED:
        # The provider is read off the event loop, as the refresh thread reads it.
        await asyncio.to_thread(state.key_manager.refresh)


def listen_dsn(settings: Settings, database_url: str) -> str | None:
    """Where LISTEN connects: CAREVAULT_NOTIFY_DATABASE_URL, else the database itself unless
    a transaction pooler is in between (which cannot carry LISTEN)."""
    url = settings.notify_database_url
    if url is None and configured_pooler() is Pooler.NONE:
        url = database_url
    if url is None:
        return None
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def start_notifier(state: AppState, database_url: str) -> Notifier | None:
    """Listen for notices when CAREVAULT_NOTIFICATIONS or CAREVAULT_REDIS_URL asks for it."""
    settings = state.settings
    if not (settings.notifications or settings.redis_url):
        return None
    dsn = listen_dsn(settings, database_url)
    if dsn is None and settings.redis_url is None:
        log.warning(
            "notifications: no direct database URL to LISTEN on behind a transaction pooler "
            "(set CAREVAULT_NOTIFY_DATABASE_URL or CAREVAULT_REDIS_URL); none are heard"
        )
        return None

    async def handle(notice: Notice) -> None:
        await apply_notice(state, notice)

    notifier = Notifier(
        engine=state.engine, handler=handle, listen_dsn=dsn, redis_url=settings.redis_url
    )
    notifier.start()
    return notifier
