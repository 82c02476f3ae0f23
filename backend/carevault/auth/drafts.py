"""The web UI's draft key: what the browser encrypts unsaved note text with before it keeps
it in its storage (frontend/src/notes/drafts.ts).

HMAC-SHA256 of the user's id under the practice's blind-index key, with a label of its own
(a blind index is an HMAC of `kind NUL scope NUL value`, whose kinds never look like this
label). So it is the same for every sign-in of the user (a draft kept before a sign-out is
readable after the next one), differs between users and practices, is never stored, and
goes with the practice's keys: shredding a practice makes its users' drafts unreadable.
Only login sessions get it (`POST /auth/login`, `GET /auth/me`), never API tokens.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import uuid

from sqlalchemy.ext.asyncio import AsyncSession

from carevault.crypto import DecryptionError, KeyRingError, PracticeBlindIndex, current_cipher
from carevault.workspaces.keys import WorkspaceShredded, load_workspace_keys

DRAFT_KEY_LABEL = b"carevault/browser-drafts/1\x00"


async def draft_key_for(
    db: AsyncSession, workspace_id: uuid.UUID, user_id: uuid.UUID
) -> str | None:
    """The user's draft key (base64url, 32 bytes), or None when the practice has no key of
    its own to derive it from (the UI then keeps unsaved text in memory only)."""
    try:
        await load_workspace_keys(db, workspace_id)
        practice_key = PracticeBlindIndex(current_cipher()).key_for(str(workspace_id))
    except (KeyRingError, DecryptionError, WorkspaceShredded):
        return None
    mac = hmac.new(practice_key, DRAFT_KEY_LABEL + user_id.bytes, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()
