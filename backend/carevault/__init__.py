"""CareVault: practice management with application-level PHI encryption."""

__version__ = "0.1.0"
