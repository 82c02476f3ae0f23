"""The client address: the peer, unless the peer is a configured trusted proxy.

Sign-in throttling and the audit trail key on the client address, so it must not be
forgeable: X-Forwarded-For is read only when the connection comes from an address in
CAREVAULT_TRUSTED_PROXIES, and then from the right, skipping our own proxies, so a client
cannot prepend a made-up address. An entry that is not an IP address (a proxy passing on a
garbled header) is not believed: the peer address is used instead.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from carevault.core.networks import IPNetwork

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def _address(text: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def forwarded_client(peer: str, forwarded_for: list[str], networks: tuple[IPNetwork, ...]) -> str:
    """The client address for a request from `peer` carrying these X-Forwarded-For values."""
    peer_address = _address(peer)
    if not networks or peer_address is None or not _trusted(peer_address, networks):
        return peer
    hops = [hop for value in forwarded_for for hop in value.split(",")]
    client = peer_address
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            return peer  # garbled: believe nothing further
        client = address
        if not _trusted(address, networks):
            break
    return str(client)


def _trusted(address: IPAddress, networks: tuple[IPNetwork, ...]) -> bool:
    return any(address in network for network in networks)


class TrustedProxies:
    """ASGI middleware: rewrites scope["client"] for requests relayed by trusted proxies."""

    def __init__(self, app: ASGIApp, networks: tuple[IPNetwork, ...]) -> None:
        self.app = app
        self.networks = networks

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] in ("http", "websocket") and self.networks and client:
            forwarded = [
                value.decode("latin-1")
                for name, value in scope.get("headers", [])
                if name == b"x-forwarded-for"
            ]
            host = forwarded_client(client[0], forwarded, self.networks)
            if host != client[0]:
                scope = dict(scope)
                scope["client"] = (host, 0)
        await self.app(scope, receive, send)


def client_ip(request: Request) -> str | None:
    """The client's address as TrustedProxies left it; None when it is not an IP address
    (the audit trail stores addresses as inet)."""
    host = request.client.host if request.client else None
    return _canonical_ip(host) if host else None


@lru_cache(maxsize=4096)
def _canonical_ip(host: str) -> str | None:
    # Cached: every authenticated request parses its address, and a practice's clients
    # come from a handful of them.
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return None
