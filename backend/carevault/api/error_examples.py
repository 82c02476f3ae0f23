"""The catalogue of error examples: one example of every error code the API answers with,
which `error_responses` (carevault.api.errors) and the OpenAPI document
(carevault.api.openapi_examples) refer to. It imports nothing of CareVault, so both can.
A unit test checks every code against the error-code table (tools/error_codes.py), so an
example cannot name a code the API never answers with.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ErrorExample:
    status: int
    code: str
    message: str
    details: Any = None

    def value(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details is not None:
            error["details"] = self.details
        return {"error": error}


_NOTE_ID = "00000000-0000-4000-8000-0000000000d1"

EXAMPLES: dict[str, ErrorExample] = {
    example.code: example
    for example in (
        ErrorExample(400, "bad_request", "the request body is not valid JSON"),
        ErrorExample(
            400,
            "invalid_idempotency_key",
            "Idempotency-Key must be 1 to 255 printable ASCII characters",
            {"field": "header.idempotency-key"},
        ),
        ErrorExample(400, "not_a_login_session", "API tokens are revoked, not logged out"),
        ErrorExample(
            400,
            "search_in_body",
            "search with POST /api/v1/clients/search; never in the URL",
        ),
        ErrorExample(
            400,
            "unknown_parameter",
            "unknown query parameter 'clientid'; this endpoint accepts: client_id, page, page_size",
            {
                "field": "query.clientid",
                "unknown": ["clientid"],
                "allowed": ["client_id", "page", "page_size"],
            },
        ),
        ErrorExample(401, "invalid_credentials", "wrong email or password"),
        ErrorExample(401, "invalid_token", "the API token is not valid"),
        ErrorExample(401, "not_authenticated", "sign in or send an API token"),
        ErrorExample(401, "session_ended", "this session has ended; sign in again"),
        ErrorExample(401, "session_expired", "this session has expired; sign in again"),
        ErrorExample(401, "session_idle_timeout", "signed out after inactivity"),
        ErrorExample(401, "token_expired", "the API token has expired"),
        ErrorExample(401, "token_revoked", "the API token has been revoked"),
        ErrorExample(401, "user_disabled", "this account is disabled"),
        ErrorExample(401, "service_account_disabled", "this service account is disabled"),
        ErrorExample(403, "cosign_by_author", "the note's author cannot co-sign it"),
        ErrorExample(403, "csrf_failed", "cookie-authenticated changes need X-CSRF-Token"),
        ErrorExample(
            403,
            "insufficient_scope",
            "this API token lacks the notes:read scope",
            {"required_scope": "notes:read", "required_scopes": ["notes:read"]},
        ),
        ErrorExample(
            403,
            "login_session_required",
            "API tokens cannot do this; use a signed-in session",
        ),
        ErrorExample(
            403,
            "not_a_supervisor",
            "only an owner or the author's supervisor can co-sign this note",
        ),
        ErrorExample(403, "not_the_author", "only the note's author can sign it"),
        ErrorExample(403, "owner_required", "only workspace owners can do this"),
        ErrorExample(
            403,
            "person_required",
            "a service account acts for the practice, not as a person: this needs a user's "
            "session or personal token",
        ),
        ErrorExample(
            403,
            "chart_access_denied",
            "this client is outside your care team; to open the chart, state a reason with "
            "POST /api/v1/clients/{client_id}/break-the-glass",
            {"break_the_glass": True},
        ),
        ErrorExample(
            403,
            "break_the_glass_disabled",
            "this practice does not allow opening charts outside your care team",
        ),
        ErrorExample(
            403,
            "password_change_required",
            "this account has a temporary password: choose a new one first",
        ),
        ErrorExample(
            403,
            "reauthentication_required",
            "enter your password again (POST /auth/reauth); sensitive changes need it within "
            "the last 5 minutes",
        ),
        ErrorExample(404, "not_found", "session note not found"),
        ErrorExample(
            409,
            "account_conflict",
            "the practice must keep at least one active owner",
        ),
        ErrorExample(
            409,
            "already_finalized",
            "the note is already signed; change it with PATCH and a reason to amend it",
            {"current_version": 4},
        ),
        ErrorExample(
            409,
            "appointment_conflict",
            "the time overlaps other appointments of the same clinician and of the same "
            "client; send allow_overlap to book it anyway",
            {
                "conflicting_ids": [
                    "00000000-0000-4000-8000-0000000000e2",
                    "00000000-0000-4000-8000-0000000000e3",
                ],
                "conflicts": [
                    {"id": "00000000-0000-4000-8000-0000000000e2", "shares": ["clinician"]},
                    {"id": "00000000-0000-4000-8000-0000000000e3", "shares": ["client"]},
                ],
            },
        ),
        ErrorExample(409, "chart_access_not_needed", "you already see this client's chart"),
        ErrorExample(
            409,
            "service_account_inactive",
            "the service account is disabled: enable it first",
        ),
        ErrorExample(
            409,
            "idempotency_key_reused",
            "this Idempotency-Key was used with a different request",
        ),
        ErrorExample(
            409,
            "not_awaiting_cosign",
            "the note does not await a co-signature (a draft, not a trainee's, or co-signed)",
            {"current_version": 4},
        ),
        ErrorExample(
            409,
            "not_signed",
            "the note is a draft: save it without a reason (only signed notes are amended)",
            {"current_version": 4},
        ),
        ErrorExample(
            409,
            "user_exists",
            "a user with email new.clinician@example.org already exists in this workspace",
        ),
        ErrorExample(
            409,
            "version_conflict",
            "the note has changed since you loaded it; reload it and apply your change again",
            {"current_version": 4},
        ),
        ErrorExample(
            410,
            "cursor_expired",
            "events after this cursor are past the retention period and were removed: list the "
            "resources again, then follow the feed from the `next_cursor` of a poll without "
            "`after`",
        ),
        ErrorExample(
            409,
            "external_id_taken",
            "another client of your practice has this external_id",
            {"field": "body.external_id"},
        ),
        ErrorExample(
            412,
            "precondition_failed",
            "the record changed since the version If-Match names; read it again",
            {"current_etag": '"kq3Ph0W2bX1n8v9cQm1t"'},
        ),
        ErrorExample(410, "workspace_shredded", "this practice's data was shredded"),
        ErrorExample(
            422,
            "webhook_url_refused",
            "the host 10.0.0.1 resolves to a private address, which is refused",
            [
                {
                    "field": "body.url",
                    "message": "the host 10.0.0.1 resolves to a private address, which is refused",
                }
            ],
        ),
        ErrorExample(
            422,
            "unknown_event_type",
            "'client.renamed' is not an event type: use one of GET /events' types, a "
            "resource's `client.*`, or `*`",
            [{"field": "body.event_types", "message": "'client.renamed' is not an event type"}],
        ),
        ErrorExample(413, "payload_too_large", "request bodies here are limited to 1048576 bytes"),
        ErrorExample(415, "unsupported_media_type", "send text/csv or application/x-ndjson"),
        ErrorExample(
            422,
            "appointment_client_mismatch",
            "the appointment belongs to another client",
            [
                {
                    "field": "body.appointment_id",
                    "message": "the appointment belongs to another client",
                }
            ],
        ),
        ErrorExample(
            422,
            "attestation_outdated",
            "attest the current statement (version 2, GET /sessions/attestations) to sign",
            [
                {
                    "field": "body.attestation_version",
                    "message": "attest the current statement (version 2, "
                    "GET /sessions/attestations) to sign",
                }
            ],
        ),
        ErrorExample(
            422,
            "client_archived",
            "the client is archived; restore them first",
            [{"field": "body.client_id", "message": "the client is archived; restore them first"}],
        ),
        ErrorExample(
            422,
            "empty_note",
            "write at least one SOAP section before finalizing",
            [
                {
                    "field": f"body.{name}",
                    "message": "write at least one SOAP section before finalizing",
                }
                for name in ("subjective", "objective", "assessment", "plan")
            ],
        ),
        ErrorExample(
            422,
            "finalized_field_locked",
            "this field of a finalized note cannot change",
            [
                {
                    "field": "body.session_date",
                    "message": "this field of a finalized note cannot change",
                }
            ],
        ),
        ErrorExample(
            422,
            "import_rejected",
            "2 problem(s); nothing was imported",
            [
                {"line": 3, "field": "email", "message": "not an email address"},
                {"line": 7, "field": "last_name", "message": "Field required"},
            ],
        ),
        ErrorExample(
            422,
            "invalid_clinician",
            "the clinician must be an active user of your practice",
            [
                {
                    "field": "body.clinician_id",
                    "message": "the clinician must be an active user of your practice",
                }
            ],
        ),
        ErrorExample(
            422,
            "invalid_date_range",
            "`since` is after `until`: the range is inverted; swap the dates",
            [
                {
                    "field": f"query.{name}",
                    "message": "`since` is after `until`: the range is inverted; swap the dates",
                }
                for name in ("since", "until")
            ],
        ),
        ErrorExample(
            422,
            "invalid_cursor",
            "not a cursor of this feed: pass a `next_cursor` or event `id` exactly as received",
            [
                {
                    "field": "query.after",
                    "message": "not a cursor of this feed: pass a `next_cursor` or event `id` "
                    "exactly as received",
                }
            ],
        ),
        ErrorExample(422, "no_changes", "send at least one field to change"),
        ErrorExample(422, "not_in_series", "the appointment is not part of a recurring series"),
        ErrorExample(
            422,
            "reason_required",
            "the note is signed: an amendment needs a reason (why the signed note changes)",
            [
                {
                    "field": "body.reason",
                    "message": "the note is signed: an amendment needs a reason (why the "
                    "signed note changes)",
                }
            ],
        ),
        ErrorExample(
            422,
            "too_many_events",
            "more than 50000 events match; export a shorter date range",
            [
                {
                    "field": f"query.{name}",
                    "message": "more than 50000 events match; export a shorter date range",
                }
                for name in ("since", "until")
            ],
        ),
        ErrorExample(
            422,
            "scope_not_allowed",
            "a clinician can never use audit:read; leave it out",
            [
                {
                    "field": "body.scopes",
                    "message": "a clinician can never use audit:read; leave it out",
                    "scopes": ["audit:read"],
                }
            ],
        ),
        ErrorExample(
            422,
            "unknown_clinician",
            "clinician_ids names users who are not active users of this practice",
            [{"field": "body.clinician_ids.0", "message": "not an active user of the practice"}],
        ),
        ErrorExample(
            422,
            "validation_error",
            "the request is not valid",
            [{"field": "body.plan", "message": "String should have at most 5000 characters"}],
        ),
        ErrorExample(
            429,
            "rate_limited",
            "over 600 rate-limit units a minute for this credential (this request costs 5); "
            "slow down",
            {"limit_scope": "credential", "cost": 5},
        ),
        ErrorExample(
            503,
            "database_timeout",
            "the database did not answer in time; nothing was changed, retry shortly",
        ),
        ErrorExample(503, "database_unavailable", "the database is unavailable; retry shortly"),
        ErrorExample(
            503,
            "kms_unavailable",
            "the key service (AWS KMS) cannot be reached to open this practice's keys; retry "
            "shortly",
        ),
        ErrorExample(
            503,
            "kms_key_disabled",
            "this practice's encryption key is disabled in AWS KMS: its data stays unreadable "
            "until the key's owner enables it again",
        ),
        ErrorExample(
            503,
            "kms_key_pending_deletion",
            "this practice's encryption key is scheduled for deletion in AWS KMS: its data "
            "stays unreadable unless the deletion is cancelled and the key enabled",
        ),
        ErrorExample(
            503,
            "kms_key_not_found",
            "this practice's encryption key no longer exists in AWS KMS",
        ),
        ErrorExample(
            503,
            "kms_access_denied",
            "AWS KMS refuses CareVault the use of this practice's encryption key (its key "
            "policy or a grant was changed)",
        ),
        ErrorExample(
            503, "storage_full", "the database is out of storage space; nothing was changed"
        ),
    )
}

SIGN_IN_RATE_LIMITED = ErrorExample(
    429, "rate_limited", "too many failed password checks; try again later"
)


def examples_for(codes: Iterable[str | ErrorExample]) -> dict[int, dict[str, Any]]:
    """Example objects by status for `error_responses`: a code names the shared example, an
    `ErrorExample` is written out (a message particular to the route)."""
    by_status: dict[int, dict[str, Any]] = {}
    for code in codes:
        example = EXAMPLES[code] if isinstance(code, str) else code
        by_status.setdefault(example.status, {})[example.code] = example_entry(example)
    return by_status


def example_entry(example: ErrorExample) -> dict[str, Any]:
    if EXAMPLES.get(example.code) == example:
        return {"$ref": f"#/components/examples/{example.code}"}
    return {"summary": example.code, "value": example.value()}
