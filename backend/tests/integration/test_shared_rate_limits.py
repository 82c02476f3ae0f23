"""Request limits shared through Redis (carevault.auth.rate_limit_redis, issue 27): two
limiters (two processes) and two running apps spend one budget, weighted, per credential
and per practice; Redis holds only hashed keys with TTLs; a Redis that is down or goes away
mid-run is answered by the in-process limiter (no error, a counted failure) and a Redis
that comes back is used again.

Against Redis on 127.0.0.1:6379: skipped when it does not answer, except in CI
(`CI=true`), where that is a failure. Each test's credentials and practices are new UUIDs,
so tests beside it on the same Redis do not share its budgets."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from carevault.auth import rate_limit_redis
from carevault.auth.models import Role
from carevault.auth.permissions import BULK_COST, READ_COST
from carevault.auth.rate_limit import RateLimiter
from carevault.auth.rate_limit_redis import KEY_PREFIX, RedisBackend, redis_key
from tests.support.db import NewDatabase
from tests.support.http import error_of, running_api
from tests.support.notes import practice
from tests.support.redis_server import free_port, redis_port, redis_url_or_skip


@pytest.fixture
def redis_url() -> str:
    return redis_url_or_skip("the shared rate-limit tests")


class RedisProxy:
    """A TCP relay on loopback in front of Redis that the test can take away (every
    connection cut, the port closed) and bring back on the same port."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.port = free_port()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def up(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)

    async def down(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()
        self._server = None

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(
            "127.0.0.1", self.upstream_port
        )
        self._writers |= {writer, upstream_writer}

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while chunk := await source.read(65536):
                    sink.write(chunk)
                    await sink.drain()
            sink.transport.abort()

        for task in (
            asyncio.create_task(pipe(reader, upstream_writer)),
            asyncio.create_task(pipe(upstream_reader, writer)),
        ):
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)


@asynccontextmanager
async def redis_client(url: str) -> AsyncIterator[object]:
    import redis.asyncio as redis

    client = redis.Redis.from_url(url)
    try:
        yield client
    finally:
        await client.aclose()


# --- the backend, two processes' worth --------------------------------------------------------


async def test_two_processes_spend_one_weighted_budget(redis_url: str) -> None:
    first, second = RedisBackend(redis_url), RedisBackend(redis_url)
    limiters = [RateLimiter(20, 1000, backend=first), RateLimiter(20, 1000, backend=second)]
    token, place = uuid.uuid4(), uuid.uuid4()
    try:
        admitted = []
        for number in range(12):
            quota = await limiters[number % 2].take("token", token, cost=2, practice=place)
            admitted.append(not quota.exceeded)
        # 20 units at 2 a request: 10 fit, whichever process counts them.
        assert admitted == [True] * 10 + [False] * 2
        refused = await limiters[0].take("token", token, cost=READ_COST, practice=place)
        assert refused.exceeded and refused.scope == "credential"
        assert 1 <= refused.reset_seconds <= 60
        assert refused.remaining == 0
        assert not first.failures and not second.failures
    finally:
        await first.close()
        await second.close()


async def test_a_practice_budget_binds_across_tokens_and_refusals_spend_nothing(
    redis_url: str,
) -> None:
    backend = RedisBackend(redis_url)
    limiter = RateLimiter(100, 12, backend=backend)
    place = uuid.uuid4()
    tokens = [uuid.uuid4() for _ in range(3)]
    try:
        spent = [await limiter.take("token", t, cost=BULK_COST, practice=place) for t in tokens]
        assert [q.exceeded for q in spent] == [False, False, True]
        assert spent[2].scope == "practice" and spent[2].limit == 12
        # The refused search spent nothing: two reads still fit the practice's 2 units left.
        reads = [await limiter.take("token", tokens[2], cost=1, practice=place) for _ in range(3)]
        assert [q.exceeded for q in reads] == [False, False, True]
        # A session is not counted against its practice.
        session = await limiter.take("session", uuid.uuid4(), cost=BULK_COST)
        assert not session.exceeded
    finally:
        await backend.close()


async def test_keys_are_hashed_and_expire(redis_url: str) -> None:
    backend = RedisBackend(redis_url)
    token, place = uuid.uuid4(), uuid.uuid4()
    try:
        await RateLimiter(600, 3000, backend=backend).take("token", token, practice=place)
        async with redis_client(redis_url) as client:
            keys = {
                key.decode()
                for key in await client.keys(f"{KEY_PREFIX}*")  # type: ignore[attr-defined]
            }
            ours = {redis_key(f"token:{token}"), redis_key(f"practice:{place}")}
            assert ours <= keys
            for key in ours:
                assert str(token) not in key and str(place) not in key
                assert str(token.hex) not in key and str(place.hex) not in key
                ttl = await client.ttl(key)  # type: ignore[attr-defined]
                assert 1 <= ttl <= 61, (key, ttl)
        assert redis_key(f"token:{token}").startswith(f"{KEY_PREFIX}token:")
        assert redis_key(f"practice:{place}").startswith(f"{KEY_PREFIX}practice:")
    finally:
        await backend.close()


async def test_redis_going_away_fails_open_per_process_then_shares_again(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    proxy = RedisProxy(redis_port(redis_url))
    await proxy.up()
    backend = RedisBackend(f"redis://127.0.0.1:{proxy.port}/0")
    backend.retry_seconds = 0.0  # try Redis on every request (the default waits a second)
    other = RedisBackend(redis_url)  # another process that still reaches Redis
    limiter, elsewhere = RateLimiter(4, backend=backend), RateLimiter(4, backend=other)
    token = uuid.uuid4()
    try:
        assert not (await limiter.take("token", token)).exceeded
        assert not (await elsewhere.take("token", token)).exceeded  # 2 of 4 used, shared
        await proxy.down()
        caplog.clear()
        # Redis gone: admitted by this process's own budget (4 more), never an exception.
        down = [await limiter.take("token", token) for _ in range(5)]
        assert [q.exceeded for q in down] == [False] * 4 + [True]
        assert backend.failures == 5 and not backend.shared
        warnings = [r for r in caplog.records if r.name == "carevault.rate_limit"]
        assert len(warnings) == 1, "one warning, not one per request"
        assert "127.0.0.1" not in warnings[0].getMessage()
        await proxy.up()
        # Back: the shared budget again (2 used before the outage, 2 left).
        back = [await limiter.take("token", token) for _ in range(3)]
        assert [q.exceeded for q in back] == [False, False, True]
        assert backend.shared and backend.failures == 5
    finally:
        with contextlib.suppress(AssertionError):
            await proxy.down()
        await backend.close()
        await other.close()


async def test_a_closed_port_never_fails_a_request(
    new_database: NewDatabase, data_dir: Path
) -> None:
    down = f"redis://127.0.0.1:{free_port()}/0"
    limits = {"redis_url": down, "api_rate_limit_per_minute": 3, "metrics_token": "scrape"}
    async with running_api(await new_database(), data_dir, **limits) as api:
        place = await practice(api, Role.CLINICIAN)
        async with api.signed_in(place.emails[0]) as client:
            answers = [await client.get("/auth/me") for _ in range(4)]
        async with api.client() as client:
            headers = {"Authorization": "Bearer scrape"}
            metrics = (await client.get("http://testserver/metrics", headers=headers)).text
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert error_of(answers[3])["code"] == "rate_limited"
    backend = api.app.state.carevault.rate_limiter.backend
    assert isinstance(backend, RedisBackend) and not backend.shared
    assert "carevault_rate_limit_redis_failures_total 4.0" in metrics
    assert "carevault_rate_limit_shared 0.0" in metrics


# --- two running apps -------------------------------------------------------------------------


async def test_two_apps_share_one_credential_budget(
    redis_url: str, new_database: NewDatabase, data_dir: Path
) -> None:
    url = await new_database()
    limits = {"redis_url": redis_url, "api_rate_limit_per_minute": 10}
    async with (
        running_api(url, data_dir, **limits) as one,
        running_api(url, data_dir, **limits) as two,
    ):
        place = await practice(one, Role.OWNER)
        async with one.with_token(place.emails[0]) as (on_one, _), two.client() as on_two:
            on_two.headers["Authorization"] = on_one.headers["Authorization"]
            apps = [on_one, on_two]
            answers = [await apps[n % 2].get("/clients") for n in range(12)]
    assert [a.status_code for a in answers] == [200] * 10 + [429] * 2
    assert [a.headers["RateLimit-Remaining"] for a in answers[:10]] == [
        str(9 - n) for n in range(10)
    ]
    for app_context in (one, two):
        assert isinstance(app_context.app.state.carevault.rate_limiter.backend, RedisBackend)


async def test_concurrent_requests_on_two_processes_never_overspend(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What is tested is the script's atomicity, not Redis's latency: on a busy machine 60
    # requests at once met the 0.25 s limit and fell back to counting in process.
    monkeypatch.setattr(rate_limit_redis, "TIMEOUT_SECONDS", 5.0)
    backends = [RedisBackend(redis_url), RedisBackend(redis_url)]
    limiters = [RateLimiter(25, backend=backend) for backend in backends]
    token = uuid.uuid4()
    try:
        quotas = await asyncio.gather(
            *(limiters[n % 2].take("token", token, cost=1) for n in range(60))
        )
        # The check and the spend are one script: no two requests take the same last unit.
        assert sum(not quota.exceeded for quota in quotas) == 25
        assert [backend.failures for backend in backends] == [0, 0]  # all counted in Redis
    finally:
        for backend in backends:
            await backend.close()


async def test_while_redis_is_down_one_request_probes_it_the_others_do_not_wait() -> None:
    backend = RedisBackend(f"redis://127.0.0.1:{free_port()}/0")
    backend.retry_seconds = 3600.0
    tried = 0
    real = backend._spend_shared

    async def counted(*args: object) -> object:
        nonlocal tried
        tried += 1
        return await real(*args)  # type: ignore[arg-type]

    backend._spend_shared = counted  # type: ignore[method-assign,assignment]
    limiter = RateLimiter(100, backend=backend)
    try:
        quotas = [await limiter.take("token", uuid.uuid4()) for _ in range(10)]
        assert not any(quota.exceeded for quota in quotas)
        assert tried == 1 and backend.failures == 10
        backend._retry_at = 0.0  # the retry interval has passed: ten requests at once
        quotas = await asyncio.gather(*(limiter.take("token", uuid.uuid4()) for _ in range(10)))
        assert not any(quota.exceeded for quota in quotas)
        assert tried == 2, "only one of them waits on Redis"
        assert not backend.shared and backend.failures == 20
    finally:
        await backend.close()


def test_without_a_redis_url_each_process_counts_its_own(tmp_path: Path) -> None:
    from carevault.api.state import rate_limit_backend
    from carevault.auth.rate_limit import InProcessBackend
    from carevault.config import Settings

    alone = rate_limit_backend(Settings(data_dir=tmp_path))
    shared = rate_limit_backend(Settings(data_dir=tmp_path, redis_url="redis://127.0.0.1:6379/0"))
    assert isinstance(alone, InProcessBackend)
    assert isinstance(shared, RedisBackend)
