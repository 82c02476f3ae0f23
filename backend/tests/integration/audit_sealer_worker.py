"""A sealer in its own process, for tests that kill it or run two at once.

python audit_sealer_worker.py URL KEY_HEX pause    one round, left uncommitted; waits
python audit_sealer_worker.py URL KEY_HEX loop N   N rounds; prints each round it led as
                                                   "led <start> <end>" (database clock)
"""

from __future__ import annotations

import asyncio
import sys

from sqlalchemy import text

from carevault.audit.sealing import SEALER_LOCK, seal_round
from carevault.db.engine import create_engine


async def main(url: str, key: bytes, mode: str, rounds: int) -> None:
    engine = create_engine(url, pool_size=1)
    try:
        if mode == "pause":
            async with engine.begin() as connection:
                result = await seal_round(connection, key, wait_for_lock=True)
                print(f"sealed-uncommitted {result.events}", flush=True)
                await asyncio.sleep(3600)  # killed here by the test
            return
        for _ in range(rounds):
            async with engine.begin() as connection:
                # Taken first (transaction locks are re-entrant) so that both timestamps fall
                # inside the span where this process holds the sealer lock.
                led = await connection.scalar(
                    text("SELECT pg_try_advisory_xact_lock(:a, :b)"),
                    {"a": SEALER_LOCK[0], "b": SEALER_LOCK[1]},
                )
                if not led:
                    continue
                started = await connection.scalar(
                    text("SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint")
                )
                result = await seal_round(connection, key, limit=50)
                ended = await connection.scalar(
                    text("SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint")
                )
            assert result.leader
            if result.leader:
                print(f"led|{started}|{ended}|{result.events}", flush=True)
            await asyncio.sleep(0.005)
    finally:
        await engine.dispose()


if __name__ == "__main__":
    asyncio.run(
        main(
            sys.argv[1],
            bytes.fromhex(sys.argv[2]),
            sys.argv[3],
            int(sys.argv[4]) if len(sys.argv) > 4 else 0,
        )
    )
