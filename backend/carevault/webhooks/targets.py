"""Where webhooks may be sent (SSRF guard): HTTPS to public addresses only, unless the
operator allow-lists networks (CAREVAULT_WEBHOOK_ALLOWED_NETWORKS), which then also admits
plain HTTP to them.

Checked twice: when a URL is registered (every address its host resolves to), and again
when each delivery connects: the connection is made to an address resolved and checked at
that moment (`GuardedNetworkBackend`), never to a name resolved again later, so a host that
resolves to a public address at registration and to 127.0.0.1 later (DNS rebinding) is
refused."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpcore

from carevault.core.networks import IPNetwork

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class TargetRefused(Exception):
    """The URL or the address it resolves to is not allowed; the message names why (no
    secrets, and the URL's host only)."""


@dataclass(frozen=True)
class TargetPolicy:
    allowed_networks: tuple[IPNetwork, ...] = ()

    def refusal(self, address: IPAddress) -> str | None:
        """Why a connection to `address` is refused; None when it is allowed."""
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        if any(address in network for network in self.allowed_networks):
            return None
        if address.is_loopback:
            return "a loopback address"
        if address.is_link_local:
            return "a link-local address"
        if address.is_multicast:
            return "a multicast address"
        if address.is_unspecified or address.is_reserved:
            return "a reserved address"
        if address.is_private:
            return "a private address"
        if not address.is_global:
            return "a reserved address"
        return None

    def allowed_listed(self, address: IPAddress) -> bool:
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.allowed_networks)


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int


def parse_target(url: str) -> Target:
    """The URL's scheme, host and port, or TargetRefused for anything but http(s) with a
    host and without credentials in it."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise TargetRefused("the URL is not valid") from None
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        raise TargetRefused("webhook URLs must use https")
    if not parts.hostname:
        raise TargetRefused("the URL has no host")
    if parts.username is not None or parts.password is not None:
        raise TargetRefused("the URL must not carry credentials; the signature authenticates")
    if parts.fragment:
        raise TargetRefused("the URL must not have a fragment")
    return Target(scheme, parts.hostname, port or (443 if scheme == "https" else 80))


async def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address `host` resolves to (an IP literal resolves to itself)."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise TargetRefused(f"the host {host} does not resolve") from None
    addresses: list[IPAddress] = []
    for _family, _type, _proto, _name, sockaddr in infos:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise TargetRefused(f"the host {host} does not resolve")
    return addresses


def check_addresses(policy: TargetPolicy, host: str, addresses: Iterable[IPAddress]) -> None:
    """Refuse when ANY address is refused: a name with one private address among public
    ones could be steered to it."""
    for address in addresses:
        why = policy.refusal(address)
        if why is not None:
            raise TargetRefused(f"the host {host} resolves to {why}, which is refused")


async def check_url(policy: TargetPolicy, url: str) -> Target:
    """Registration's check: scheme, host, and every address the host resolves to now."""
    target = parse_target(url)
    if target.scheme != "https" and not policy.allowed_networks:
        raise TargetRefused("webhook URLs must use https")
    addresses = await resolve(target.host, target.port)
    check_addresses(policy, target.host, addresses)
    if target.scheme != "https" and not all(policy.allowed_listed(a) for a in addresses):
        raise TargetRefused("webhook URLs must use https")
    return target


class GuardedNetworkBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend with the check at connect time: the host is resolved
    here, every address checked, and the socket opened to the checked address. TLS still
    verifies the certificate against the URL's host name (httpcore passes it as SNI)."""

    def __init__(self, policy: TargetPolicy) -> None:
        self.policy = policy
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            addresses = await resolve(host, port)
            check_addresses(self.policy, host, addresses)
        except TargetRefused as refused:
            raise httpcore.ConnectError(f"refused: {refused}") from refused
        return await self._inner.connect_tcp(
            str(addresses[0]), port, timeout, local_address, socket_options
        )

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("refused: unix sockets are not webhook targets")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)
