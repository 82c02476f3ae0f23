"""IP networks from a comma-separated setting (CAREVAULT_TRUSTED_PROXIES, and the webhooks'
allow-list): parsed once for the settings' check at start-up, read by their users."""

from __future__ import annotations

import ipaddress

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(value: str, setting: str = "CAREVAULT_TRUSTED_PROXIES") -> tuple[IPNetwork, ...]:
    networks = []
    for entry in value.split(","):
        entry = entry.strip()
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"{setting}: {entry!r} is not an IP address or CIDR") from None
    return tuple(networks)
