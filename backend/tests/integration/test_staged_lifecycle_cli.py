"""The runbook's CLI steps on a staged rotation, after the pending version activated by
itself (its `activate_after` passed; the ring document still names the old version active,
because nothing rewrites it at that moment)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncEngine

from carevault.crypto import LocalFileProvider
from tests.support.cli import invoke
from tests.support.db import RingHolder
from tests.support.keys import headers, read_last_names, seed


async def test_retire_works_once_a_staged_version_activated_by_itself(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    _url, engine, holder, ring_file = world
    workspace_id, names = await seed(engine, 5)
    passed = datetime.now(UTC).replace(microsecond=0) - timedelta(seconds=1)
    staged = holder.ring.rotated(activate_after=passed)
    LocalFileProvider(ring_file).store(staged)
    holder.ring = staged
    assert staged.active_version == 1 and staged.encryption_version() == 2

    result = await invoke(["reencrypt"])
    assert result.exit_code == 0, result.output
    assert set(await headers(engine)) == {(0x03, 2)}
    refused = await invoke(["keys", "retire", "2", "--yes"])
    assert refused.exit_code == 2 and "cannot be retired" in refused.output

    retired = await invoke(["keys", "retire", "1", "--yes"])
    assert retired.exit_code == 0, retired.output
    ring = LocalFileProvider(ring_file).load()
    assert ring.active_version == 2 and ring.pending_version is None
    assert ring.keys[1].retired and ring.keys[1].material is None
    holder.ring = ring
    assert await read_last_names(engine, workspace_id) == names
