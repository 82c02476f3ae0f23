"""Neutral building blocks that any domain may use: no web framework, no domain code."""
