"""Sign-in throttling that cannot be raced or turned into a lockout; client addresses from
trusted proxies only."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from carevault.auth import passwords, tokens
from carevault.auth import service as auth_service
from carevault.auth.models import Role
from carevault.workspaces import service as workspace_service
from tests.support.db import NewDatabase, sql
from tests.support.http import PASSWORD, ApiContext, running_api


@pytest.fixture
def argon2_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts password verifications (argon2 runs) at sign-in."""
    calls: list[str] = []
    real: Callable[[str, str], bool] = passwords.verify_password

    def counting(password_hash: str, password: str) -> bool:
        calls.append(password)
        return real(password_hash, password)

    monkeypatch.setattr(auth_service, "verify_password", counting)
    return calls


async def age_attempts(api: ApiContext, seconds: int) -> None:
    """Let time pass for the throttle: move every recorded attempt into the past."""
    await sql(api, f"UPDATE login_attempts SET at = at - interval '{seconds} seconds'")


async def test_twelve_concurrent_wrong_guesses_run_argon2_at_most_five_times(
    api: ApiContext, argon2_calls: list[str]
) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.client() as client:
        answers = await asyncio.gather(
            *(
                client.post("/auth/login", json={"email": email, "password": f"guess {n}"})
                for n in range(12)
            )
        )
    statuses = sorted(a.status_code for a in answers)
    verified = len(argon2_calls) // auth_service.SIGN_IN_HASH_CHECKS
    assert 1 <= verified <= 5, statuses
    assert statuses == [401] * verified + [429] * (12 - verified)
    assert all(int(a.headers["Retry-After"]) > 0 for a in answers if a.status_code == 429)
    recorded = await sql(api, "SELECT outcome FROM login_attempts")
    assert [r["outcome"] for r in recorded] == ["failed"] * verified


async def test_the_real_user_gets_in_after_a_short_wait_and_guessing_slows_down(
    api: ApiContext, argon2_calls: list[str]
) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.client() as stranger:
        for _ in range(5):
            answer = await stranger.post("/auth/login", json={"email": email, "password": "no"})
            assert answer.status_code == 401
        refused = await stranger.post("/auth/login", json={"email": email, "password": "no"})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) <= 31
        await age_attempts(api, 31)
        assert (
            await stranger.post("/auth/login", json={"email": email, "password": "no"})
        ).status_code == 401
        # Each further failure doubles the wait.
        doubled = await stranger.post("/auth/login", json={"email": email, "password": "no"})
        assert doubled.status_code == 429 and 31 < int(doubled.headers["Retry-After"]) <= 61
        assert len(argon2_calls) == 6 * auth_service.SIGN_IN_HASH_CHECKS
        await age_attempts(api, 61)
    async with api.client() as user:
        signed_in = await user.post("/auth/login", json={"email": email, "password": PASSWORD})
    assert signed_in.status_code == 200


async def test_a_browser_that_signed_in_before_is_not_locked_out_by_a_stranger(
    api: ApiContext,
) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as usual_browser:
        assert "carevault_device" in usual_browser.cookies
        await usual_browser.post("/auth/logout")
        async with api.client() as stranger:
            for _ in range(8):
                await stranger.post("/auth/login", json={"email": email, "password": "guess"})
            locked = await stranger.post("/auth/login", json={"email": email, "password": PASSWORD})
            assert locked.status_code == 429
        again = await usual_browser.post("/auth/login", json={"email": email, "password": PASSWORD})
    assert again.status_code == 200


async def test_a_forged_device_cookie_gets_no_bucket_of_its_own(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.client() as stranger:
        for n in range(5):
            stranger.cookies.set("carevault_device", f"made-up-{n}", path="/api/v1/auth/login")
            await stranger.post("/auth/login", json={"email": email, "password": "guess"})
        stranger.cookies.set("carevault_device", "made-up-again", path="/api/v1/auth/login")
        refused = await stranger.post("/auth/login", json={"email": email, "password": "guess"})
    assert refused.status_code == 429


async def test_throttled_sign_ins_are_tallied_not_written_to_the_chain_one_by_one(
    api: ApiContext,
) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.client() as stranger:
        for _ in range(5):
            await stranger.post("/auth/login", json={"email": email, "password": "guess"})
        for _ in range(15):
            refused = await stranger.post("/auth/login", json={"email": email, "password": "x"})
            assert refused.status_code == 429
    actions = [r["action"] for r in await sql(api, "SELECT action FROM audit_events")]
    assert actions.count("auth.login_throttled") == 1
    assert len(actions) == 5 + 1
    tallies = await sql(api, "SELECT refused FROM login_throttle_tallies")
    assert [t["refused"] for t in tallies] == [15]


async def test_unknown_emails_are_throttled_the_same_way(api: ApiContext) -> None:
    async with api.client() as stranger:
        answers = [
            (await stranger.post("/auth/login", json={"email": "no@one.test", "password": "x"}))
            for _ in range(6)
        ]
    assert [a.status_code for a in answers] == [401] * 5 + [429]


async def test_forwarded_addresses_count_only_from_trusted_proxies(
    new_database: NewDatabase, data_dir: Path
) -> None:
    # The test client connects from 203.0.113.7.
    async with running_api(
        await new_database(), data_dir, trusted_proxies="203.0.113.0/28, 10.0.0.1"
    ) as api:
        _, (email,) = await api.workspace_with_users(None, Role.OWNER)
        async with api.client() as client:
            headers = {"X-Forwarded-For": "192.0.2.50, 198.51.100.9, 10.0.0.1"}
            await client.post(
                "/auth/login", json={"email": email, "password": "wrong"}, headers=headers
            )
            garbled = await client.post(
                "/auth/login",
                json={"email": email, "password": PASSWORD},
                headers={"X-Forwarded-For": "unknown, _hidden"},
            )
            assert garbled.status_code == 200  # a non-IP from a trusted proxy breaks nothing
            client.headers["X-CSRF-Token"] = garbled.json()["csrf_token"]
            me = await client.get("/auth/me", headers={"X-Forwarded-For": "not an address"})
            assert me.status_code == 200
        rows = await sql(api, "SELECT action, ip_address::text AS ip FROM audit_events ORDER BY id")
    # The rightmost address not of our proxies; a garbled header falls back to the peer.
    assert [(r["action"], r["ip"]) for r in rows] == [
        ("auth.login_failed", "198.51.100.9/32"),
        ("auth.login", "203.0.113.7/32"),
    ]


async def test_forwarded_headers_from_anyone_else_are_ignored(api: ApiContext) -> None:
    assert api.settings.trusted_proxies == ""
    async with api.client() as client:
        for n in range(20):
            await client.post(
                "/auth/login",
                json={"email": f"guess{n}@example.test", "password": "x"},
                headers={"X-Forwarded-For": f"198.51.100.{n}"},
            )
        refused = await client.post(
            "/auth/login",
            json={"email": "another@example.test", "password": "x"},
            headers={"X-Forwarded-For": "198.51.100.200"},
        )
    assert refused.status_code == 429  # one address: the peer's; the header changed nothing
    ips = {r["ip"] for r in await sql(api, "SELECT ip_address::text AS ip FROM audit_events")}
    assert ips == {"203.0.113.7/32"}


async def test_clients_behind_a_trusted_proxy_do_not_share_one_address_bucket(
    new_database: NewDatabase, data_dir: Path
) -> None:
    async with running_api(await new_database(), data_dir, trusted_proxies="203.0.113.7") as api:
        _, (email,) = await api.workspace_with_users(None, Role.OWNER)
        async with api.client() as proxy:
            for n in range(20):
                await proxy.post(
                    "/auth/login",
                    json={"email": f"guess{n}@example.test", "password": "x"},
                    headers={"X-Forwarded-For": "198.51.100.66"},
                )
            attacker = await proxy.post(
                "/auth/login",
                json={"email": "one-more@example.test", "password": "x"},
                headers={"X-Forwarded-For": "198.51.100.66"},
            )
            colleague = await proxy.post(
                "/auth/login",
                json={"email": email, "password": PASSWORD},
                headers={"X-Forwarded-For": "198.51.100.67"},
            )
    assert attacker.status_code == 429
    assert colleague.status_code == 200


async def test_ipv6_addresses_are_counted_per_64_and_mapped_ipv4_as_ipv4(
    new_database: NewDatabase, data_dir: Path
) -> None:
    """A host holds a whole /64: a new address for every guess must not mean a new budget."""
    async with running_api(await new_database(), data_dir, trusted_proxies="203.0.113.7") as api:
        _, (email,) = await api.workspace_with_users(None, Role.OWNER)

        async def sign_in(address: str, who: str, password: str = "wrong") -> int:  # noqa: S107
            answer = await proxy.post(
                "/auth/login",
                json={"email": who, "password": password},
                headers={"X-Forwarded-For": address},
            )
            return answer.status_code

        async with api.client() as proxy:
            for n in range(20):
                assert await sign_in(f"2001:db8:1:2::{n + 1:x}", f"guess{n}@example.test") == 401
            same_64 = await sign_in("2001:db8:1:2:ffff:1:2:3", "one-more@example.test")
            next_64 = await sign_in("2001:db8:1:3::1", email, PASSWORD)
            for n in range(20):
                await sign_in(f"::ffff:198.51.100.{n}", f"v4-{n}@example.test")
            mapped = await sign_in("::ffff:198.51.100.77", "v4-more@example.test")
            for n in range(20):
                await sign_in("198.51.100.80", f"plain-{n}@example.test")
            as_mapped = await sign_in("::ffff:198.51.100.80", "plain-more@example.test")
        stored = await sql(api, "SELECT DISTINCT ip_address FROM login_attempts")
    assert same_64 == 429
    assert next_64 == 200  # the neighbouring /64 is another host's
    assert mapped == 401  # twenty IPv4 addresses, one try each: not one bucket
    assert as_mapped == 429  # the IPv4 address, however it is written
    assert "2001:db8:1:2::/64" in {r["ip_address"] for r in stored}


def test_an_invalid_trusted_proxy_setting_is_refused(data_dir: Path) -> None:
    from pydantic import ValidationError

    from carevault.config import Settings

    with pytest.raises(ValidationError, match="not an IP address or CIDR"):
        Settings(data_dir=data_dir, trusted_proxies="10.0.0.0/8, proxy.internal")


async def test_expired_attempts_and_tallies_of_every_bucket_are_cleared_by_later_sign_ins(
    api: ApiContext,
) -> None:
    """Guesses at random emails leave rows in buckets that are never visited again; admitted
    checks clear them a batch at a time, so neither table grows without bound."""
    await sql(
        api,
        "INSERT INTO login_attempts (id, bucket, ip_address, at, outcome) "
        "SELECT gen_random_uuid(), sha256(n::text::bytea), '198.51.100.7', "
        "now() - interval '2 days', 'failed' FROM generate_series(1, 150) AS n",
    )
    await sql(
        api,
        "INSERT INTO login_throttle_tallies (email_key, hour, refused) "
        "SELECT sha256(n::text::bytea), date_trunc('hour', now()) - interval '40 days', 3 "
        "FROM generate_series(1, 150) AS n",
    )
    await sql(
        api,
        "INSERT INTO login_throttle_tallies (email_key, hour, refused) "
        "VALUES (sha256('recent'::bytea), date_trunc('hour', now()), 1)",
    )
    async with api.client() as stranger:
        first = await stranger.post("/auth/login", json={"email": "a@one.test", "password": "x"})
        assert first.status_code == 401
        (left,) = await sql(
            api, "SELECT count(*) AS n FROM login_attempts WHERE at < now() - interval '1 day'"
        )
        assert left["n"] == 50
        await stranger.post("/auth/login", json={"email": "b@one.test", "password": "x"})
    expired = await sql(
        api, "SELECT count(*) AS n FROM login_attempts WHERE at < now() - interval '1 day'"
    )
    assert expired[0]["n"] == 0
    assert len(await sql(api, "SELECT 1 FROM login_attempts")) == 2  # the two new attempts
    tallies = await sql(api, "SELECT refused FROM login_throttle_tallies")
    assert [t["refused"] for t in tallies] == [1]


async def test_a_sign_in_verifies_as_many_hashes_for_an_address_in_two_practices_as_in_none(
    api: ApiContext, argon2_calls: list[str]
) -> None:
    """Timing must not tell how many practices know an address: the same number of argon2
    verifications for none, one and two accounts (counted, not timed), right or wrong."""
    space_a, (clinician,) = await api.workspace_with_users(None, Role.CLINICIAN)
    _, (single,) = await api.workspace_with_users(None, Role.CLINICIAN)
    other_password = "the other practice's password"
    async with api.sessions() as db, db.begin():
        space_b = await workspace_service.create(db, "Second practice")
        await auth_service.create_user(
            db, space_b, email=clinician.upper(), password=other_password, role=Role.CLINICIAN
        )
    counts: dict[str, int] = {}
    async with api.client() as client:
        for label, email, password, opens in (
            ("none, wrong", "nobody@example.test", "wrong password", None),
            ("one, wrong", single, "wrong password", None),
            ("two, wrong", clinician, "wrong password", None),
            ("one, right", single, PASSWORD, "any"),
            ("two, the first's", clinician, PASSWORD, str(space_a.id)),
            ("two, the second's", clinician, other_password, str(space_b.id)),
        ):
            before = len(argon2_calls)
            answer = await client.post("/auth/login", json={"email": email, "password": password})
            counts[label] = len(argon2_calls) - before
            assert answer.status_code == (401 if opens is None else 200), (label, answer.text)
            if opens is not None and opens != "any":
                assert answer.json()["workspace"]["id"] == opens, label
            client.cookies.clear()
    assert set(counts.values()) == {auth_service.SIGN_IN_HASH_CHECKS}, counts


async def test_an_address_in_three_practices_is_checked_against_two_accounts_at_most(
    api: ApiContext, argon2_calls: list[str]
) -> None:
    """The fixed work has a price: the two oldest accounts are checked, or the oldest and
    the one this browser signed in to before (its trusted-device cookie)."""
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    passwords_by_space = {}
    for n in (2, 3):  # one transaction each: created_at (now()) orders them
        async with api.sessions() as db, db.begin():
            space = await workspace_service.create(db, f"Practice number {n}")
            password = f"the password of practice {n}"
            user = await auth_service.create_user(
                db, space, email=email, password=password, role=Role.CLINICIAN
            )
            passwords_by_space[n] = (str(space.id), str(user.id), password)
    third_space, third_user, third_password = passwords_by_space[3]
    async with api.client() as browser:
        second = await browser.post(
            "/auth/login", json={"email": email, "password": passwords_by_space[2][2]}
        )
        browser.cookies.clear()
        third = await browser.post("/auth/login", json={"email": email, "password": third_password})
    assert second.status_code == 200 and third.status_code == 401
    # A browser that signed in to the third account before still reaches it.
    await sql(
        api,
        "INSERT INTO trusted_devices (id, workspace_id, user_id, secret_hash, created_at, "
        "last_used_at) VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, now(), now())",
        third_space,
        third_user,
        tokens.digest("the third account's browser"),
    )
    before = len(argon2_calls)
    async with api.client() as usual:
        usual.cookies.set(
            "carevault_device", "the third account's browser", path="/api/v1/auth/login"
        )
        again = await usual.post("/auth/login", json={"email": email, "password": third_password})
        first = await usual.post("/auth/login", json={"email": email, "password": PASSWORD})
    assert again.status_code == 200 and again.json()["workspace"]["id"] == third_space
    assert first.status_code == 200  # the oldest account stays reachable from it too
    assert len(argon2_calls) - before == 2 * auth_service.SIGN_IN_HASH_CHECKS
