"""A client library for accessing CareVault"""

from .client import AuthenticatedClient, Client, InsecureTransportWarning

__all__ = (
    "AuthenticatedClient",
    "Client",
    "InsecureTransportWarning",
)
