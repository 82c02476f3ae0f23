"""Every error code the API can answer, read from the code itself, as a Markdown table.

`python -m tools.error_codes` prints the table that docs/reference/error-codes.md carries between
its `error-codes:begin/end` markers; a unit test fails when the two differ, so the list cannot
drift from the code. Found by reading the source (ast), not by running it:

- `ApiError(status, "code", …)` and `Failure(status, "code", …)`;
- the domains' errors, `NotFound("code", …)`, `Conflict("code", …)` and the other kinds, at
  the status the web layer's table `DOMAIN_STATUS = {Kind: status, …}` gives their kind;
- `invalid("code", …)` (a 422 naming fields) and `AuthFailure("code", …)` (a 401);
- `JSONResponse(error_body("code", …), status_code=N)`, also through a local variable;
- the framework fallbacks, `_STATUS_CODES = {status: "code", …}`.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import TypeVar

PACKAGE = Path(__file__).resolve().parents[1] / "backend" / "carevault"
FIXED_STATUS = {"invalid": 422, "AuthFailure": 401}

# What each code means, for people. A code the scan finds without an entry here fails the
# docs test, so a new code cannot ship undocumented.
MEANINGS = {
    "kms_not_configured": "`PUT /workspace/encryption-key` on an installation that does not keep "
    "its keys in AWS KMS",
    "kms_key_unusable": "`PUT /workspace/encryption-key`: CareVault's role cannot use that KMS "
    "key (disabled, not found, or no permission); `message` names which",
    "kms_unavailable": "the practice's keys are not in this process and AWS KMS cannot be "
    "reached (or keeps throttling): retry after `Retry-After`; practices whose keys are held "
    "keep working",
    "kms_key_disabled": "the practice's KMS key (its own, or the installation's) is disabled: "
    "its data is unreadable until the key is enabled again",
    "kms_key_pending_deletion": "the practice's KMS key is scheduled for deletion: cancel the "
    "deletion and enable the key to read its data again",
    "kms_key_not_found": "the practice's KMS key no longer exists: its data is gone for good",
    "kms_access_denied": "the KMS key policy no longer lets CareVault use the practice's key",
    "respond_async_required": "`GET /fhir/R4/$export` without `Prefer: respond-async` (a bulk "
    "export is always asynchronous)",
    "unsupported_output_format": "`_outputFormat` other than NDJSON (`application/fhir+ndjson`)",
    "unsupported_resource_type": "`_type` names a resource type the bulk export does not write",
    "export_in_progress": "another bulk export of the practice is unfinished: poll or cancel it",
    "export_failed": "the bulk export failed; start a new one",
    # /fhir/R4 (docs/reference/fhir.md), as OperationOutcome issue.details.coding codes.
    "too_costly": "FHIR search: the filters would be applied to too many candidates; narrow it",
    "version_not_found": "FHIR vread: the resource has no such version",
    "multiple_matches": "FHIR conditional create: `If-None-Exist` matched more than one resource",
    "bad_request": "the body is not readable JSON (or another malformed request)",
    "invalid_idempotency_key": "the `Idempotency-Key` header is empty, over 255 characters or "
    "not printable ASCII",
    "not_a_login_session": "logout with an API token: revoke the token instead",
    "search_in_body": "`GET /clients?q=…`: search terms are PHI and go in the body of "
    "`POST /clients/search`",
    "unknown_parameter": "a query parameter the endpoint does not declare; `details.allowed` "
    "lists the ones it does",
    "invalid_credentials": "wrong email or password (the same answer for both)",
    "invalid_token": "the API token (or metrics token) is malformed or unknown",
    "not_authenticated": "no session cookie and no token",
    "session_ended": "the login session was ended (sign-out, password change, disabled user)",
    "session_expired": "the login session reached its maximum age",
    "session_idle_timeout": "no request for `CAREVAULT_SESSION_IDLE_MINUTES`; sign in again",
    "token_expired": "the API token passed its `expires_at`",
    "token_revoked": "the API token was revoked (or its user disabled)",
    "unauthorized": "not authenticated (framework fallback)",
    "user_disabled": "the account is disabled",
    "service_account_disabled": "the token's service account is disabled (enabling it brings "
    "its tokens back)",
    "service_account_inactive": "issuing a token for a disabled or expired service account",
    "person_required": "a service account's token asked for what only a person does (author, "
    "sign or co-sign a note, be an appointment's default clinician, break the glass)",
    "scope_not_allowed": "creating a token or service account with a scope its role can never "
    "use, or a SMART scope of the other kind of credential (`system/` on a personal token, "
    "`user/` on a service account); `details[].scopes` names them",
    "csrf_failed": "a cookie-authenticated change without the right `X-CSRF-Token`",
    "forbidden": "not allowed (framework fallback)",
    "insufficient_scope": "the API token lacks the scope in `details.required_scope`",
    "login_session_required": "API tokens cannot do this (users, tokens, passwords, settings)",
    "metrics_disabled": "`/metrics` without `CAREVAULT_METRICS_TOKEN` configured",
    "owner_required": "owners only",
    "not_the_author": "signing a note someone else wrote: only its author signs it",
    "cosign_by_author": "co-signing your own note",
    "not_a_supervisor": "co-signing as neither an owner nor the author's supervisor",
    "password_change_required": "signed in with a temporary password: change it first",
    "reauthentication_required": "enter the password again (`POST /auth/reauth`) first",
    "not_found": "does not exist, or belongs to another practice (or, under `care_team` chart "
    "access, to a client outside your care team)",
    "chart_access_denied": "the client is outside your care team and the practice allows "
    "break-the-glass: `POST /clients/{client_id}/break-the-glass` with a reason opens it",
    "break_the_glass_disabled": "the practice does not allow opening charts outside your care team",
    "chart_access_not_needed": "break-the-glass by someone who already sees the chart",
    "unknown_clinician": "`clinician_ids` names a user who is not an active user of the practice",
    "method_not_allowed": "the path exists but not with this method",
    "account_conflict": "the change conflicts with the practice's accounts: disabling yourself "
    "or its last active owner, or a temporary password for yourself",
    "already_finalized": "the note is signed (final) already",
    "not_awaiting_cosign": "co-signing a note that does not await a co-signature",
    "not_signed": "an amendment (a change with a `reason`) of a draft: save drafts without one",
    "appointment_conflict": (
        "overlaps appointments of the same clinician, client or room: "
        "`details.conflicting_ids`, and `details.conflicts` with what each shares"
    ),
    "conflict": "conflict (framework fallback)",
    "external_id_taken": "another record of the same kind in your practice has this "
    "`external_id` (unique per practice and kind of record)",
    "precondition_failed": "`If-Match` names a version the record is no longer at; "
    "`details.current_etag` is its current `ETag`: read it again",
    "idempotency_key_reused": "the `Idempotency-Key` was used in the last 24 hours with a "
    "different request",
    "user_exists": "your practice already has a user with that email",
    "webhook_url_refused": "a webhook URL that is not https, or whose host resolves to a "
    "private, loopback, link-local, multicast or reserved address (SSRF guard; "
    "`CAREVAULT_WEBHOOK_ALLOWED_NETWORKS` admits networks)",
    "unknown_event_type": "a webhook's `event_types` names a type the feed never sends",
    "version_conflict": "stale `version` (or a FHIR `If-Match`): `details.current_version` is "
    "the current one",
    "workspace_shredded": "the practice's data was shredded (`carevault workspaces shred`)",
    "cursor_expired": "`GET /events`: events after the cursor are past the retention period "
    "(`CAREVAULT_EVENTS_RETENTION_DAYS`): list again, then follow a fresh cursor",
    "payload_too_large": "body over 1 MiB (32 MiB for the client import)",
    "unsupported_media_type": "the import takes `text/csv` or `application/x-ndjson`",
    "appointment_client_mismatch": "the appointment belongs to another client",
    "client_archived": "the client is archived: restore them first",
    "empty_note": "finalizing a note whose every section is empty",
    "reason_required": "amending a signed note without a `reason`",
    "attestation_outdated": "signing with an `attestation_version` other than the current "
    "one (`GET /sessions/attestations`)",
    "finalized_field_locked": "`session_date` and `duration_minutes` cannot be amended",
    "import_rejected": "an import row is invalid: `details` lists `{line, field, message}`; "
    "nothing was imported",
    "invalid_date_range": "`since` after `until` (audit trail, a client's access log)",
    "no_changes": "a PATCH with nothing to change",
    "invalid_cursor": "a cursor this server did not issue (the change feed's `after`, a FHIR "
    "search's `_cursor`): pass `next_cursor`, an event `id` or a `next` link exactly as received",
    "not_in_series": "`cancel-following` on an appointment booked alone",
    "invalid_clinician": "`clinician_id` is not an active user of your practice",
    "too_many_events": "an access-log CSV export over 50,000 events: export a shorter range",
    "validation_error": "`details` lists `{field, message}`, `field` saying where: `body.plan`, "
    "`query.page_size`, `path.note_id`",
    "rate_limited": "too many failed sign-ins, or over a rate-limit budget (`details.limit_scope`: "
    "`credential` or `practice`); see `Retry-After`",
    "internal_error": "a defect in CareVault; logged with its traceback under the request id "
    "the answer gives in `details.request_id` (and `X-Request-ID`)",
    "phi_decryption_failed": "a protected value could not be opened (see below); audited",
    "database_timeout": "the database did not answer within the request deadline; the "
    "transaction was rolled back",
    "database_unavailable": "the database cannot be reached (stopped, restarting, connection "
    "lost, read-only after a failover, too many connections), or any other error of the "
    "database driver or its connection",
    "storage_full": "the database is out of disk space (SQLSTATE 53100); nothing was written",
}


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


T = TypeVar("T")


def _constant(node: ast.expr | None, kind: type[T]) -> T | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, kind):
        return node.value
    return None


def _literal_code(node: ast.expr) -> str | None:
    """The code of `error_body("code", …)` or of a literal `{"error": {"code": "…"}}`."""
    if isinstance(node, ast.Call) and _name(node.func) == "error_body" and node.args:
        code = _constant(node.args[0], str)
        return code if isinstance(code, str) else None
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            if key is not None and _constant(key, str) in ("error", "code"):
                return (
                    _constant(value, str)
                    if _constant(key, str) == "code"
                    else (_literal_code(value))
                )
    return None


def _response_code(node: ast.expr, scope: ast.AST) -> str | None:
    """The code a JSONResponse's body carries: written there, or in the latest assignment to
    the variable before it, in the same function."""
    if not isinstance(node, ast.Name):
        return _literal_code(node)
    assignments = [
        child
        for child in ast.walk(scope)
        if isinstance(child, ast.Assign)
        and child.lineno < node.lineno
        and any(isinstance(t, ast.Name) and t.id == node.id for t in child.targets)
    ]
    if not assignments:
        return None
    return _literal_code(max(assignments, key=lambda a: a.lineno).value)


def status_table(tree: ast.AST) -> dict[str, int]:
    """`DOMAIN_STATUS = {Kind: status, …}` (carevault.api.errors): the status of each kind of
    domain error, by class name."""
    table: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if not any(isinstance(t, ast.Name) and t.id == "DOMAIN_STATUS" for t in targets):
            continue
        if isinstance(value, ast.Dict):
            for key, status in zip(value.keys, value.values, strict=True):
                kind, number = (_name(key) if key is not None else None), _constant(status, int)
                if kind is not None and isinstance(number, int):
                    table[kind] = number
    return table


def codes_in(tree: ast.AST, fixed: Mapping[str, int] | None = None) -> set[tuple[int, str]]:
    """The (status, code) pairs raised in `tree`. `fixed`: the callables whose status is
    implied (the code comes first); by default FIXED_STATUS and the DOMAIN_STATUS in `tree`."""
    if fixed is None:
        fixed = FIXED_STATUS | status_table(tree)
    found: set[tuple[int, str]] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "_STATUS_CODES" for t in node.targets)
            and isinstance(node.value, ast.Dict)
        ):
            for key, value in zip(node.value.keys, node.value.values, strict=True):
                status, text = _constant(key, int), _constant(value, str)
                if isinstance(status, int) and isinstance(text, str):
                    found.add((status, text))
    for call, scopes in _calls(tree, ()):
        name = _name(call.func)
        if name in ("ApiError", "Failure") and len(call.args) >= 2:
            status, code = _constant(call.args[0], int), _constant(call.args[1], str)
            if isinstance(status, int) and isinstance(code, str):
                found.add((status, code))
        elif name is not None and name in fixed and call.args:
            code = _constant(call.args[0], str)
            if isinstance(code, str):
                found.add((fixed[name], code))
        elif name == "JSONResponse" and call.args:
            status = next(
                (_constant(k.value, int) for k in call.keywords if k.arg == "status_code"), None
            )
            for scope in scopes:  # the response's code may be a variable of any of them
                code = _response_code(call.args[0], scope)
                if code is not None and isinstance(status, int):
                    found.add((status, code))
    return found


Scope = ast.FunctionDef | ast.AsyncFunctionDef


def _calls(
    node: ast.AST, scopes: tuple[Scope, ...]
) -> Iterator[tuple[ast.Call, tuple[Scope, ...]]]:
    """Every call under `node`, with the functions it is in (one walk of the tree)."""
    for child in ast.iter_child_nodes(node):
        inner = (*scopes, child) if isinstance(child, Scope) else scopes
        if isinstance(child, ast.Call):
            yield child, inner
        yield from _calls(child, inner)


@cache  # parsing the package is most of a check's time; callers only read the table
def all_codes(package: Path = PACKAGE) -> dict[int, list[str]]:
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in sorted(package.rglob("*.py"))]
    # The domains raise in one module the kinds the web layer maps in another.
    fixed = dict(FIXED_STATUS)
    for tree in trees:
        fixed |= status_table(tree)
    by_status: dict[int, set[str]] = defaultdict(set)
    for tree in trees:
        for status, code in codes_in(tree, fixed):
            by_status[status].add(code)
    return {status: sorted(codes) for status, codes in sorted(by_status.items())}


def markdown(codes: dict[int, list[str]]) -> str:
    lines = ["| status | code | meaning |", "| --- | --- | --- |"]
    lines += [
        f"| {status} | `{code}` | {MEANINGS.get(code, 'UNDOCUMENTED')} |"
        for status, names in codes.items()
        for code in names
    ]
    return "\n".join(lines)


def main() -> None:
    sys.stdout.write(markdown(all_codes()) + "\n")


if __name__ == "__main__":
    main()
