"""Which client address a request gets, from its peer and X-Forwarded-For."""

from __future__ import annotations

import pytest

from carevault.api.proxies import forwarded_client
from carevault.core.networks import parse_networks

PROXIES = parse_networks("10.0.0.0/8, 2001:db8::1")


@pytest.mark.parametrize(
    ("peer", "forwarded", "expected"),
    [
        ("198.51.100.1", ["203.0.113.9"], "198.51.100.1"),  # not a proxy of ours: ignored
        ("10.1.2.3", ["203.0.113.9"], "203.0.113.9"),
        ("10.1.2.3", ["203.0.113.66, 203.0.113.9"], "203.0.113.9"),  # prepended value ignored
        ("10.1.2.3", ["203.0.113.9, 10.4.4.4"], "203.0.113.9"),  # our proxies skipped
        ("10.1.2.3", ["203.0.113.9", "10.4.4.4"], "203.0.113.9"),  # repeated headers
        ("10.1.2.3", ["10.9.9.9"], "10.9.9.9"),  # only proxies: the farthest one
        ("10.1.2.3", [], "10.1.2.3"),
        ("10.1.2.3", ["unknown"], "10.1.2.3"),  # not an address: the peer
        ("10.1.2.3", ["203.0.113.9, _hidden"], "10.1.2.3"),
        ("10.1.2.3", ["203.0.113.9:4711"], "10.1.2.3"),
        ("2001:db8::1", ["2001:db8::99"], "2001:db8::99"),
        ("testclient", ["203.0.113.9"], "testclient"),
    ],
)
def test_forwarded_client(peer: str, forwarded: list[str], expected: str) -> None:
    assert forwarded_client(peer, forwarded, PROXIES) == expected


def test_no_trusted_proxies_means_the_peer() -> None:
    assert forwarded_client("10.1.2.3", ["203.0.113.9"], ()) == "10.1.2.3"


def test_a_bad_entry_is_named() -> None:
    with pytest.raises(ValueError, match=r"'proxy\.internal' is not an IP address or CIDR"):
        parse_networks("10.0.0.0/8,proxy.internal")
