"""What the exports need of a credential (carevault.auth.permissions)."""

from __future__ import annotations

from carevault.auth.permissions import Operation

# The whole chart: a token needs every PHI resource's read scope. The answer is a file, not
# a response model, so the export audits what it disclosed itself (carevault.exports.record).
EXPORTS_RECORD = Operation(("clients:read", "notes:read", "appointments:read"))

# The whole practice (bulk export): the same scopes, and an owner (the route's dependency).
EXPORTS_PRACTICE = Operation(("clients:read", "notes:read", "appointments:read"))
