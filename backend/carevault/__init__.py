"""CareVault: practice management with application-level PHI encryption."""

# Semantic versioning; pyproject.toml, the UI (frontend/package.json), the API
# (GET /api/v1/version), the image tag and CHANGELOG.md all take it from here (make release).
__version__ = "0.2.0"
