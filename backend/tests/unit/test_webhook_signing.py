"""The webhook signature and the SSRF policy, without a database: the signing half against
a vector computed here from the documented recipe, the client's verifying half against the
server's signing half, and which addresses the policy refuses."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import sys
from pathlib import Path

import pytest

from carevault.core.networks import parse_networks
from carevault.webhooks import signing
from carevault.webhooks.targets import TargetPolicy, TargetRefused, parse_target

CLIENT_ROOT = Path(__file__).resolve().parents[3] / "clients" / "python"
if str(CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(CLIENT_ROOT))

from carevault_client.webhooks import (  # noqa: E402
    WebhookSignatureError,
    verify_webhook_signature,
)

SECRET = "whsec_test"
BODY = b'{"id":"ev_1","type":"client.updated"}'


def test_the_signature_is_hmac_sha256_over_timestamp_dot_body() -> None:
    expected = hmac.new(b"whsec_test", b"1700000000." + BODY, hashlib.sha256).hexdigest()
    assert signing.signature_header(SECRET, 1700000000, BODY) == f"t=1700000000,v1={expected}"


def test_secrets_are_new_and_prefixed() -> None:
    first, second = signing.new_secret(), signing.new_secret()
    assert first.startswith("whsec_") and len(first) >= 48 and first != second


def test_the_clients_helper_accepts_what_the_server_signs_and_nothing_else() -> None:
    header = signing.signature_header(SECRET, 1700000000, BODY)
    assert verify_webhook_signature(BODY, header, SECRET, now=1700000100) == {
        "id": "ev_1",
        "type": "client.updated",
    }
    assert verify_webhook_signature(BODY.decode(), header, SECRET, now=1699999900)
    # Several v1 signatures: any one matching is enough.
    assert verify_webhook_signature(BODY, "v1=00," + header, SECRET, now=1700000000)
    refused = [
        (BODY + b" ", header, SECRET, 1700000000),  # altered body
        (BODY, header, "whsec_other", 1700000000),  # another secret
        (BODY, header, SECRET, 1700000301),  # replayed after the tolerance
        (BODY, header, SECRET, 1699999699),  # from the future beyond it
        (BODY, header.replace("t=1700000000", "t=1700000001"), SECRET, 1700000000),
        (BODY, "v1=" + header.split("v1=")[1], SECRET, 1700000000),  # no timestamp
        (BODY, "t=1700000000", SECRET, 1700000000),  # no signature
        (BODY, "t=soon,v1=ab", SECRET, 1700000000),
        (BODY, "", SECRET, 1700000000),
    ]
    for body, candidate, secret, now in refused:
        with pytest.raises(WebhookSignatureError):
            verify_webhook_signature(body, candidate, secret, now=now)


@pytest.mark.parametrize(
    "address",
    [
        "10.0.0.1",
        "172.16.5.4",
        "192.168.1.1",
        "127.0.0.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",  # noqa: S104 (an address refused, not bound)
        "224.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "fd12:3456::1",
        "ff02::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
        "64:ff9b::a00:1",
    ],
)
def test_the_policy_refuses_every_non_public_address(address: str) -> None:
    assert TargetPolicy().refusal(ipaddress.ip_address(address)) is not None


@pytest.mark.parametrize("address", ["93.184.215.14", "2606:2800:220:1:248:1893:25c8:1946"])
def test_the_policy_allows_public_addresses(address: str) -> None:
    assert TargetPolicy().refusal(ipaddress.ip_address(address)) is None


def test_the_allow_list_admits_its_networks_only() -> None:
    policy = TargetPolicy(parse_networks("10.20.0.0/16", "CAREVAULT_WEBHOOK_ALLOWED_NETWORKS"))
    assert policy.refusal(ipaddress.ip_address("10.20.3.4")) is None
    assert policy.refusal(ipaddress.ip_address("::ffff:10.20.3.4")) is None
    assert policy.refusal(ipaddress.ip_address("10.21.0.1")) is not None


def test_urls_with_credentials_or_other_schemes_are_refused() -> None:
    for url in (
        "ftp://a.example/",
        "https://u:p@a.example/",
        "https:///path",
        "https://a.example/#x",
    ):
        with pytest.raises(TargetRefused):
            parse_target(url)
    assert parse_target("https://a.example:8443/x?y=1").port == 8443
