"""IP networks from a comma-separated setting (CAREVAULT_TRUSTED_PROXIES): parsed once for the
settings' check at start-up, read by the proxy middleware (carevault.api.proxies)."""

from __future__ import annotations

import ipaddress

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(value: str) -> tuple[IPNetwork, ...]:
    networks = []
    for entry in value.split(","):
        entry = entry.strip()
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(
                f"CAREVAULT_TRUSTED_PROXIES: {entry!r} is not an IP address or CIDR"
            ) from None
    return tuple(networks)
