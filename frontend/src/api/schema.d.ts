// Generated from the backend OpenAPI document by scripts/generate-api.mjs. Do not edit:
// run `npm run generate:api` after changing the API.

export interface paths {
    "/api/v1/appointments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The calendar: every appointment overlapping [start, end), as a plain list
         * @description Ordered by start time, cancelled ones included. Not paginated: the range is at most
         *     62 days, so the whole range comes in one response. Each appointment carries its
         *     clinician's display name and its client's names (`client`; null for an API token
         *     without `clients:read`), so no client list is needed to draw the calendar.
         *
         *     To sync (docs/how-to/keep-in-sync.md): `updated_since` and/or `sort=updated_at`
         *     instead of `start` and `end`: appointments of any date changed since then, at most
         *     `limit`; the next page is `updated_since` = the last item's `updated_at` and `after_id` =
         *     its `id`. Deletions are only in the change feed (GET /events).
         */
        get: operations["list_appointments_api_v1_appointments_get"];
        put?: never;
        /**
         * Create Appointment
         * @description Book a client of your workspace (404 for any other client; 422 `client_archived` for
         *     an archived one) on a clinician's calendar: `clinician_id`, an active user of your
         *     workspace (422 `invalid_clinician` otherwise), or you when omitted. An overlap with an
         *     appointment that is not cancelled and has the same clinician, the same client or the
         *     same room is 409 `appointment_conflict` with `details.conflicting_ids` and, per conflict,
         *     what it shares (`details.conflicts[].shares`), unless `allow_overlap` is true.
         */
        post: operations["create_appointment_api_v1_appointments_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/appointments/{appointment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read Appointment */
        get: operations["read_appointment_api_v1_appointments__appointment_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete Appointment
         * @description Remove the appointment for good (to keep it on the calendar, set status `cancelled`).
         *     A session note tied to it stays, without the link.
         */
        delete: operations["delete_appointment_api_v1_appointments__appointment_id__delete"];
        options?: never;
        head?: never;
        /**
         * Update Appointment
         * @description Reschedule (drag: new `starts_at` and `ends_at`), hand it to another clinician, change
         *     the room, status, location or notes; only the fields sent change. Moving an appointment
         *     in time, to another clinician or room, or un-cancelling one, is checked for overlaps like
         *     a booking.
         */
        patch: operations["update_appointment_api_v1_appointments__appointment_id__patch"];
        trace?: never;
    };
    "/api/v1/appointments/{appointment_id}/cancel-following": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel this occurrence of a series and every later one
         * @description Sets status `cancelled` on this appointment and on every later occurrence of its
         *     series that is still `scheduled` (attended and no-show ones are kept); 422
         *     `not_in_series` for an appointment booked alone. Answers with the ids cancelled.
         */
        post: operations["cancel_following_api_v1_appointments__appointment_id__cancel_following_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/appointments/batch-get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Batch Get Appointments
         * @description Up to 100 appointments by id in one request, as `GET /appointments/{appointment_id}`
         *     reads each, in the order asked; one audit event names every appointment returned. Ids you
         *     may not read are in `not_found`, never told apart.
         */
        post: operations["batch_get_appointments_api_v1_appointments_batch_get_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/appointments/external/{external_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upsert Appointment
         * @description Create or update by your own id: 201 with a new appointment when none has
         *     `external_id`, else 200 with that appointment changed (the fields sent are set, the
         *     others kept, `metadata` merged; `client_id` cannot change; a move is checked for
         *     overlaps as a `PATCH` is). Safe to retry and to run concurrently. With `If-Match`, only
         *     if the appointment exists at that `ETag` (else 412).
         */
        put: operations["upsert_appointment_api_v1_appointments_external__external_id__put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/appointments/series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Book a recurring appointment: one appointment per occurrence, all or none
         * @description As `POST /appointments`, repeated by `recurrence` (every N weeks at the same local
         *     time in the practice's time zone, until a date or `count` times, at most 100). Every
         *     occurrence is checked for overlaps; any conflict refuses the whole series with one 409
         *     whose `details.conflicts` name each conflicting appointment, what it shares and the
         *     `occurrence_starts_at` it clashes with.
         */
        post: operations["create_series_api_v1_appointments_series_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Audit Events
         * @description The workspace's audit trail, newest first, each event with its actor's name and role
         *     and its token's name. `since` after `until` is a 422 `invalid_date_range`. Owners only.
         */
        get: operations["list_audit_events_api_v1_audit_events_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Login
         * @description Sign in. Sets an httpOnly session cookie; returns the CSRF token for later changes.
         */
        post: operations["login_api_v1_auth_login_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Logout */
        post: operations["logout_api_v1_auth_logout_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Me
         * @description Who is signed in; for cookie sessions also the CSRF token (a reloaded tab needs it).
         */
        get: operations["me_api_v1_auth_me_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change Password
         * @description Change your own password; every other session of yours ends (this one stays).
         */
        post: operations["change_password_api_v1_auth_password_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/reauth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reauthenticate
         * @description Prove the password again; sensitive changes are then allowed for 5 minutes.
         */
        post: operations["reauthenticate_api_v1_auth_reauth_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Tokens
         * @description Your tokens, newest first; owners see every person's token of the workspace (a
         *     service account's are under GET /service-accounts/{id}/tokens).
         */
        get: operations["list_tokens_api_v1_auth_tokens_get"];
        put?: never;
        /**
         * Create Token
         * @description Create an API token for the signed-in user, limited to `scopes`. The token is in this
         *     response only. Needs a session whose password was proved in the last 5 minutes.
         */
        post: operations["create_token_api_v1_auth_tokens_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke Token */
        delete: operations["revoke_token_api_v1_auth_tokens__token_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Clients
         * @description Clients of your workspace by last name, then first name (case-insensitive), as
         *     summaries: names, date of birth, archived, updated (the minimum necessary; the whole
         *     record is `GET /clients/{client_id}`). To search, use `POST /clients/search`: search
         *     terms are PHI and never go in a URL. To sync: `updated_since`, `sort=updated_at` and
         *     the keyset cursor `after_id` (docs/how-to/keep-in-sync.md); with
         *     `include_archived=true` to see archivals.
         */
        get: operations["list_clients_api_v1_clients_get"];
        put?: never;
        /**
         * Create Client
         * @description Add a client to your workspace. Accepts `Idempotency-Key`.
         */
        post: operations["create_client_api_v1_clients_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clients/{client_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Client
         * @description A client, archived or not. Under `care_team` chart access, a clinician outside the
         *     client's care team gets 404, or 403 `chart_access_denied` when the practice allows
         *     break-the-glass (`POST /clients/{client_id}/break-the-glass`).
         */
        get: operations["read_client_api_v1_clients__client_id__get"];
        put?: never;
        post?: never;
        /**
         * Archive Client
         * @description Archive: the client leaves lists (unless `include_archived`) until restored; their
         *     appointments and notes stay.
         */
        delete: operations["archive_client_api_v1_clients__client_id__delete"];
        options?: never;
        head?: never;
        /**
         * Update Client
         * @description Change the fields sent and only those (422 `no_changes` for an empty body). With
         *     `If-Match`, only if the client is still at that `ETag` (412 `precondition_failed`).
         */
        patch: operations["update_client_api_v1_clients__client_id__patch"];
        trace?: never;
    };
    "/api/v1/clients/{client_id}/access-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Access Log
         * @description Owners: who saw or changed this client's records (the client, their notes and
         *     appointments), newest first: who (name and role, or token name), what (`kind`), when,
         *     from where (`via`, address). Filter by time (`since` after `until` is a 422), kind and
         *     user. `?format=csv` or `Accept: text/csv` exports every matching event (up to 50,000; no
         *     paging) as CSV, cells neutralised against spreadsheet formulas. Each read is audited
         *     (`client.access_log`) and shows in the history.
         */
        get: operations["read_access_log_api_v1_clients__client_id__access_log_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clients/{client_id}/break-the-glass": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Review Break The Glass
         * @description Owners: every break-the-glass opening of the client's chart, newest first: who, the
         *     reason they gave, when, until when. Reading them is audited.
         */
        get: operations["review_break_the_glass_api_v1_clients__client_id__break_the_glass_get"];
        put?: never;
        /**
         * Break The Glass
         * @description Open a chart outside your care team, stating why (in the body: a reason can hold PHI,
         *     so never in a URL). Only when the practice allows break-the-glass (else 403
         *     `break_the_glass_disabled`); grants you the chart, its appointments and notes for 60
         *     minutes, and is flagged `break_the_glass` in the audit trail (the reason is kept sealed,
         *     not in the audit event). Then read the chart with `GET /clients/{client_id}`.
         */
        post: operations["break_the_glass_api_v1_clients__client_id__break_the_glass_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clients/{client_id}/care-team": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Care Team
         * @description The clinicians assigned to the client (ids, names, roles: no PHI).
         */
        get: operations["read_care_team_api_v1_clients__client_id__care_team_get"];
        /**
         * Set Care Team
         * @description Owners: assign the client's clinicians (the whole list; 422 `unknown_clinician` for
         *     an id that is not an active user of the practice). Under `care_team` chart access they
         *     are the clinicians who see the client's chart, appointments and notes.
         */
        put: operations["set_care_team_api_v1_clients__client_id__care_team_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clients/{client_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export Client Record
         * @description The client's whole record, for the client (HIPAA right of access): demographics,
         *     appointments, every note with each version it went through, amendments and signatures.
         *     Notes marked as psychotherapy notes are left out, and the export says how many. Chart
         *     access as for `GET /clients/{client_id}`; a token needs the clients, notes and
         *     appointments read scopes. Audited (`client.export`, `session.export`,
         *     `appointment.export`). The file is named by the client's id, never their name. With a
         *     read replica the record is read there (the audit events go to the primary).
         */
        get: operations["export_client_record_api_v1_clients__client_id__export_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clients/{client_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore Client
         * @description Un-archive a client.
         */
        post: operations["restore_client_api_v1_clients__client_id__restore_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clients/batch-get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Batch Get Clients
         * @description Up to 100 clients by id in one request, as `GET /clients/{client_id}` reads each
         *     (archived ones included), in the order asked; one audit event names every client
         *     returned. Ids you may not read (unknown, another practice, outside your care team) are in
         *     `not_found`, never told apart. A POST so the ids travel in the body; reads nothing else.
         */
        post: operations["batch_get_clients_api_v1_clients_batch_get_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clients/external/{external_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upsert Client
         * @description Create or update by your own id: 201 with a new client when none has `external_id`,
         *     else 200 with that client changed (the fields sent are set, the others kept, `metadata`
         *     merged). Safe to retry and to run concurrently: one external id is never two clients.
         *     With `If-Match`, only if the client exists at that `ETag` (else 412). A client outside
         *     your care team is 404, as for `PATCH`.
         */
        put: operations["upsert_client_api_v1_clients_external__external_id__put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clients/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import Clients
         * @description Owners: import clients from CSV (header row) or JSON lines, up to 32 MiB and
         *     CAREVAULT_IMPORT_MAX_ROWS rows (100,000 by default). All rows or none: any bad row (a CSV
         *     row with more or fewer fields than the header, or a line that is not UTF-8, included) is
         *     a 422 listing `{line, field, message}`, the first bad row first, and nothing is written.
         *     An `external_id` column gives each client your own id (a row naming one a client already
         *     has is such a bad row, unless `upsert=true`). The answer lists each row's line, client id,
         *     external id and whether it was created or updated.
         */
        post: operations["import_clients_api_v1_clients_import_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clients/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search Clients
         * @description Find clients by email or phone (exact match, however it is written) or part of a first
         *     or last name (case-insensitive), ordered like `GET /clients`, as summaries. A POST so
         *     that the search term, which is PHI, travels in the body: URLs end up in access logs,
         *     proxies and browser history. Reads nothing but does need the CSRF header with a cookie
         *     session.
         */
        post: operations["search_clients_api_v1_clients_search_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clinicians": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Clinicians
         * @description The practice's calendars (every user, disabled ones marked inactive), by name: what
         *     the calendar's clinician filter and the booking dialog choose from. Signed-in users.
         */
        get: operations["list_clinicians_api_v1_clinicians_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Events
         * @description The practice's change feed: every change to a client, appointment, session note or
         *     user, oldest first, ids and types only (no PHI, so polls are not audited). Follow
         *     `next_cursor`; an event is never skipped or repeated. 422 `invalid_cursor` for a cursor
         *     this feed did not issue, 410 `cursor_expired` when events after it were past retention.
         *     Owners only (token scope `events:read`).
         */
        get: operations["list_events_api_v1_events_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/head": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Event Head
         * @description A cursor at the head of the feed, without reading it: take it before a full list,
         *     then follow the feed from it (`GET /events?after=…`), and nothing changed during the
         *     list is missed. Owners only (token scope `events:read`); not audited.
         */
        get: operations["read_event_head_api_v1_events_head_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/service-accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Service Accounts
         * @description The practice's service accounts, newest first (deleted ones are left out).
         */
        get: operations["list_service_accounts_api_v1_service_accounts_get"];
        put?: never;
        /**
         * Create Service Account
         * @description Create an integration identity that belongs to the practice: its tokens keep working
         *     when the owner who created it is disabled. Owners, with the password proved in the last
         *     5 minutes.
         */
        post: operations["create_service_account_api_v1_service_accounts_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/service-accounts/{service_account_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Service Account */
        get: operations["get_service_account_api_v1_service_accounts__service_account_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete Service Account
         * @description Every token is revoked for good; the audit trail keeps naming the account.
         */
        delete: operations["delete_service_account_api_v1_service_accounts__service_account_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/service-accounts/{service_account_id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable Service Account
         * @description Its tokens are refused (401 `service_account_disabled`) until it is enabled again.
         */
        post: operations["disable_service_account_api_v1_service_accounts__service_account_id__disable_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/service-accounts/{service_account_id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable Service Account */
        post: operations["enable_service_account_api_v1_service_accounts__service_account_id__enable_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/service-accounts/{service_account_id}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Service Account Tokens */
        get: operations["list_service_account_tokens_api_v1_service_accounts__service_account_id__tokens_get"];
        put?: never;
        /**
         * Create Service Account Token
         * @description Issue a token with the account's scopes. The token is in this response only.
         */
        post: operations["create_service_account_token_api_v1_service_accounts__service_account_id__tokens_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/service-accounts/{service_account_id}/tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke Service Account Token
         * @description Revoke at once (no password prompt: revoking a leaked token must be quick).
         */
        delete: operations["revoke_service_account_token_api_v1_service_accounts__service_account_id__tokens__token_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Session Notes
         * @description Notes of your workspace, newest session first. To sync: `updated_since`,
         *     `sort=updated_at` and the keyset cursor `after_id` (docs/how-to/keep-in-sync.md); with
         *     `include_deleted=true` to see deletions.
         */
        get: operations["list_session_notes_api_v1_sessions_get"];
        put?: never;
        /**
         * Create Session Note
         * @description Start a draft note for a client of your workspace, optionally tied to an appointment.
         *     A retry with the same `Idempotency-Key` returns the first response (see
         *     docs/reference/api.md).
         */
        post: operations["create_session_note_api_v1_sessions_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sessions/{note_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read Session Note */
        get: operations["read_session_note_api_v1_sessions__note_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete Session Note
         * @description Soft-delete: the note is hidden until restored.
         */
        delete: operations["delete_session_note_api_v1_sessions__note_id__delete"];
        options?: never;
        head?: never;
        /**
         * Update Session Note
         * @description Save the fields that changed, at the `version` you last saw (409 `version_conflict`
         *     with `current_version` if the note changed since). On a signed note this is an
         *     amendment and needs a `reason` (422 `reason_required`): the replaced content is kept
         *     (`GET /sessions/{id}/versions`) and the amendment is listed in `addenda`.
         */
        patch: operations["update_session_note_api_v1_sessions__note_id__patch"];
        trace?: never;
    };
    "/api/v1/sessions/{note_id}/cosign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cosign Session Note
         * @description Co-sign a trainee's signed note, attesting the co-signature statement: an owner or
         *     the author's supervisor, never the author (403 `cosign_by_author`, `not_a_supervisor`).
         *     409 `not_awaiting_cosign`, or `version_conflict` if `version` is stale.
         */
        post: operations["cosign_session_note_api_v1_sessions__note_id__cosign_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sessions/{note_id}/finalize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finalize Session Note
         * @description Sign the note as its author, attesting the statement of `attestation_version`
         *     (`GET /sessions/attestations`), and lock it. Records who signed and when, flags a late
         *     entry, and seals the content's SHA-256 into the audit trail; a trainee's note then
         *     awaits a co-signature. 403 `not_the_author`; 422 `empty_note` if every SOAP section is
         *     empty; 409 `already_finalized`, or `version_conflict` if `version` is stale.
         */
        post: operations["finalize_session_note_api_v1_sessions__note_id__finalize_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sessions/{note_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore Session Note
         * @description Bring back a soft-deleted note.
         */
        post: operations["restore_session_note_api_v1_sessions__note_id__restore_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sessions/{note_id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Session Note Versions
         * @description The content that amendments replaced, newest first (the current content is the note
         *     itself; drafts and finalizing keep no history).
         */
        get: operations["list_session_note_versions_api_v1_sessions__note_id__versions_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sessions/attestations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Attestations
         * @description The statements signing (`POST /sessions/{id}/finalize`) and co-signing attest; send
         *     the `version` shown with the signature.
         */
        get: operations["read_attestations_api_v1_sessions_attestations_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sessions/awaiting-cosign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Notes Awaiting Cosign
         * @description Signed notes awaiting a co-signature you may give: for an owner every trainee's
         *     note but your own, for a supervisor those of the clinicians you supervise.
         */
        get: operations["list_notes_awaiting_cosign_api_v1_sessions_awaiting_cosign_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sessions/batch-get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Batch Get Session Notes
         * @description Up to 100 notes by id in one request, as `GET /sessions/{note_id}` reads each (with
         *     their addenda), in the order asked; one audit event names every note returned. Ids you
         *     may not read (deleted ones included) are in `not_found`, never told apart.
         */
        post: operations["batch_get_session_notes_api_v1_sessions_batch_get_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/system/readiness": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Owners: the detailed readiness report (database, key ring, pgcrypto) */
        get: operations["readiness_details_api_v1_system_readiness_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Users
         * @description Owners: the users of your workspace, by email.
         */
        get: operations["list_users_api_v1_users_get"];
        put?: never;
        /**
         * Create User
         * @description Owners: add a user to your workspace. 409 only when your own workspace already has
         *     the address; an address used by another practice is added like any other, so the
         *     answer never tells whether someone is registered elsewhere.
         */
        post: operations["create_user_api_v1_users_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update User
         * @description Owners: require co-signature of a user's notes (a trainee) and name their supervisor,
         *     who may co-sign them (owners always may). Send the fields that change.
         */
        patch: operations["update_user_api_v1_users__user_id__patch"];
        trace?: never;
    };
    "/api/v1/users/{user_id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable User
         * @description Disable an account: its sessions end and its API tokens are revoked at once.
         */
        post: operations["disable_user_api_v1_users__user_id__disable_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{user_id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable User
         * @description Enable a disabled account. Its old sessions and tokens stay ended.
         */
        post: operations["enable_user_api_v1_users__user_id__enable_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{user_id}/temporary-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set Temporary Password
         * @description Reset a user's password to one the owner hands over; it must be changed at the next
         *     sign-in, and the user's sessions end now.
         */
        post: operations["set_temporary_password_api_v1_users__user_id__temporary_password_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The CareVault release answering (semantic versioning; see CHANGELOG.md) */
        get: operations["version_api_v1_version_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Webhooks
         * @description The practice's endpoints, newest first. A disabled one names why (`disabled_reason`).
         */
        get: operations["list_webhooks_api_v1_webhooks_get"];
        put?: never;
        /**
         * Create Webhook
         * @description Register an endpoint. The signing secret is in this answer only; deliveries start
         *     with the events after this moment.
         */
        post: operations["create_webhook_api_v1_webhooks_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Webhook */
        get: operations["get_webhook_api_v1_webhooks__webhook_id__get"];
        put?: never;
        post?: never;
        /** Delete Webhook */
        delete: operations["delete_webhook_api_v1_webhooks__webhook_id__delete"];
        options?: never;
        head?: never;
        /**
         * Update Webhook
         * @description Change the URL, the event types, the description, or enable/disable the endpoint.
         *     Enabling it resumes the deliveries that waited, each with a fresh retry window.
         */
        patch: operations["update_webhook_api_v1_webhooks__webhook_id__patch"];
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Webhook Deliveries
         * @description The endpoint's deliveries, newest first, each with its latest attempts (status code,
         *     duration, error class; never what the receiver answered).
         */
        get: operations["list_webhook_deliveries_api_v1_webhooks__webhook_id__deliveries_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver Webhook
         * @description Send the delivery again (same event id) as soon as the worker next runs.
         */
        post: operations["redeliver_webhook_api_v1_webhooks__webhook_id__deliveries__delivery_id__redeliver_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate Webhook Secret
         * @description A new signing secret, in this answer only; the old one stops signing at once.
         */
        post: operations["rotate_webhook_secret_api_v1_webhooks__webhook_id__rotate_secret_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update Workspace
         * @description Owners: set the practice's IANA time zone, which decides what "today" is for it, its
         *     phone region, which decides how a phone number without a country code is read,
         *     `late_entry_hours`, after which a signed note is flagged as a late entry, and its chart
         *     access (`chart_access`, `break_the_glass`).
         */
        patch: operations["update_workspace_api_v1_workspace_patch"];
        trace?: never;
    };
    "/api/v1/workspace/encryption-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Practice Key
         * @description Owners: the key that protects the practice's data keys and its state in KMS.
         */
        get: operations["get_practice_key_api_v1_workspace_encryption_key_get"];
        /**
         * Set Practice Key Route
         * @description Owners (after entering their password again): move the practice onto its own AWS
         *     KMS key (bring your own key), or back to the installation's (`null`). The practice's
         *     data keys are re-wrapped by KMS; no value is re-encrypted. Disabling the key later cuts
         *     CareVault off the practice's data; enabling it restores access.
         */
        put: operations["set_practice_key_route_api_v1_workspace_encryption_key_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["liveness_health_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness for load balancers: status only (503 when unavailable) */
        get: operations["readiness_health_ready_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * AccessLogEntry
         * @description One access to a client's records: who, what, when, from where. Staff and token names
         *     are not client PHI; nothing of the client is in it.
         * @example {
         *       "action": "client.read",
         *       "actor_name": "Dr Example Clinician",
         *       "actor_role": "clinician",
         *       "actor_user_id": "00000000-0000-4000-8000-0000000000a1",
         *       "id": 4182,
         *       "ip_address": "203.0.113.7",
         *       "kind": "chart_read",
         *       "occurred_at": "2025-01-15T10:14:37Z",
         *       "resource_type": "client",
         *       "token_name": null,
         *       "via": "ui"
         *     }
         */
        AccessLogEntry: {
            /**
             * Action
             * @description The audit action, e.g. `client.read`
             */
            action: string;
            /**
             * Actor Name
             * @description The user's display name, or sign-in address; for a service account's token, the service account's name
             */
            actor_name: string | null;
            /** Actor Role */
            actor_role: string | null;
            /** Actor User Id */
            actor_user_id: string | null;
            /**
             * Id
             * @description The audit event's id
             */
            id: number;
            /** Ip Address */
            ip_address: string | null;
            /**
             * Kind
             * @description chart_read: the record was read; list_appearance: the client (or their note or appointment) was in a list or search, as a summary; change; export: data left as a file; access_log: this history was read; other
             * @enum {string}
             */
            kind: "chart_read" | "list_appearance" | "change" | "export" | "access_log" | "other";
            /**
             * Occurred At
             * Format: date-time
             */
            occurred_at: string;
            /**
             * Resource Type
             * @description client, session (a note) or appointment
             */
            resource_type: string | null;
            /**
             * Token Name
             * @description The API token's name, when one was used
             */
            token_name: string | null;
            /**
             * Via
             * @description ui: a signed-in session; token: an API token; system: a server command
             * @enum {string}
             */
            via: "ui" | "token" | "system";
        };
        /**
         * AddendumRead
         * @description One amendment of a signed note: the version it made, by whom, when and why (the
         *     content it replaced is in `GET /sessions/{id}/versions`).
         */
        AddendumRead: {
            /**
             * Amended At
             * Format: date-time
             */
            amended_at: string;
            /** Amended By */
            amended_by: string | null;
            /**
             * Reason
             * @description Null for amendments made before reasons were required
             */
            reason: string | null;
            /**
             * Version
             * @description The note's version the amendment made
             */
            version: number;
        };
        /**
         * AppointmentClient
         * @description The client's names (PHI), for drawing the calendar without a client list.
         */
        AppointmentClient: {
            /** First Name */
            first_name: string;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Last Name */
            last_name: string;
        };
        /** AppointmentClinician */
        AppointmentClinician: {
            /**
             * Display Name
             * @description The user's display name, or their email if unset
             */
            display_name: string;
            /**
             * Id
             * Format: uuid
             */
            id: string;
        };
        /**
         * AppointmentCreate
         * @description A new calendar entry for a client of your workspace. Times need a UTC offset.
         * @example {
         *       "client_id": "00000000-0000-4000-8000-000000000001",
         *       "clinician_id": "00000000-0000-4000-8000-0000000000c1",
         *       "ends_at": "2025-01-15T09:50:00+01:00",
         *       "notes": "Example: first session.",
         *       "room": "Room 2",
         *       "starts_at": "2025-01-15T09:00:00+01:00"
         *     }
         */
        AppointmentCreate: {
            /**
             * Allow Overlap
             * @description Book it even if it overlaps another appointment (not cancelled) of the same clinician, the same client or the same room; otherwise such an overlap is 409 `appointment_conflict` naming the conflicting appointments and what they share
             * @default false
             */
            allow_overlap?: boolean;
            /**
             * Client Id
             * Format: uuid
             * @description A client of your workspace, not archived
             */
            client_id: string;
            /**
             * Clinician Id
             * @description An active user of your workspace whose calendar it goes on; omitted or null: you
             */
            clinician_id?: string | null;
            /**
             * Ends At
             * Format: date-time
             * @description After starts_at, at most 24 hours later
             */
            ends_at: string;
            /** External Id */
            external_id?: string | null;
            /**
             * Location
             * @example Main building, 2nd floor
             */
            location?: string | null;
            /**
             * Metadata
             * @description Your own key-value strings (at most 50 keys of up to 40 characters, values of up to 500), encrypted like PHI
             * @example {
             *       "crm_segment": "weekday-mornings"
             *     }
             */
            metadata?: {
                [key: string]: string;
            };
            /**
             * Notes
             * @description Scheduling notes, up to 5,000 characters
             */
            notes?: string | null;
            /**
             * Room
             * @description A short label such as `Room 2` (not PHI: stored plain so overlaps per room can be checked, case-insensitively); blank is none
             * @example Room 2
             */
            room?: string | null;
            /**
             * Starts At
             * Format: date-time
             */
            starts_at: string;
            /**
             * Status
             * @default scheduled
             * @enum {string}
             */
            status?: "scheduled" | "attended" | "cancelled" | "no-show";
        };
        /**
         * AppointmentRead
         * @example {
         *       "client": {
         *         "first_name": "Ada",
         *         "id": "00000000-0000-4000-8000-000000000001",
         *         "last_name": "Example"
         *       },
         *       "client_id": "00000000-0000-4000-8000-000000000001",
         *       "clinician": {
         *         "display_name": "Dr. Example",
         *         "id": "00000000-0000-4000-8000-0000000000c1"
         *       },
         *       "clinician_id": "00000000-0000-4000-8000-0000000000c1",
         *       "created_at": "2025-01-10T14:25:00Z",
         *       "ends_at": "2025-01-15T08:50:00Z",
         *       "external_id": "sched-000123",
         *       "id": "00000000-0000-4000-8000-0000000000e1",
         *       "location": "Main building, 2nd floor",
         *       "metadata": {
         *         "scheduler": "online-booking"
         *       },
         *       "notes": "Example: first session.",
         *       "room": "Room 2",
         *       "series_id": null,
         *       "starts_at": "2025-01-15T08:00:00Z",
         *       "status": "scheduled",
         *       "updated_at": "2025-01-10T14:25:00Z"
         *     }
         */
        AppointmentRead: {
            /** @description The client's names; null for an API token without `clients:read` */
            client: components["schemas"]["AppointmentClient"] | null;
            /**
             * Client Id
             * Format: uuid
             */
            client_id: string;
            clinician: components["schemas"]["AppointmentClinician"];
            /**
             * Clinician Id
             * Format: uuid
             */
            clinician_id: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Ends At
             * Format: date-time
             */
            ends_at: string;
            /**
             * External Id
             * @description Your own id of the appointment
             */
            external_id?: string | null;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /**
             * Location
             * @example Main building, 2nd floor
             */
            location?: string | null;
            /**
             * Metadata
             * @description Your own strings
             */
            metadata?: {
                [key: string]: string;
            };
            /**
             * Notes
             * @description Scheduling notes, up to 5,000 characters
             */
            notes?: string | null;
            /**
             * Room
             * @description A short label such as `Room 2` (not PHI: stored plain so overlaps per room can be checked, case-insensitively); blank is none
             * @example Room 2
             */
            room?: string | null;
            /**
             * Series Id
             * @description Shared by the occurrences of a series
             */
            series_id: string | null;
            /**
             * Starts At
             * Format: date-time
             */
            starts_at: string;
            /**
             * Status
             * @enum {string}
             */
            status: "scheduled" | "attended" | "cancelled" | "no-show";
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /**
         * AppointmentSeriesCreate
         * @description A recurring booking: the appointment as for `POST /appointments` (its times are the
         *     first occurrence's) and how it repeats. Each occurrence becomes an appointment of its
         *     own, sharing a `series_id`; all are booked or none.
         * @example {
         *       "client_id": "00000000-0000-4000-8000-000000000001",
         *       "ends_at": "2025-01-15T09:50:00+01:00",
         *       "recurrence": {
         *         "count": 10,
         *         "every_weeks": 1
         *       },
         *       "starts_at": "2025-01-15T09:00:00+01:00"
         *     }
         */
        AppointmentSeriesCreate: {
            /**
             * Allow Overlap
             * @description Book it even if it overlaps another appointment (not cancelled) of the same clinician, the same client or the same room; otherwise such an overlap is 409 `appointment_conflict` naming the conflicting appointments and what they share
             * @default false
             */
            allow_overlap?: boolean;
            /**
             * Client Id
             * Format: uuid
             * @description A client of your workspace, not archived
             */
            client_id: string;
            /**
             * Clinician Id
             * @description An active user of your workspace whose calendar it goes on; omitted or null: you
             */
            clinician_id?: string | null;
            /**
             * Ends At
             * Format: date-time
             * @description After starts_at, at most 24 hours later
             */
            ends_at: string;
            /** External Id */
            external_id?: string | null;
            /**
             * Location
             * @example Main building, 2nd floor
             */
            location?: string | null;
            /**
             * Metadata
             * @description Your own key-value strings (at most 50 keys of up to 40 characters, values of up to 500), encrypted like PHI
             * @example {
             *       "crm_segment": "weekday-mornings"
             *     }
             */
            metadata?: {
                [key: string]: string;
            };
            /**
             * Notes
             * @description Scheduling notes, up to 5,000 characters
             */
            notes?: string | null;
            recurrence: components["schemas"]["Recurrence"];
            /**
             * Room
             * @description A short label such as `Room 2` (not PHI: stored plain so overlaps per room can be checked, case-insensitively); blank is none
             * @example Room 2
             */
            room?: string | null;
            /**
             * Starts At
             * Format: date-time
             */
            starts_at: string;
            /**
             * Status
             * @default scheduled
             * @enum {string}
             */
            status?: "scheduled" | "attended" | "cancelled" | "no-show";
        };
        /**
         * AppointmentSeriesRead
         * @example {
         *       "items": [
         *         {
         *           "client": {
         *             "first_name": "Ada",
         *             "id": "00000000-0000-4000-8000-000000000001",
         *             "last_name": "Example"
         *           },
         *           "client_id": "00000000-0000-4000-8000-000000000001",
         *           "clinician": {
         *             "display_name": "Dr. Example",
         *             "id": "00000000-0000-4000-8000-0000000000c1"
         *           },
         *           "clinician_id": "00000000-0000-4000-8000-0000000000c1",
         *           "created_at": "2025-01-10T14:25:00Z",
         *           "ends_at": "2025-01-15T08:50:00Z",
         *           "external_id": "sched-000123",
         *           "id": "00000000-0000-4000-8000-0000000000e1",
         *           "location": "Main building, 2nd floor",
         *           "metadata": {
         *             "scheduler": "online-booking"
         *           },
         *           "notes": "Example: first session.",
         *           "room": "Room 2",
         *           "series_id": "00000000-0000-4000-8000-0000000000f1",
         *           "starts_at": "2025-01-15T08:00:00Z",
         *           "status": "scheduled",
         *           "updated_at": "2025-01-10T14:25:00Z"
         *         }
         *       ],
         *       "series_id": "00000000-0000-4000-8000-0000000000f1"
         *     }
         */
        AppointmentSeriesRead: {
            /**
             * Items
             * @description The occurrences, by start time
             */
            items: components["schemas"]["AppointmentRead"][];
            /**
             * Series Id
             * Format: uuid
             */
            series_id: string;
        };
        /**
         * AppointmentUpdate
         * @description Send only what changes: reschedule (move or resize), hand it to another clinician,
         *     change the room, status, location or notes. Room, location and notes sent as null are
         *     cleared.
         * @example {
         *       "ends_at": "2025-01-16T14:50:00Z",
         *       "starts_at": "2025-01-16T14:00:00Z"
         *     }
         * @example {
         *       "clinician_id": "00000000-0000-4000-8000-0000000000c2",
         *       "room": "Room 3"
         *     }
         * @example {
         *       "status": "attended"
         *     }
         */
        AppointmentUpdate: {
            /**
             * Allow Overlap
             * @description Book it even if it overlaps another appointment (not cancelled) of the same clinician, the same client or the same room; otherwise such an overlap is 409 `appointment_conflict` naming the conflicting appointments and what they share
             * @default false
             */
            allow_overlap?: boolean;
            /**
             * Clinician Id
             * Format: uuid
             * @description An active user of your workspace
             */
            clinician_id?: string;
            /**
             * Ends At
             * Format: date-time
             */
            ends_at?: string;
            /**
             * External Id
             * @description null removes it
             */
            external_id?: string | null;
            /**
             * Location
             * @example Main building, 2nd floor
             */
            location?: string | null;
            /** Metadata */
            metadata?: {
                [key: string]: string | null;
            } | null;
            /**
             * Notes
             * @description Scheduling notes, up to 5,000 characters
             */
            notes?: string | null;
            /**
             * Room
             * @description A short label such as `Room 2` (not PHI: stored plain so overlaps per room can be checked, case-insensitively); blank is none
             * @example Room 2
             */
            room?: string | null;
            /**
             * Starts At
             * Format: date-time
             */
            starts_at?: string;
            /**
             * Status
             * @enum {string}
             */
            status?: "scheduled" | "attended" | "cancelled" | "no-show";
        };
        /**
         * AppointmentUpsert
         * @description `PUT /appointments/external/{external_id}`: a new appointment, or the changes to the
         *     one with that external id (the fields sent are set, the others kept, `metadata`
         *     merged; `client_id` cannot change).
         * @example {
         *       "client_id": "00000000-0000-4000-8000-000000000001",
         *       "ends_at": "2025-01-15T09:50:00+01:00",
         *       "metadata": {
         *         "scheduler": "online-booking"
         *       },
         *       "room": "Room 2",
         *       "starts_at": "2025-01-15T09:00:00+01:00"
         *     }
         */
        AppointmentUpsert: {
            /**
             * Allow Overlap
             * @description Book it even if it overlaps another appointment (not cancelled) of the same clinician, the same client or the same room; otherwise such an overlap is 409 `appointment_conflict` naming the conflicting appointments and what they share
             * @default false
             */
            allow_overlap?: boolean;
            /**
             * Client Id
             * Format: uuid
             * @description A client of your workspace, not archived
             */
            client_id: string;
            /**
             * Clinician Id
             * @description An active user of your workspace; omitted: you (on create)
             */
            clinician_id?: string | null;
            /**
             * Ends At
             * Format: date-time
             * @description After starts_at, at most 24 hours later
             */
            ends_at: string;
            /**
             * Location
             * @example Main building, 2nd floor
             */
            location?: string | null;
            /**
             * Metadata
             * @description Merged into the record's metadata: a key sent with a value sets it, a key sent as null or empty removes it, keys not sent stay
             * @example {
             *       "crm_segment": "evenings"
             *     }
             */
            metadata?: {
                [key: string]: string | null;
            };
            /**
             * Notes
             * @description Scheduling notes, up to 5,000 characters
             */
            notes?: string | null;
            /**
             * Room
             * @description A short label such as `Room 2` (not PHI: stored plain so overlaps per room can be checked, case-insensitively); blank is none
             * @example Room 2
             */
            room?: string | null;
            /**
             * Starts At
             * Format: date-time
             */
            starts_at: string;
            /**
             * Status
             * @enum {string}
             */
            status?: "scheduled" | "attended" | "cancelled" | "no-show";
        };
        /**
         * AttestationsRead
         * @description The statements a signer and a co-signer attest, at their current versions.
         * @example {
         *       "cosignature": {
         *         "text": "I have reviewed this note as the supervising clinician and agree with its content.",
         *         "version": 1
         *       },
         *       "signature": {
         *         "text": "I attest that I provided this service and that this note is an accurate and complete record of it.",
         *         "version": 1
         *       }
         *     }
         */
        AttestationsRead: {
            cosignature: components["schemas"]["AttestationStatement"];
            signature: components["schemas"]["AttestationStatement"];
        };
        /** AttestationStatement */
        AttestationStatement: {
            /** Text */
            text: string;
            /** Version */
            version: number;
        };
        /**
         * AuditEventRead
         * @example {
         *       "action": "session.update",
         *       "actor_kind": "session",
         *       "actor_name": "Dr Example Clinician",
         *       "actor_role": "clinician",
         *       "actor_token_id": null,
         *       "actor_user_id": "00000000-0000-4000-8000-0000000000a1",
         *       "details": {
         *         "fields": [
         *           "plan"
         *         ],
         *         "request_id": "6f1c2e0a9b7d4c3e8f5a1b2c3d4e5f60",
         *         "version": 3
         *       },
         *       "id": 4182,
         *       "ip_address": "203.0.113.7",
         *       "occurred_at": "2025-01-15T10:14:37Z",
         *       "resource_ids": [
         *         "00000000-0000-4000-8000-0000000000d1"
         *       ],
         *       "resource_type": "session",
         *       "service_account_id": null,
         *       "token_name": null
         *     }
         */
        AuditEventRead: {
            /** Action */
            action: string;
            /**
             * Actor Kind
             * @description session: a person signed in; token: a person's own API token; service_account: a service account's token (actor_name is then the account's name); system: no actor (a background job, a refused sign-in)
             * @enum {string}
             */
            actor_kind: "session" | "token" | "service_account" | "system";
            /**
             * Actor Name
             * @description The user's display name, or their sign-in address when they have none
             */
            actor_name: string | null;
            /**
             * Actor Role
             * @description owner or clinician
             */
            actor_role: string | null;
            /** Actor Token Id */
            actor_token_id: string | null;
            /** Actor User Id */
            actor_user_id: string | null;
            /** Details */
            details: {
                [key: string]: unknown;
            } | null;
            /** Id */
            id: number;
            /** Ip Address */
            ip_address: string | null;
            /**
             * Occurred At
             * Format: date-time
             */
            occurred_at: string;
            /** Resource Ids */
            resource_ids: string[] | null;
            /** Resource Type */
            resource_type: string | null;
            /**
             * Service Account Id
             * @description The service account whose token acted, if one did
             */
            service_account_id: string | null;
            /**
             * Token Name
             * @description The API token's name, when one was used
             */
            token_name: string | null;
        };
        /**
         * AuditReadiness
         * @description The sealer: events committed but not sealed yet, and how long the oldest has waited.
         */
        AuditReadiness: {
            /** Error */
            error?: string | null;
            /** Lag Budget Seconds */
            lag_budget_seconds: number;
            /** Lag Seconds */
            lag_seconds: number | null;
            /** Last Checkpoint At */
            last_checkpoint_at: string | null;
            /** Last Round At */
            last_round_at: string | null;
            /** Sealer Running */
            sealer_running: boolean;
            /** Unsealed Events */
            unsealed_events: number | null;
            /** Untrusted Seals */
            untrusted_seals?: number | null;
        };
        /**
         * Batch[AppointmentRead]
         * @example {
         *       "items": [
         *         {
         *           "client": {
         *             "first_name": "Ada",
         *             "id": "00000000-0000-4000-8000-000000000001",
         *             "last_name": "Example"
         *           },
         *           "client_id": "00000000-0000-4000-8000-000000000001",
         *           "clinician": {
         *             "display_name": "Dr. Example",
         *             "id": "00000000-0000-4000-8000-0000000000c1"
         *           },
         *           "clinician_id": "00000000-0000-4000-8000-0000000000c1",
         *           "created_at": "2025-01-10T14:25:00Z",
         *           "ends_at": "2025-01-15T08:50:00Z",
         *           "external_id": "sched-000123",
         *           "id": "00000000-0000-4000-8000-0000000000e1",
         *           "location": "Main building, 2nd floor",
         *           "metadata": {
         *             "scheduler": "online-booking"
         *           },
         *           "notes": "Example: first session.",
         *           "room": "Room 2",
         *           "series_id": null,
         *           "starts_at": "2025-01-15T08:00:00Z",
         *           "status": "scheduled",
         *           "updated_at": "2025-01-10T14:25:00Z"
         *         }
         *       ],
         *       "not_found": [
         *         "00000000-0000-4000-8000-000000000002"
         *       ]
         *     }
         */
        Batch_AppointmentRead_: {
            /**
             * Items
             * @description The records you may read, in the order asked
             */
            items: components["schemas"]["AppointmentRead"][];
            /**
             * Not Found
             * @description Ids of records that do not exist, are deleted, or that you may not read (another practice, outside your care team); or whose protected fields could not be decrypted (each such record is also in the audit trail)
             */
            not_found: string[];
        };
        /**
         * Batch[ClientRead]
         * @example {
         *       "items": [
         *         {
         *           "address": "1 Example Street, Exampletown",
         *           "archived_at": null,
         *           "created_at": "2025-01-10T14:20:00Z",
         *           "date_of_birth": "1985-04-12",
         *           "email": "example.client@example.org",
         *           "emergency_contact_name": "Example Contact",
         *           "emergency_contact_phone": "+1 555 0101",
         *           "external_id": "crm-000123",
         *           "first_name": "Example",
         *           "id": "00000000-0000-4000-8000-000000000001",
         *           "last_name": "Client",
         *           "medical_history": "Example history: none relevant.",
         *           "metadata": {
         *             "crm_segment": "weekday-mornings"
         *           },
         *           "notes": "Example: prefers afternoon appointments.",
         *           "phone": "+1 555 0100",
         *           "updated_at": "2025-01-10T14:20:00Z"
         *         }
         *       ],
         *       "not_found": [
         *         "00000000-0000-4000-8000-000000000002"
         *       ]
         *     }
         */
        Batch_ClientRead_: {
            /**
             * Items
             * @description The records you may read, in the order asked
             */
            items: components["schemas"]["ClientRead"][];
            /**
             * Not Found
             * @description Ids of records that do not exist, are deleted, or that you may not read (another practice, outside your care team); or whose protected fields could not be decrypted (each such record is also in the audit trail)
             */
            not_found: string[];
        };
        /**
         * Batch[SessionNoteRead]
         * @example {
         *       "items": [
         *         {
         *           "addenda": [],
         *           "appointment_id": null,
         *           "assessment": "Example assessment: steady progress toward the example goal.",
         *           "attestation_version": null,
         *           "author_id": "00000000-0000-4000-8000-0000000000a1",
         *           "client_id": "00000000-0000-4000-8000-000000000001",
         *           "cosign_attestation_version": null,
         *           "cosign_status": null,
         *           "cosigned_at": null,
         *           "cosigned_by": null,
         *           "created_at": "2025-01-15T10:02:11Z",
         *           "deleted_at": null,
         *           "duration_minutes": 50,
         *           "external_id": "ehr-note-000123",
         *           "finalized_at": null,
         *           "id": "00000000-0000-4000-8000-0000000000d1",
         *           "late_entry": false,
         *           "metadata": {
         *             "source": "dictation"
         *           },
         *           "objective": "Example observation: calm, on time, engaged throughout.",
         *           "plan": "Example plan: continue weekly sessions; review in four weeks.",
         *           "psychotherapy_note": false,
         *           "session_date": "2025-01-15",
         *           "signed_at": null,
         *           "signed_by": null,
         *           "status": "draft",
         *           "subjective": "Example Client reports sleeping better since the last visit.",
         *           "updated_at": "2025-01-15T10:14:37Z",
         *           "version": 3
         *         }
         *       ],
         *       "not_found": [
         *         "00000000-0000-4000-8000-000000000002"
         *       ]
         *     }
         */
        Batch_SessionNoteRead_: {
            /**
             * Items
             * @description The records you may read, in the order asked
             */
            items: components["schemas"]["SessionNoteRead"][];
            /**
             * Not Found
             * @description Ids of records that do not exist, are deleted, or that you may not read (another practice, outside your care team); or whose protected fields could not be decrypted (each such record is also in the audit trail)
             */
            not_found: string[];
        };
        /**
         * BatchGet
         * @example {
         *       "ids": [
         *         "00000000-0000-4000-8000-000000000001",
         *         "00000000-0000-4000-8000-000000000002"
         *       ]
         *     }
         */
        BatchGet: {
            /**
             * Ids
             * @description 1 to 100 ids; a repeated id is read once
             */
            ids: string[];
        };
        /**
         * BreakTheGlass
         * @description Why you must open a chart outside your care team. Kept sealed like PHI and shown to
         *     the practice's owners; never written to the audit trail or logs.
         * @example {
         *       "reason": "Covering for the client's clinician"
         *     }
         */
        BreakTheGlass: {
            /** Reason */
            reason: string;
        };
        /**
         * CancelledOccurrences
         * @example {
         *       "cancelled_ids": [
         *         "00000000-0000-4000-8000-0000000000e1",
         *         "00000000-0000-4000-8000-0000000000e2"
         *       ]
         *     }
         */
        CancelledOccurrences: {
            /**
             * Cancelled Ids
             * @description The occurrences cancelled, by start
             */
            cancelled_ids: string[];
        };
        /** CareTeamMemberRead */
        CareTeamMemberRead: {
            /** Display Name */
            display_name: string;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /**
             * Role
             * @description `owner` or `clinician`
             */
            role: string;
        };
        /**
         * CareTeamRead
         * @description Who is assigned to the client: under the practice's `care_team` chart access, the
         *     clinicians who see the chart (owners see every chart).
         * @example {
         *       "client_id": "00000000-0000-4000-8000-0000000000d1",
         *       "clinicians": [
         *         {
         *           "display_name": "Dr. Example",
         *           "id": "00000000-0000-4000-8000-0000000000a2",
         *           "role": "clinician"
         *         }
         *       ]
         *     }
         */
        CareTeamRead: {
            /**
             * Client Id
             * Format: uuid
             */
            client_id: string;
            /** Clinicians */
            clinicians: components["schemas"]["CareTeamMemberRead"][];
        };
        /**
         * CareTeamUpdate
         * @description The whole care team: the users listed, and only they, are on it afterwards.
         * @example {
         *       "clinician_ids": [
         *         "00000000-0000-4000-8000-0000000000a2"
         *       ]
         *     }
         */
        CareTeamUpdate: {
            /**
             * Clinician Ids
             * @description Active users of the practice (an empty list empties it)
             */
            clinician_ids: string[];
        };
        /**
         * ChartAccessGrantRead
         * @description A time-limited opening of one chart (the record, its appointments and notes).
         * @example {
         *       "client_id": "00000000-0000-4000-8000-0000000000d1",
         *       "expires_at": "2025-01-15T10:00:00Z",
         *       "id": "00000000-0000-4000-8000-0000000000f1"
         *     }
         */
        ChartAccessGrantRead: {
            /**
             * Client Id
             * Format: uuid
             */
            client_id: string;
            /**
             * Expires At
             * Format: date-time
             */
            expires_at: string;
            /**
             * Id
             * Format: uuid
             */
            id: string;
        };
        /**
         * ChartAccessGrantReview
         * @description A break-the-glass grant as the practice's owners review it.
         * @example {
         *       "display_name": "Dr. Example",
         *       "expires_at": "2025-01-15T10:00:00Z",
         *       "granted_at": "2025-01-15T09:00:00Z",
         *       "id": "00000000-0000-4000-8000-0000000000f1",
         *       "reason": "Covering for the client's clinician",
         *       "user_id": "00000000-0000-4000-8000-0000000000a3"
         *     }
         */
        ChartAccessGrantReview: {
            /** Display Name */
            display_name: string;
            /**
             * Expires At
             * Format: date-time
             */
            expires_at: string;
            /**
             * Granted At
             * Format: date-time
             */
            granted_at: string;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Reason */
            reason: string;
            /**
             * User Id
             * Format: uuid
             */
            user_id: string;
        };
        /**
         * ClientCreate
         * @description A new client; first and last name are required.
         * @example {
         *       "address": "1 Example Street, Exampletown",
         *       "date_of_birth": "1985-04-12",
         *       "email": "example.client@example.org",
         *       "emergency_contact_name": "Example Contact",
         *       "emergency_contact_phone": "+1 555 010 0101",
         *       "external_id": "crm-000123",
         *       "first_name": "Example",
         *       "last_name": "Client",
         *       "medical_history": "Example history: none relevant.",
         *       "metadata": {
         *         "crm_segment": "weekday-mornings"
         *       },
         *       "notes": "Example: prefers afternoon appointments.",
         *       "phone": "+1 555 010 0100"
         *     }
         */
        ClientCreate: {
            /**
             * Address
             * @description Line breaks allowed
             */
            address?: string | null;
            /**
             * Date Of Birth
             * @description Not in the future
             */
            date_of_birth?: string | null;
            /**
             * Email
             * @description Found exactly by `POST /clients/search`
             */
            email?: string | null;
            /** Emergency Contact Name */
            emergency_contact_name?: string | null;
            /** Emergency Contact Phone */
            emergency_contact_phone?: string | null;
            /** External Id */
            external_id?: string | null;
            /** First Name */
            first_name: string;
            /** Last Name */
            last_name: string;
            /** Medical History */
            medical_history?: string | null;
            /**
             * Metadata
             * @description Your own key-value strings (at most 50 keys of up to 40 characters, values of up to 500), encrypted like PHI
             * @example {
             *       "crm_segment": "weekday-mornings"
             *     }
             */
            metadata?: {
                [key: string]: string;
            };
            /** Notes */
            notes?: string | null;
            /**
             * Phone
             * @description Found by `q` however it is written
             */
            phone?: string | null;
        };
        /**
         * ClientImportResult
         * @example {
         *       "created": 1,
         *       "imported": 2,
         *       "results": [
         *         {
         *           "action": "created",
         *           "external_id": "crm-000123",
         *           "id": "00000000-0000-4000-8000-000000000001",
         *           "line": 2
         *         },
         *         {
         *           "action": "updated",
         *           "external_id": "crm-000124",
         *           "id": "00000000-0000-4000-8000-000000000002",
         *           "line": 3
         *         }
         *       ],
         *       "updated": 1
         *     }
         */
        ClientImportResult: {
            /** Created */
            created: number;
            /**
             * Imported
             * @description Rows written: created plus updated
             */
            imported: number;
            /**
             * Results
             * @description One per row, in file order
             */
            results: components["schemas"]["ImportedClient"][];
            /** Updated */
            updated: number;
        };
        /**
         * ClientRead
         * @example {
         *       "address": "1 Example Street, Exampletown",
         *       "archived_at": null,
         *       "created_at": "2025-01-10T14:20:00Z",
         *       "date_of_birth": "1985-04-12",
         *       "email": "example.client@example.org",
         *       "emergency_contact_name": "Example Contact",
         *       "emergency_contact_phone": "+1 555 0101",
         *       "external_id": "crm-000123",
         *       "first_name": "Example",
         *       "id": "00000000-0000-4000-8000-000000000001",
         *       "last_name": "Client",
         *       "medical_history": "Example history: none relevant.",
         *       "metadata": {
         *         "crm_segment": "weekday-mornings"
         *       },
         *       "notes": "Example: prefers afternoon appointments.",
         *       "phone": "+1 555 0100",
         *       "updated_at": "2025-01-10T14:20:00Z"
         *     }
         */
        ClientRead: {
            /**
             * Address
             * @description Line breaks allowed
             */
            address?: string | null;
            /**
             * Archived At
             * @description Set while the client is archived
             */
            archived_at: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Date Of Birth
             * @description Not in the future
             */
            date_of_birth?: string | null;
            /**
             * Email
             * @description Found exactly by `POST /clients/search`
             */
            email?: string | null;
            /** Emergency Contact Name */
            emergency_contact_name?: string | null;
            /** Emergency Contact Phone */
            emergency_contact_phone?: string | null;
            /**
             * External Id
             * @description Your own id of the client
             */
            external_id?: string | null;
            /** First Name */
            first_name: string;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Last Name */
            last_name: string;
            /** Medical History */
            medical_history?: string | null;
            /**
             * Metadata
             * @description Your own strings
             */
            metadata?: {
                [key: string]: string;
            };
            /** Notes */
            notes?: string | null;
            /**
             * Phone
             * @description Found by `q` however it is written
             */
            phone?: string | null;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /**
         * ClientSearch
         * @description A client search. In a body, not a URL: the term is PHI.
         * @example {
         *       "page": 1,
         *       "q": "example.client@example.org"
         *     }
         */
        ClientSearch: {
            /**
             * Include Archived
             * @description Include archived clients
             * @default false
             */
            include_archived?: boolean;
            /**
             * Page
             * @description 1-based page number
             * @default 1
             */
            page?: number;
            /**
             * Page Size
             * @description items per page
             * @default 20
             */
            page_size?: number;
            /**
             * Q
             * @description An email or phone number (exact match, however it is written), or part of a first or last name (case-insensitive); empty or omitted lists everyone
             */
            q?: string | null;
        };
        /**
         * ClientSummary
         * @description What a list shows of a client: the minimum necessary to find them (45 CFR
         *     164.502(b)). The whole record is `GET /clients/{client_id}`, the audited chart read.
         * @example {
         *       "archived_at": null,
         *       "date_of_birth": "1985-04-12",
         *       "first_name": "Example",
         *       "id": "00000000-0000-4000-8000-000000000001",
         *       "last_name": "Client",
         *       "updated_at": "2025-01-10T14:20:00Z"
         *     }
         */
        ClientSummary: {
            /**
             * Archived At
             * @description Set while the client is archived
             */
            archived_at: string | null;
            /** Date Of Birth */
            date_of_birth: string | null;
            /** First Name */
            first_name: string;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Last Name */
            last_name: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /**
         * ClientUpdate
         * @description Send only the fields that change. An optional field sent as null (or blank) is
         *     cleared; first and last name can change but never be cleared.
         * @example {
         *       "phone": "+1 555 010 0199"
         *     }
         */
        ClientUpdate: {
            /**
             * Address
             * @description Line breaks allowed
             */
            address?: string | null;
            /**
             * Date Of Birth
             * @description Not in the future
             */
            date_of_birth?: string | null;
            /**
             * Email
             * @description Found exactly by `POST /clients/search`
             */
            email?: string | null;
            /** Emergency Contact Name */
            emergency_contact_name?: string | null;
            /** Emergency Contact Phone */
            emergency_contact_phone?: string | null;
            /**
             * External Id
             * @description null removes it
             */
            external_id?: string | null;
            /** First Name */
            first_name?: string;
            /** Last Name */
            last_name?: string;
            /** Medical History */
            medical_history?: string | null;
            /** Metadata */
            metadata?: {
                [key: string]: string | null;
            } | null;
            /** Notes */
            notes?: string | null;
            /**
             * Phone
             * @description Found by `q` however it is written
             */
            phone?: string | null;
        };
        /**
         * ClientUpsert
         * @description `PUT /clients/external/{external_id}`: a new client (first and last name required),
         *     or the changes to the one with that external id: the fields sent are set, the fields
         *     left out are kept, `metadata` is merged.
         * @example {
         *       "email": "example.client@example.org",
         *       "first_name": "Example",
         *       "last_name": "Client",
         *       "metadata": {
         *         "crm_segment": "weekday-mornings"
         *       }
         *     }
         */
        ClientUpsert: {
            /**
             * Address
             * @description Line breaks allowed
             */
            address?: string | null;
            /**
             * Date Of Birth
             * @description Not in the future
             */
            date_of_birth?: string | null;
            /**
             * Email
             * @description Found exactly by `POST /clients/search`
             */
            email?: string | null;
            /** Emergency Contact Name */
            emergency_contact_name?: string | null;
            /** Emergency Contact Phone */
            emergency_contact_phone?: string | null;
            /** First Name */
            first_name: string;
            /** Last Name */
            last_name: string;
            /** Medical History */
            medical_history?: string | null;
            /**
             * Metadata
             * @description Merged into the record's metadata: a key sent with a value sets it, a key sent as null or empty removes it, keys not sent stay
             * @example {
             *       "crm_segment": "evenings"
             *     }
             */
            metadata?: {
                [key: string]: string | null;
            };
            /** Notes */
            notes?: string | null;
            /**
             * Phone
             * @description Found by `q` however it is written
             */
            phone?: string | null;
        };
        /**
         * ClinicianRead
         * @description A calendar of the practice: any signed-in user may list them (no email, no role
         *     settings), to choose whose calendars to show and whom to book with.
         */
        ClinicianRead: {
            /**
             * Active
             * @description False for a disabled user: not bookable
             */
            active: boolean;
            /**
             * Display Name
             * @description The user's display name, or their email if unset
             */
            display_name: string;
            /**
             * Id
             * Format: uuid
             */
            id: string;
        };
        /** DatabaseReadiness */
        DatabaseReadiness: {
            /** Error */
            error?: string | null;
            /** Expected Revision */
            expected_revision: string | null;
            /**
             * Latency Ms
             * @description Of this check's round trips
             */
            latency_ms?: number | null;
            /** Reachable */
            reachable: boolean;
            /**
             * Recent Failure
             * @description A failure code requests met lately, e.g. storage_full
             */
            recent_failure?: string | null;
            /** Schema Revision */
            schema_revision: string | null;
            /**
             * Writable
             * @description The last write probe committed (null: not probed, e.g. schema behind)
             */
            writable?: boolean | null;
            /** Write Probed At */
            write_probed_at?: string | null;
        };
        /** ErrorDetail */
        ErrorDetail: {
            /**
             * Code
             * @description Stable, machine-readable
             * @example not_found
             */
            code: string;
            /** Details */
            details?: unknown;
            /**
             * Message
             * @description For people; never contains PHI
             */
            message: string;
        };
        /** ErrorResponse */
        ErrorResponse: {
            error: components["schemas"]["ErrorDetail"];
        };
        /**
         * EventHead
         * @example {
         *       "cursor": "ev_AQAAAAAAAAPpAAAAAAAAAHs"
         *     }
         */
        EventHead: {
            /**
             * Cursor
             * @description After every change made so far: pass it as `after` to read only what changes from now on
             */
            cursor: string;
        };
        /**
         * EventPage
         * @example {
         *       "data": [
         *         {
         *           "id": "ev_AQAAAAAAAAPpAAAAAAAAAHs",
         *           "occurred_at": "2025-01-15T10:14:37Z",
         *           "resource": {
         *             "id": "00000000-0000-4000-8000-0000000000c1",
         *             "type": "client"
         *           },
         *           "type": "client.updated"
         *         }
         *       ],
         *       "has_more": false,
         *       "next_cursor": "ev_AQAAAAAAAAPpAAAAAAAAAHs"
         *     }
         */
        EventPage: {
            /**
             * Data
             * @description Oldest first
             */
            data: components["schemas"]["EventRead"][];
            /**
             * Has More
             * @description More events are ready now: poll again without waiting
             */
            has_more: boolean;
            /**
             * Next Cursor
             * @description Pass as `after` in the next poll (the cursor sent when `data` is empty)
             */
            next_cursor: string;
        };
        /** EventRead */
        EventRead: {
            /**
             * Id
             * @description The event's cursor: pass it as `after` to read what follows
             */
            id: string;
            /**
             * Occurred At
             * Format: date-time
             * @description When the change's transaction began
             */
            occurred_at: string;
            resource: components["schemas"]["EventResource"];
            /**
             * Type
             * @description `<resource>.<change>`, such as client.updated
             */
            type: string;
        };
        /** EventResource */
        EventResource: {
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /**
             * Type
             * @description client, appointment, note, user or workspace
             */
            type: string;
        };
        /** ImportedClient */
        ImportedClient: {
            /**
             * Action
             * @description `updated`: by an upsert
             * @enum {string}
             */
            action: "created" | "updated";
            /**
             * External Id
             * @description The row's `external_id`, if it had one
             */
            external_id: string | null;
            /**
             * Id
             * Format: uuid
             * @description The client the row created or updated
             */
            id: string;
            /**
             * Line
             * @description The row's line in the file (the CSV header is line 1)
             */
            line: number;
        };
        /** KeyRingReadiness */
        KeyRingReadiness: {
            /** Active Key Age Seconds */
            active_key_age_seconds: number | null;
            /** Active Version */
            active_version: number | null;
            /** Consecutive Failures */
            consecutive_failures: number;
            /**
             * Data Key Warnings
             * @default []
             */
            data_key_warnings?: string[];
            kms?: components["schemas"]["KmsReadiness"] | null;
            /** Last Refresh At */
            last_refresh_at: string | null;
            /** Last Refresh Error */
            last_refresh_error: string | null;
            /** Last Success At */
            last_success_at: string | null;
            /** Loaded */
            loaded: boolean;
            /** Pending Activates At */
            pending_activates_at?: string | null;
            /** Pending Version */
            pending_version?: number | null;
            /**
             * Provider
             * @default local
             */
            provider?: string;
            /** Refresh Interval Seconds */
            refresh_interval_seconds: number;
            /** Refused Ring Reason */
            refused_ring_reason?: string | null;
            /** Source */
            source: string;
            /** Versions */
            versions: {
                [key: string]: string;
            };
        };
        /**
         * KmsKeyReadiness
         * @description A KMS key this process uses, as KMS last described it (an id, never a key).
         */
        KmsKeyReadiness: {
            /**
             * Checked At
             * Format: date-time
             */
            checked_at: string;
            /** Installation */
            installation: boolean;
            /** Key Id */
            key_id: string;
            /** State */
            state: string;
        };
        /**
         * KmsReadiness
         * @description CAREVAULT_KEY_PROVIDER=kms: the keys, and the practices this process serves.
         */
        KmsReadiness: {
            /** Calls */
            calls: {
                [key: string]: number;
            };
            /** Installation Key Id */
            installation_key_id: string;
            /** Keys */
            keys: components["schemas"]["KmsKeyReadiness"][];
            /** Practices Cached */
            practices_cached: number;
            /** Practices Refused */
            practices_refused: {
                [key: string]: number;
            };
        };
        /**
         * ListenerReadiness
         * @description One carrier's notice listener (carevault.notifications).
         */
        ListenerReadiness: {
            /**
             * Error
             * @description The last failure's class
             */
            error?: string | null;
            /**
             * Since
             * Format: date-time
             * @description When it started listening, or lost its connection
             */
            since: string;
            /**
             * State
             * @enum {string}
             */
            state: "listening" | "reconnecting";
        };
        /**
         * Liveness
         * @example {
         *       "status": "ok"
         *     }
         */
        Liveness: {
            /**
             * Status
             * @default ok
             * @constant
             */
            status?: "ok";
        };
        /**
         * LoginRequest
         * @example {
         *       "email": "clinician@example.org",
         *       "password": "a passphrase"
         *     }
         */
        LoginRequest: {
            /**
             * Email
             * @example owner@demo.carevault.local
             */
            email: string;
            /**
             * Password
             * @example carevault-demo
             */
            password: string;
        };
        /**
         * LoginResponse
         * @example {
         *       "csrf_token": "q2v7Yk1nR0x8WmJ3c0t5Tz",
         *       "idle_timeout_seconds": 900,
         *       "user": {
         *         "display_name": "Example Clinician",
         *         "email": "clinician@example.org",
         *         "id": "00000000-0000-4000-8000-0000000000a1",
         *         "must_change_password": false,
         *         "requires_cosign": false,
         *         "role": "clinician"
         *       },
         *       "workspace": {
         *         "break_the_glass": false,
         *         "chart_access": "practice",
         *         "id": "00000000-0000-4000-8000-0000000000b1",
         *         "late_entry_hours": 72,
         *         "name": "Example Practice",
         *         "phone_region": "DE",
         *         "time_zone": "Europe/Berlin"
         *       }
         *     }
         */
        LoginResponse: {
            /**
             * Csrf Token
             * @description Send as X-CSRF-Token on every state-changing request
             */
            csrf_token: string;
            /**
             * Draft Key
             * @description The web UI encrypts unsaved text it keeps in the browser with this key (base64url, 32 bytes; the same for every sign-in of the user; keep it in memory only)
             */
            draft_key?: string | null;
            /** Idle Timeout Seconds */
            idle_timeout_seconds: number;
            /**
             * Session Expires At
             * @description When this login session ends at the latest (12 hours)
             */
            session_expires_at?: string | null;
            user: components["schemas"]["UserRead"];
            workspace: components["schemas"]["WorkspaceRead"];
        };
        /**
         * MeResponse
         * @example {
         *       "auth_method": "token",
         *       "user": {
         *         "display_name": "Example Clinician",
         *         "email": "clinician@example.org",
         *         "id": "00000000-0000-4000-8000-0000000000a1",
         *         "must_change_password": false,
         *         "requires_cosign": false,
         *         "role": "clinician"
         *       },
         *       "workspace": {
         *         "break_the_glass": false,
         *         "chart_access": "practice",
         *         "id": "00000000-0000-4000-8000-0000000000b1",
         *         "late_entry_hours": 72,
         *         "name": "Example Practice",
         *         "phone_region": "DE",
         *         "time_zone": "Europe/Berlin"
         *       }
         *     }
         */
        MeResponse: {
            /**
             * Auth Method
             * @enum {string}
             */
            auth_method: "session" | "token";
            /**
             * Csrf Token
             * @description For cookie sessions: the X-CSRF-Token to send with changes
             */
            csrf_token?: string | null;
            /**
             * Draft Key
             * @description For cookie sessions: the key the web UI encrypts unsaved text with (see POST /auth/login)
             */
            draft_key?: string | null;
            /** Idle Timeout Seconds */
            idle_timeout_seconds?: number | null;
            /** @description For a service account's token: the account; `user` then stands for the practice acting through it (no person) */
            service_account?: components["schemas"]["ServiceAccountRef"] | null;
            /** Session Expires At */
            session_expires_at?: string | null;
            user: components["schemas"]["UserRead"];
            workspace: components["schemas"]["WorkspaceRead"];
        };
        /**
         * NoteStatus
         * @enum {string}
         */
        NoteStatus: "draft" | "finalized";
        /**
         * NotificationsReadiness
         * @description Notices from other processes (shreds, key activations): optional. A listener down
         *     only delays what a notice speeds up (the per-request checks still hold), so it makes
         *     the process degraded, never unavailable.
         */
        NotificationsReadiness: {
            /** @description LISTEN on PostgreSQL (null: not listened on) */
            postgres?: components["schemas"]["ListenerReadiness"] | null;
            /** @description Redis pub/sub (null: no CAREVAULT_REDIS_URL) */
            redis?: components["schemas"]["ListenerReadiness"] | null;
        };
        /**
         * Page[AccessLogEntry]
         * @example {
         *       "items": [
         *         {
         *           "action": "client.read",
         *           "actor_name": "Dr Example Clinician",
         *           "actor_role": "clinician",
         *           "actor_user_id": "00000000-0000-4000-8000-0000000000a1",
         *           "id": 4182,
         *           "ip_address": "203.0.113.7",
         *           "kind": "chart_read",
         *           "occurred_at": "2025-01-15T10:14:37Z",
         *           "resource_type": "client",
         *           "token_name": null,
         *           "via": "ui"
         *         }
         *       ],
         *       "page": 2,
         *       "page_size": 20,
         *       "total": 21
         *     }
         */
        Page_AccessLogEntry_: {
            /** Items */
            items: components["schemas"]["AccessLogEntry"][];
            /** Page */
            page: number;
            /** Page Size */
            page_size: number;
            /** Total */
            total: number;
        };
        /**
         * Page[AuditEventRead]
         * @example {
         *       "items": [
         *         {
         *           "action": "session.update",
         *           "actor_kind": "session",
         *           "actor_name": "Dr Example Clinician",
         *           "actor_role": "clinician",
         *           "actor_token_id": null,
         *           "actor_user_id": "00000000-0000-4000-8000-0000000000a1",
         *           "details": {
         *             "fields": [
         *               "plan"
         *             ],
         *             "request_id": "6f1c2e0a9b7d4c3e8f5a1b2c3d4e5f60",
         *             "version": 3
         *           },
         *           "id": 4182,
         *           "ip_address": "203.0.113.7",
         *           "occurred_at": "2025-01-15T10:14:37Z",
         *           "resource_ids": [
         *             "00000000-0000-4000-8000-0000000000d1"
         *           ],
         *           "resource_type": "session",
         *           "service_account_id": null,
         *           "token_name": null
         *         }
         *       ],
         *       "page": 2,
         *       "page_size": 20,
         *       "total": 21
         *     }
         */
        Page_AuditEventRead_: {
            /** Items */
            items: components["schemas"]["AuditEventRead"][];
            /** Page */
            page: number;
            /** Page Size */
            page_size: number;
            /** Total */
            total: number;
        };
        /**
         * Page[ClientSummary]
         * @example {
         *       "items": [
         *         {
         *           "archived_at": null,
         *           "date_of_birth": "1985-04-12",
         *           "first_name": "Example",
         *           "id": "00000000-0000-4000-8000-000000000001",
         *           "last_name": "Client",
         *           "updated_at": "2025-01-10T14:20:00Z"
         *         }
         *       ],
         *       "page": 2,
         *       "page_size": 20,
         *       "total": 21
         *     }
         */
        Page_ClientSummary_: {
            /** Items */
            items: components["schemas"]["ClientSummary"][];
            /** Page */
            page: number;
            /** Page Size */
            page_size: number;
            /** Total */
            total: number;
        };
        /**
         * Page[ServiceAccountRead]
         * @example {
         *       "items": [
         *         {
         *           "created_at": "2025-01-15T09:00:00Z",
         *           "created_by": "00000000-0000-4000-8000-0000000000a1",
         *           "disabled_at": null,
         *           "expires_at": null,
         *           "id": "00000000-0000-4000-8000-0000000000e1",
         *           "name": "scheduling sync",
         *           "scopes": [
         *             "clients:read",
         *             "appointments:read",
         *             "appointments:write"
         *           ]
         *         }
         *       ],
         *       "page": 2,
         *       "page_size": 20,
         *       "total": 21
         *     }
         */
        Page_ServiceAccountRead_: {
            /** Items */
            items: components["schemas"]["ServiceAccountRead"][];
            /** Page */
            page: number;
            /** Page Size */
            page_size: number;
            /** Total */
            total: number;
        };
        /**
         * Page[ServiceAccountTokenRead]
         * @example {
         *       "items": [
         *         {
         *           "created_at": "2025-01-15T09:01:00Z",
         *           "expires_at": null,
         *           "id": "00000000-0000-4000-8000-0000000000e2",
         *           "last_used_at": "2025-01-20T17:45:12Z",
         *           "name": "production",
         *           "prefix": "cvt_EXAMPLEe",
         *           "revoked_at": null,
         *           "scopes": [
         *             "clients:read",
         *             "appointments:read",
         *             "appointments:write"
         *           ],
         *           "service_account_id": "00000000-0000-4000-8000-0000000000e1"
         *         }
         *       ],
         *       "page": 2,
         *       "page_size": 20,
         *       "total": 21
         *     }
         */
        Page_ServiceAccountTokenRead_: {
            /** Items */
            items: components["schemas"]["ServiceAccountTokenRead"][];
            /** Page */
            page: number;
            /** Page Size */
            page_size: number;
            /** Total */
            total: number;
        };
        /**
         * Page[SessionNoteRead]
         * @example {
         *       "items": [
         *         {
         *           "addenda": [],
         *           "appointment_id": null,
         *           "assessment": "Example assessment: steady progress toward the example goal.",
         *           "attestation_version": null,
         *           "author_id": "00000000-0000-4000-8000-0000000000a1",
         *           "client_id": "00000000-0000-4000-8000-000000000001",
         *           "cosign_attestation_version": null,
         *           "cosign_status": null,
         *           "cosigned_at": null,
         *           "cosigned_by": null,
         *           "created_at": "2025-01-15T10:02:11Z",
         *           "deleted_at": null,
         *           "duration_minutes": 50,
         *           "external_id": "ehr-note-000123",
         *           "finalized_at": null,
         *           "id": "00000000-0000-4000-8000-0000000000d1",
         *           "late_entry": false,
         *           "metadata": {
         *             "source": "dictation"
         *           },
         *           "objective": "Example observation: calm, on time, engaged throughout.",
         *           "plan": "Example plan: continue weekly sessions; review in four weeks.",
         *           "psychotherapy_note": false,
         *           "session_date": "2025-01-15",
         *           "signed_at": null,
         *           "signed_by": null,
         *           "status": "draft",
         *           "subjective": "Example Client reports sleeping better since the last visit.",
         *           "updated_at": "2025-01-15T10:14:37Z",
         *           "version": 3
         *         }
         *       ],
         *       "page": 2,
         *       "page_size": 20,
         *       "total": 21
         *     }
         */
        Page_SessionNoteRead_: {
            /** Items */
            items: components["schemas"]["SessionNoteRead"][];
            /** Page */
            page: number;
            /** Page Size */
            page_size: number;
            /** Total */
            total: number;
        };
        /**
         * Page[SessionNoteVersionRead]
         * @example {
         *       "items": [
         *         {
         *           "amended_at": "2025-01-22T08:30:00Z",
         *           "amended_by": "00000000-0000-4000-8000-0000000000a1",
         *           "assessment": "Example assessment: steady progress toward the example goal.",
         *           "id": "00000000-0000-4000-8000-0000000000d2",
         *           "note_id": "00000000-0000-4000-8000-0000000000d1",
         *           "objective": "Example observation: calm, on time, engaged throughout.",
         *           "plan": "Example plan, as finalized: weekly sessions.",
         *           "reason": "Example reason: the plan agreed in the session was recorded wrongly.",
         *           "subjective": "Example Client reports sleeping better since the last visit.",
         *           "version": 4
         *         }
         *       ],
         *       "page": 2,
         *       "page_size": 20,
         *       "total": 21
         *     }
         */
        Page_SessionNoteVersionRead_: {
            /** Items */
            items: components["schemas"]["SessionNoteVersionRead"][];
            /** Page */
            page: number;
            /** Page Size */
            page_size: number;
            /** Total */
            total: number;
        };
        /**
         * Page[TokenRead]
         * @example {
         *       "items": [
         *         {
         *           "created_at": "2025-01-15T09:00:00Z",
         *           "expires_at": "2025-07-14T09:00:00Z",
         *           "id": "00000000-0000-4000-8000-0000000000c1",
         *           "last_used_at": "2025-01-20T17:45:12Z",
         *           "name": "billing export",
         *           "prefix": "cvt_EXAMPLEe",
         *           "revoked_at": null,
         *           "scopes": [
         *             "clients:read",
         *             "appointments:read"
         *           ],
         *           "user_id": "00000000-0000-4000-8000-0000000000a1"
         *         }
         *       ],
         *       "page": 2,
         *       "page_size": 20,
         *       "total": 21
         *     }
         */
        Page_TokenRead_: {
            /** Items */
            items: components["schemas"]["TokenRead"][];
            /** Page */
            page: number;
            /** Page Size */
            page_size: number;
            /** Total */
            total: number;
        };
        /**
         * Page[UserRead]
         * @example {
         *       "items": [
         *         {
         *           "display_name": "Example Clinician",
         *           "email": "clinician@example.org",
         *           "id": "00000000-0000-4000-8000-0000000000a1",
         *           "must_change_password": false,
         *           "requires_cosign": false,
         *           "role": "clinician"
         *         }
         *       ],
         *       "page": 2,
         *       "page_size": 20,
         *       "total": 21
         *     }
         */
        Page_UserRead_: {
            /** Items */
            items: components["schemas"]["UserRead"][];
            /** Page */
            page: number;
            /** Page Size */
            page_size: number;
            /** Total */
            total: number;
        };
        /**
         * Page[WebhookDeliveryRead]
         * @example {
         *       "items": [
         *         {
         *           "attempts": 1,
         *           "created_at": "2025-01-20T17:45:11Z",
         *           "delivered_at": null,
         *           "endpoint_id": "00000000-0000-4000-8000-0000000000f1",
         *           "event_id": "evt_0000000000000042",
         *           "event_type": "appointment.updated",
         *           "give_up_at": "2025-01-21T17:45:11Z",
         *           "id": "00000000-0000-4000-8000-0000000000f2",
         *           "last_attempt_at": "2025-01-20T17:45:12Z",
         *           "last_error": "http_status",
         *           "last_status_code": 503,
         *           "next_attempt_at": "2025-01-20T17:45:42Z",
         *           "payload": {
         *             "id": "evt_0000000000000042",
         *             "occurred_at": "2025-01-20T17:45:10Z",
         *             "resource": {
         *               "id": "00000000-0000-4000-8000-0000000000e2",
         *               "type": "appointment"
         *             },
         *             "type": "appointment.updated"
         *           },
         *           "recent_attempts": [
         *             {
         *               "attempted_at": "2025-01-20T17:45:12Z",
         *               "duration_ms": 412,
         *               "error": "http_status",
         *               "status_code": 503,
         *               "succeeded": false
         *             }
         *           ],
         *           "status": "pending"
         *         }
         *       ],
         *       "page": 2,
         *       "page_size": 20,
         *       "total": 21
         *     }
         */
        Page_WebhookDeliveryRead_: {
            /** Items */
            items: components["schemas"]["WebhookDeliveryRead"][];
            /** Page */
            page: number;
            /** Page Size */
            page_size: number;
            /** Total */
            total: number;
        };
        /**
         * Page[WebhookRead]
         * @example {
         *       "items": [
         *         {
         *           "consecutive_failures": 0,
         *           "created_at": "2025-01-15T09:00:00Z",
         *           "description": "scheduling sync",
         *           "disabled_at": null,
         *           "disabled_reason": null,
         *           "enabled": true,
         *           "event_types": [
         *             "appointment.*",
         *             "client.updated"
         *           ],
         *           "failing_since": null,
         *           "id": "00000000-0000-4000-8000-0000000000f1",
         *           "last_success_at": "2025-01-20T17:45:12Z",
         *           "updated_at": "2025-01-15T09:00:00Z",
         *           "url": "https://integrations.example.org/carevault/webhook"
         *         }
         *       ],
         *       "page": 2,
         *       "page_size": 20,
         *       "total": 21
         *     }
         */
        Page_WebhookRead_: {
            /** Items */
            items: components["schemas"]["WebhookRead"][];
            /** Page */
            page: number;
            /** Page Size */
            page_size: number;
            /** Total */
            total: number;
        };
        /**
         * PasswordChange
         * @example {
         *       "current_password": "a passphrase",
         *       "new_password": "a new and longer passphrase"
         *     }
         */
        PasswordChange: {
            /** Current Password */
            current_password: string;
            /** New Password */
            new_password: string;
        };
        /**
         * PasswordChanged
         * @example {
         *       "other_sessions_ended": 2
         *     }
         */
        PasswordChanged: {
            /** Other Sessions Ended */
            other_sessions_ended: number;
        };
        /** PgcryptoReadiness */
        PgcryptoReadiness: {
            /** Available */
            available: boolean;
            /** In Use */
            in_use: boolean;
        };
        /**
         * PracticeKeyRead
         * @description The key that protects the practice's data keys: ids and states, never a key.
         * @example {
         *       "kms_key_id": "arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
         *       "own_key": true,
         *       "provider": "kms",
         *       "state": "Enabled"
         *     }
         */
        PracticeKeyRead: {
            /**
             * Kms Key Id
             * @description With kms: the ARN of the KMS key wrapping the practice's data keys
             */
            kms_key_id: string | null;
            /**
             * Own Key
             * @description The practice brought this key (else: the installation's)
             */
            own_key: boolean;
            /**
             * Provider
             * @description Where master keys live: local, env, aws or kms
             */
            provider: string;
            /**
             * State
             * @description The key's state as KMS reports it (Enabled, Disabled, PendingDeletion, …), or why it cannot be read
             */
            state: string | null;
        };
        /**
         * PracticeKeyUpdate
         * @example {
         *       "kms_key_id": "arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-"
         *     }
         */
        PracticeKeyUpdate: {
            /**
             * Kms Key Id
             * @description The practice's own KMS key (ARN, key id or alias); null: back to the installation's key. CareVault's role needs kms:Decrypt, kms:GenerateDataKey, kms:DescribeKey and kms:ReEncrypt* on it
             */
            kms_key_id: string | null;
        };
        /**
         * PublicReadiness
         * @description All the public readiness endpoint says: whether to send traffic here.
         * @example {
         *       "status": "ready"
         *     }
         */
        PublicReadiness: {
            /**
             * Status
             * @enum {string}
             */
            status: "ready" | "degraded" | "unavailable";
        };
        /**
         * Readiness
         * @example {
         *       "audit": {
         *         "lag_budget_seconds": 30,
         *         "lag_seconds": 0.4,
         *         "last_checkpoint_at": "2025-01-15T10:10:00Z",
         *         "last_round_at": "2025-01-15T10:14:36Z",
         *         "sealer_running": true,
         *         "unsealed_events": 3,
         *         "untrusted_seals": 0
         *       },
         *       "database": {
         *         "expected_revision": "0015",
         *         "latency_ms": 1.8,
         *         "reachable": true,
         *         "schema_revision": "0015",
         *         "writable": true,
         *         "write_probed_at": "2025-01-15T10:14:30Z"
         *       },
         *       "key_ring": {
         *         "active_key_age_seconds": 2592000,
         *         "active_version": 2,
         *         "consecutive_failures": 0,
         *         "data_key_warnings": [],
         *         "last_refresh_at": "2025-01-15T10:12:00Z",
         *         "last_refresh_error": null,
         *         "last_success_at": "2025-01-15T10:12:00Z",
         *         "loaded": true,
         *         "refresh_interval_seconds": 300,
         *         "source": "AWS Secrets Manager secret carevault/keyring",
         *         "versions": {
         *           "1": "decrypt-only",
         *           "2": "active"
         *         }
         *       },
         *       "pgcrypto": {
         *         "available": true,
         *         "in_use": false
         *       },
         *       "phi_backend": "aesgcm",
         *       "reasons": [],
         *       "status": "ready"
         *     }
         */
        Readiness: {
            audit: components["schemas"]["AuditReadiness"];
            database: components["schemas"]["DatabaseReadiness"];
            key_ring: components["schemas"]["KeyRingReadiness"];
            notifications?: components["schemas"]["NotificationsReadiness"] | null;
            pgcrypto: components["schemas"]["PgcryptoReadiness"];
            /** Phi Backend */
            phi_backend: string;
            /**
             * Reasons
             * @description Why not ready: database_unreachable, database_timeout, database_not_writable, storage_full, key_ring_not_loaded (unavailable); database_slow, database_timeouts, key_refresh_failing, key_refresh_overdue, schema_mismatch, replica_unreachable, replica_lagging, replica_not_in_recovery, replica_check_overdue (degraded: reads fall back to the primary), notifications_postgres_reconnecting, notifications_redis_reconnecting (degraded: notices wait for the listener, the per-request checks hold), redis_limits_falling_back (degraded: each process counts its own budgets)
             */
            reasons?: string[];
            redis?: components["schemas"]["RedisReadiness"] | null;
            replica?: components["schemas"]["ReplicaReadiness"] | null;
            /**
             * Status
             * @enum {string}
             */
            status: "ready" | "degraded" | "unavailable";
        };
        /**
         * ReauthRequest
         * @example {
         *       "password": "a passphrase"
         *     }
         */
        ReauthRequest: {
            /** Password */
            password: string;
        };
        /**
         * ReauthResponse
         * @example {
         *       "reauthenticated_until": "2025-01-15T09:05:00Z"
         *     }
         */
        ReauthResponse: {
            /**
             * Reauthenticated Until
             * Format: date-time
             * @description Sensitive changes are allowed without asking again until then
             */
            reauthenticated_until: string;
        };
        /**
         * Recurrence
         * @description Weekly, or every N weeks, on the first occurrence's weekday and local time in the
         *     practice's time zone (so 09:00 stays 09:00 across a daylight-saving change), until a
         *     date or for a number of occurrences: exactly one of `until` and `count`.
         * @example {
         *       "count": 10,
         *       "every_weeks": 1
         *     }
         * @example {
         *       "until": "2025-06-30"
         *     }
         */
        Recurrence: {
            /**
             * Count
             * @description How many occurrences, the first included
             */
            count?: number | null;
            /**
             * Every Weeks
             * @default 1
             */
            every_weeks?: number;
            /**
             * Until
             * @description The last day an occurrence may start on (inclusive), in the practice's calendar
             */
            until?: string | null;
        };
        /**
         * RedisReadiness
         * @description Redis (CAREVAULT_REDIS_URL) for the request limits: `shared` while it answers;
         *     `falling_back` to this process's own budgets while it does not (degraded, still serving).
         */
        RedisReadiness: {
            /**
             * Error
             * @description The last failure's class
             */
            error?: string | null;
            /**
             * Fallback Requests
             * @description Requests counted in process since start
             */
            fallback_requests: number;
            /**
             * Limits
             * @enum {string}
             */
            limits: "shared" | "falling_back";
            /**
             * Since
             * Format: date-time
             */
            since: string;
        };
        /**
         * ReplicaReadiness
         * @description The read replica (CAREVAULT_READ_DATABASE_URL), from this process's last check: lists,
         *     searches and the change feed read from it while `serving_reads`; otherwise from the
         *     primary (degraded, not unavailable).
         */
        ReplicaReadiness: {
            /** Behind Bytes */
            behind_bytes: number | null;
            /** Checked At */
            checked_at: string | null;
            /** Error */
            error?: string | null;
            /**
             * Lag Seconds
             * @description How long ago the primary had the oldest WAL position not yet replayed
             */
            lag_seconds: number | null;
            /** Max Lag Seconds */
            max_lag_seconds: number;
            /** Read Your Writes Seconds */
            read_your_writes_seconds: number;
            /** Replay Paused */
            replay_paused: boolean | null;
            /** Requests On Primary */
            requests_on_primary: number;
            /** Requests On Replica */
            requests_on_replica: number;
            /** Serving Reads */
            serving_reads: boolean;
            /**
             * State
             * @enum {string}
             */
            state: "unknown" | "streaming" | "lagging" | "unreachable" | "not_in_recovery";
        };
        /**
         * ServiceAccountCreate
         * @example {
         *       "name": "scheduling sync",
         *       "scopes": [
         *         "appointments:read",
         *         "appointments:write"
         *       ]
         *     }
         */
        ServiceAccountCreate: {
            /**
             * Expires In Days
             * @description Unset: the account lasts until deleted; its tokens never outlive it
             */
            expires_in_days?: number | null;
            /**
             * Name
             * @example scheduling sync
             */
            name: string;
            /**
             * Scopes
             * @description What the account's tokens may do; a scope the creator's role can never use is refused (422 scope_not_allowed). SMART `system/` scopes (`system/*.rs`) may ride here too (docs/reference/fhir.md)
             */
            scopes: ("notes:read" | "notes:write" | "clients:read" | "clients:write" | "appointments:read" | "appointments:write" | "audit:read" | "system:read" | "events:read")[];
        };
        /**
         * ServiceAccountRead
         * @example {
         *       "created_at": "2025-01-15T09:00:00Z",
         *       "created_by": "00000000-0000-4000-8000-0000000000a1",
         *       "disabled_at": null,
         *       "expires_at": null,
         *       "id": "00000000-0000-4000-8000-0000000000e1",
         *       "name": "scheduling sync",
         *       "scopes": [
         *         "clients:read",
         *         "appointments:read",
         *         "appointments:write"
         *       ]
         *     }
         */
        ServiceAccountRead: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Created By
             * @description The owner who created it (informational: the account does not depend on them)
             */
            created_by: string | null;
            /** Disabled At */
            disabled_at: string | null;
            /** Expires At */
            expires_at: string | null;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Name */
            name: string;
            /** Scopes */
            scopes: string[];
        };
        /** ServiceAccountRef */
        ServiceAccountRef: {
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Name */
            name: string;
        };
        /**
         * ServiceAccountTokenCreate
         * @example {
         *       "expires_in_days": 90,
         *       "name": "production"
         *     }
         */
        ServiceAccountTokenCreate: {
            /**
             * Expires In Days
             * @description Unset: until revoked (or the account's own expiry, whichever is first)
             */
            expires_in_days?: number | null;
            /**
             * Name
             * @example production
             */
            name: string;
        };
        /**
         * ServiceAccountTokenCreated
         * @example {
         *       "created_at": "2025-01-15T09:01:00Z",
         *       "expires_at": null,
         *       "id": "00000000-0000-4000-8000-0000000000e2",
         *       "last_used_at": null,
         *       "name": "production",
         *       "prefix": "cvt_EXAMPLEe",
         *       "revoked_at": null,
         *       "scopes": [
         *         "clients:read",
         *         "appointments:read",
         *         "appointments:write"
         *       ],
         *       "service_account_id": "00000000-0000-4000-8000-0000000000e1",
         *       "token": "cvt_EXAMPLEexampleEXAMPLEexampleEXAMPLEexampleE"
         *     }
         */
        ServiceAccountTokenCreated: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Expires At */
            expires_at: string | null;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Last Used At */
            last_used_at: string | null;
            /** Name */
            name: string;
            /** Prefix */
            prefix: string;
            /** Revoked At */
            revoked_at: string | null;
            /** Scopes */
            scopes: string[];
            /**
             * Service Account Id
             * Format: uuid
             */
            service_account_id: string;
            /**
             * Token
             * @description Shown once; only its hash is stored
             */
            token: string;
        };
        /**
         * ServiceAccountTokenRead
         * @example {
         *       "created_at": "2025-01-15T09:01:00Z",
         *       "expires_at": null,
         *       "id": "00000000-0000-4000-8000-0000000000e2",
         *       "last_used_at": "2025-01-20T17:45:12Z",
         *       "name": "production",
         *       "prefix": "cvt_EXAMPLEe",
         *       "revoked_at": null,
         *       "scopes": [
         *         "clients:read",
         *         "appointments:read",
         *         "appointments:write"
         *       ],
         *       "service_account_id": "00000000-0000-4000-8000-0000000000e1"
         *     }
         */
        ServiceAccountTokenRead: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Expires At */
            expires_at: string | null;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Last Used At */
            last_used_at: string | null;
            /** Name */
            name: string;
            /** Prefix */
            prefix: string;
            /** Revoked At */
            revoked_at: string | null;
            /** Scopes */
            scopes: string[];
            /**
             * Service Account Id
             * Format: uuid
             */
            service_account_id: string;
        };
        /**
         * SessionNoteCosign
         * @description Co-sign at the version the caller last saw, attesting the current co-signature
         *     statement.
         * @example {
         *       "attestation_version": 1,
         *       "version": 5
         *     }
         */
        SessionNoteCosign: {
            /**
             * Attestation Version
             * @description The version of the statement the signer was shown and attests (GET /sessions/attestations); only the current one is accepted
             */
            attestation_version: number;
            /**
             * Version
             * @description The note's version as the caller last saw it
             */
            version: number;
        };
        /**
         * SessionNoteCreate
         * @description A new draft note; its SOAP sections may be written now or autosaved later.
         * @example {
         *       "assessment": "Example assessment: steady progress toward the example goal.",
         *       "client_id": "00000000-0000-4000-8000-000000000001",
         *       "duration_minutes": 50,
         *       "objective": "Example observation: calm, on time, engaged throughout.",
         *       "plan": "Example plan: continue weekly sessions; review in four weeks.",
         *       "session_date": "2025-01-15",
         *       "subjective": "Example Client reports sleeping better since the last visit."
         *     }
         */
        SessionNoteCreate: {
            /**
             * Appointment Id
             * @description An appointment of the same client, if the note belongs to one
             */
            appointment_id?: string | null;
            /**
             * Assessment
             * @description The clinician's assessment
             */
            assessment?: string | null;
            /**
             * Client Id
             * Format: uuid
             * @description A client of your workspace
             */
            client_id: string;
            /**
             * Duration Minutes
             * @default 50
             */
            duration_minutes?: number;
            /** External Id */
            external_id?: string | null;
            /**
             * Metadata
             * @description Your own key-value strings (at most 50 keys of up to 40 characters, values of up to 500), encrypted like PHI
             * @example {
             *       "crm_segment": "weekday-mornings"
             *     }
             */
            metadata?: {
                [key: string]: string;
            };
            /**
             * Objective
             * @description What the clinician observes
             */
            objective?: string | null;
            /**
             * Plan
             * @description Next steps
             */
            plan?: string | null;
            /**
             * Psychotherapy Note
             * @description A psychotherapy note (45 CFR 164.501), kept apart from the record: a client's export (`GET /clients/{id}/export`, the right of access) leaves it out and says how many were left out
             * @default false
             */
            psychotherapy_note?: boolean;
            /**
             * Session Date
             * Format: date
             * @description The day of the session; not in the future
             */
            session_date: string;
            /**
             * Subjective
             * @description What the client reports
             */
            subjective?: string | null;
        };
        /**
         * SessionNoteFinalize
         * @description Sign (finalize) at the version the caller last saw, attesting the current signature
         *     statement.
         * @example {
         *       "attestation_version": 1,
         *       "version": 4
         *     }
         */
        SessionNoteFinalize: {
            /**
             * Attestation Version
             * @description The version of the statement the signer was shown and attests (GET /sessions/attestations); only the current one is accepted
             */
            attestation_version: number;
            /**
             * Version
             * @description The note's version as the caller last saw it
             */
            version: number;
        };
        /**
         * SessionNoteRead
         * @example {
         *       "addenda": [],
         *       "appointment_id": null,
         *       "assessment": "Example assessment: steady progress toward the example goal.",
         *       "attestation_version": null,
         *       "author_id": "00000000-0000-4000-8000-0000000000a1",
         *       "client_id": "00000000-0000-4000-8000-000000000001",
         *       "cosign_attestation_version": null,
         *       "cosign_status": null,
         *       "cosigned_at": null,
         *       "cosigned_by": null,
         *       "created_at": "2025-01-15T10:02:11Z",
         *       "deleted_at": null,
         *       "duration_minutes": 50,
         *       "external_id": "ehr-note-000123",
         *       "finalized_at": null,
         *       "id": "00000000-0000-4000-8000-0000000000d1",
         *       "late_entry": false,
         *       "metadata": {
         *         "source": "dictation"
         *       },
         *       "objective": "Example observation: calm, on time, engaged throughout.",
         *       "plan": "Example plan: continue weekly sessions; review in four weeks.",
         *       "psychotherapy_note": false,
         *       "session_date": "2025-01-15",
         *       "signed_at": null,
         *       "signed_by": null,
         *       "status": "draft",
         *       "subjective": "Example Client reports sleeping better since the last visit.",
         *       "updated_at": "2025-01-15T10:14:37Z",
         *       "version": 3
         *     }
         */
        SessionNoteRead: {
            /**
             * Addenda
             * @description The amendments made after signing, oldest first
             */
            addenda?: components["schemas"]["AddendumRead"][];
            /** Appointment Id */
            appointment_id: string | null;
            /**
             * Assessment
             * @description The clinician's assessment
             */
            assessment?: string | null;
            /**
             * Attestation
             * @description The statement the signer attested
             */
            attestation?: string | null;
            /**
             * Attestation Version
             * @description The signature statement's version
             */
            attestation_version: number | null;
            /**
             * Author Id
             * Format: uuid
             * @description The user who wrote the note
             */
            author_id: string;
            /**
             * Client Id
             * Format: uuid
             */
            client_id: string;
            /** Cosign Attestation Version */
            cosign_attestation_version: number | null;
            /**
             * Cosign Status
             * @description Null when the author needs no co-signature; `awaiting` until an owner or the author's supervisor co-signs (POST /sessions/{id}/cosign)
             */
            cosign_status: ("awaiting" | "cosigned") | null;
            /** Cosigned At */
            cosigned_at: string | null;
            /** Cosigned By */
            cosigned_by: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Deleted At */
            deleted_at: string | null;
            /** Duration Minutes */
            duration_minutes: number;
            /**
             * External Id
             * @description Your own id of the note
             */
            external_id?: string | null;
            /**
             * Finalized At
             * @description When it was signed (as `signed_at`)
             */
            finalized_at: string | null;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /**
             * Late Entry
             * @description Signed more than the practice's `late_entry_hours` after the session ended
             */
            late_entry: boolean;
            /**
             * Metadata
             * @description Your own strings
             */
            metadata?: {
                [key: string]: string;
            };
            /**
             * Objective
             * @description What the clinician observes
             */
            objective?: string | null;
            /**
             * Plan
             * @description Next steps
             */
            plan?: string | null;
            /**
             * Psychotherapy Note
             * @description A psychotherapy note (45 CFR 164.501), kept apart from the record: a client's export (`GET /clients/{id}/export`, the right of access) leaves it out and says how many were left out
             * @default false
             */
            psychotherapy_note?: boolean;
            /**
             * Session Date
             * Format: date
             */
            session_date: string;
            /**
             * Signed At
             * @description When the author signed it
             */
            signed_at: string | null;
            /**
             * Signed By
             * @description Who signed it; null for notes finalized before signatures were recorded
             */
            signed_by: string | null;
            /**
             * Status
             * @description `finalized`: signed by its author and locked (amend with a reason)
             * @enum {string}
             */
            status: "draft" | "finalized";
            /**
             * Subjective
             * @description What the client reports
             */
            subjective?: string | null;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /**
             * Version
             * @description Send it back with the next change
             */
            version: number;
        };
        /**
         * SessionNoteUpdate
         * @description An autosave of a draft, or an amendment of a signed note: send `version` and only
         *     the fields that changed, and for an amendment its `reason`. A SOAP section sent as null
         *     is cleared.
         * @example {
         *       "assessment": "Example assessment, revised: goals met for this example.",
         *       "version": 3
         *     }
         * @example {
         *       "plan": "Example plan, corrected: fortnightly sessions.",
         *       "reason": "Example reason: the frequency agreed in the session was recorded wrongly.",
         *       "version": 5
         *     }
         */
        SessionNoteUpdate: {
            /**
             * Assessment
             * @description The clinician's assessment
             */
            assessment?: string | null;
            /** Duration Minutes */
            duration_minutes?: number;
            /**
             * External Id
             * @description null removes it; on a signed note, an amendment
             */
            external_id?: string | null;
            /**
             * Metadata
             * @description Merged; on a signed note, an amendment
             */
            metadata?: {
                [key: string]: string | null;
            } | null;
            /**
             * Objective
             * @description What the clinician observes
             */
            objective?: string | null;
            /**
             * Plan
             * @description Next steps
             */
            plan?: string | null;
            /**
             * Psychotherapy Note
             * @description A psychotherapy note (45 CFR 164.501), kept apart from the record: a client's export (`GET /clients/{id}/export`, the right of access) leaves it out and says how many were left out; on a signed note, changing it is an amendment
             */
            psychotherapy_note?: boolean;
            /**
             * Reason
             * @description Required to amend a signed note (422 `reason_required` naming it otherwise), and only then: a change with a reason is always an amendment. Kept with the replaced content and shown in the note's `addenda`
             */
            reason?: string;
            /**
             * Session Date
             * Format: date
             */
            session_date?: string;
            /**
             * Subjective
             * @description What the client reports
             */
            subjective?: string | null;
            /**
             * Version
             * @description The note's version as the caller last saw it
             */
            version: number;
        };
        /**
         * SessionNoteVersionRead
         * @description The SOAP content of a note as it was at `version`, before the amendment that replaced it.
         * @example {
         *       "amended_at": "2025-01-22T08:30:00Z",
         *       "amended_by": "00000000-0000-4000-8000-0000000000a1",
         *       "assessment": "Example assessment: steady progress toward the example goal.",
         *       "id": "00000000-0000-4000-8000-0000000000d2",
         *       "note_id": "00000000-0000-4000-8000-0000000000d1",
         *       "objective": "Example observation: calm, on time, engaged throughout.",
         *       "plan": "Example plan, as finalized: weekly sessions.",
         *       "reason": "Example reason: the plan agreed in the session was recorded wrongly.",
         *       "subjective": "Example Client reports sleeping better since the last visit.",
         *       "version": 4
         *     }
         */
        SessionNoteVersionRead: {
            /**
             * Amended At
             * Format: date-time
             */
            amended_at: string;
            /**
             * Amended By
             * @description The user whose amendment replaced it
             */
            amended_by: string | null;
            /**
             * Assessment
             * @description The clinician's assessment
             */
            assessment?: string | null;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /**
             * Note Id
             * Format: uuid
             */
            note_id: string;
            /**
             * Objective
             * @description What the clinician observes
             */
            objective?: string | null;
            /**
             * Plan
             * @description Next steps
             */
            plan?: string | null;
            /**
             * Reason
             * @description Why the amendment replaced it; null for amendments made before reasons were required
             */
            reason?: string | null;
            /**
             * Subjective
             * @description What the client reports
             */
            subjective?: string | null;
            /** Version */
            version: number;
        };
        /**
         * TemporaryPassword
         * @example {
         *       "temporary_password": "a temporary passphrase"
         *     }
         */
        TemporaryPassword: {
            /**
             * Temporary Password
             * @description Tell the user out of band; they must replace it at their next sign-in
             */
            temporary_password: string;
        };
        /**
         * TokenCreate
         * @example {
         *       "expires_in_days": 180,
         *       "name": "billing export",
         *       "scopes": [
         *         "clients:read"
         *       ]
         *     }
         */
        TokenCreate: {
            /**
             * Expires In Days
             * @description Unset: the token lasts until revoked
             */
            expires_in_days?: number | null;
            /**
             * Name
             * @example billing export
             */
            name: string;
            /**
             * Scopes
             * @description What the token may do; any other request gets 403 insufficient_scope
             * @example [
             *       "clients:read",
             *       "appointments:read"
             *     ]
             */
            scopes: ("notes:read" | "notes:write" | "clients:read" | "clients:write" | "appointments:read" | "appointments:write" | "audit:read" | "system:read" | "events:read")[];
        };
        /**
         * TokenCreated
         * @example {
         *       "created_at": "2025-01-15T09:00:00Z",
         *       "expires_at": "2025-07-14T09:00:00Z",
         *       "id": "00000000-0000-4000-8000-0000000000c1",
         *       "last_used_at": null,
         *       "name": "billing export",
         *       "prefix": "cvt_EXAMPLEe",
         *       "revoked_at": null,
         *       "scopes": [
         *         "clients:read",
         *         "appointments:read"
         *       ],
         *       "token": "cvt_EXAMPLEexampleEXAMPLEexampleEXAMPLEexampleE",
         *       "user_id": "00000000-0000-4000-8000-0000000000a1"
         *     }
         */
        TokenCreated: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Expires At */
            expires_at: string | null;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Last Used At */
            last_used_at: string | null;
            /** Name */
            name: string;
            /** Prefix */
            prefix: string;
            /** Revoked At */
            revoked_at: string | null;
            /** Scopes */
            scopes: string[];
            /**
             * Token
             * @description Shown once; only its hash is stored
             */
            token: string;
            /**
             * User Id
             * Format: uuid
             */
            user_id: string;
        };
        /**
         * TokenRead
         * @example {
         *       "created_at": "2025-01-15T09:00:00Z",
         *       "expires_at": "2025-07-14T09:00:00Z",
         *       "id": "00000000-0000-4000-8000-0000000000c1",
         *       "last_used_at": "2025-01-20T17:45:12Z",
         *       "name": "billing export",
         *       "prefix": "cvt_EXAMPLEe",
         *       "revoked_at": null,
         *       "scopes": [
         *         "clients:read",
         *         "appointments:read"
         *       ],
         *       "user_id": "00000000-0000-4000-8000-0000000000a1"
         *     }
         */
        TokenRead: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Expires At */
            expires_at: string | null;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Last Used At */
            last_used_at: string | null;
            /** Name */
            name: string;
            /** Prefix */
            prefix: string;
            /** Revoked At */
            revoked_at: string | null;
            /** Scopes */
            scopes: string[];
            /**
             * User Id
             * Format: uuid
             */
            user_id: string;
        };
        /**
         * UserCreate
         * @example {
         *       "display_name": "New Clinician",
         *       "email": "new.clinician@example.org",
         *       "password": "a long first passphrase",
         *       "role": "clinician"
         *     }
         */
        UserCreate: {
            /**
             * Display Name
             * @default
             */
            display_name?: string;
            /** Email */
            email: string;
            /** Password */
            password: string;
            /**
             * Role
             * @default clinician
             * @enum {string}
             */
            role?: "owner" | "clinician";
        };
        /**
         * UserRead
         * @example {
         *       "display_name": "Example Clinician",
         *       "email": "clinician@example.org",
         *       "id": "00000000-0000-4000-8000-0000000000a1",
         *       "must_change_password": false,
         *       "requires_cosign": false,
         *       "role": "clinician"
         *     }
         */
        UserRead: {
            /** Disabled At */
            disabled_at?: string | null;
            /** Display Name */
            display_name: string;
            /** Email */
            email: string;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /**
             * Must Change Password
             * @description Signed in with a temporary password: change it first
             * @default false
             */
            must_change_password?: boolean;
            /**
             * Requires Cosign
             * @description A trainee: the notes this user signs await a co-signature by an owner or `supervisor_id`
             * @default false
             */
            requires_cosign?: boolean;
            /**
             * Role
             * @enum {string}
             */
            role: "owner" | "clinician";
            /**
             * Supervisor Id
             * @description The user who may co-sign this user's notes (owners may too)
             */
            supervisor_id?: string | null;
        };
        /**
         * UserUpdate
         * @description Owners: whether a user's notes need a co-signature, and who supervises them. Send
         *     the fields that change (at least one).
         * @example {
         *       "requires_cosign": true,
         *       "supervisor_id": "00000000-0000-4000-8000-0000000000a2"
         *     }
         */
        UserUpdate: {
            /** Requires Cosign */
            requires_cosign?: boolean;
            /**
             * Supervisor Id
             * @description A user of your practice, or null for none
             */
            supervisor_id?: string | null;
        };
        /**
         * Version
         * @description Which CareVault answers: its release (semantic versioning) and the API's major version.
         * @example {
         *       "api": "v1",
         *       "version": "0.2.0"
         *     }
         */
        Version: {
            /**
             * Api
             * @default v1
             * @constant
             */
            api?: "v1";
            /**
             * Version
             * @description The release, as in CHANGELOG.md
             */
            version: string;
        };
        /**
         * WebhookAttemptRead
         * @example {
         *       "attempted_at": "2025-01-20T17:45:12Z",
         *       "duration_ms": 412,
         *       "error": "http_status",
         *       "status_code": 503,
         *       "succeeded": false
         *     }
         */
        WebhookAttemptRead: {
            /**
             * Attempted At
             * Format: date-time
             */
            attempted_at: string;
            /** Duration Ms */
            duration_ms: number;
            /**
             * Error
             * @description What went wrong: http_status, redirect_not_followed, timeout, connect_error, target_refused, … (never the response body)
             */
            error: string | null;
            /**
             * Status Code
             * @description The receiver's HTTP status; null when none
             */
            status_code: number | null;
            /** Succeeded */
            succeeded: boolean;
        };
        /**
         * WebhookCreate
         * @example {
         *       "description": "scheduling sync",
         *       "event_types": [
         *         "appointment.*",
         *         "client.updated"
         *       ],
         *       "url": "https://integrations.example.org/carevault/webhook"
         *     }
         */
        WebhookCreate: {
            /**
             * Description
             * @default
             */
            description?: string;
            /**
             * Event Types
             * @description Event types to send: `client.updated`, every type of a resource (`appointment.*`), or `*` for all
             * @example [
             *       "appointment.*",
             *       "client.updated"
             *     ]
             */
            event_types: string[];
            /**
             * Url
             * @description HTTPS URL the events are POSTed to; private, loopback and link-local addresses are refused unless the operator allow-lists them
             * @example https://integrations.example.org/carevault/webhook
             */
            url: string;
        };
        /**
         * WebhookCreated
         * @example {
         *       "consecutive_failures": 0,
         *       "created_at": "2025-01-15T09:00:00Z",
         *       "description": "scheduling sync",
         *       "disabled_at": null,
         *       "disabled_reason": null,
         *       "enabled": true,
         *       "event_types": [
         *         "appointment.*",
         *         "client.updated"
         *       ],
         *       "failing_since": null,
         *       "id": "00000000-0000-4000-8000-0000000000f1",
         *       "last_success_at": "2025-01-20T17:45:12Z",
         *       "secret": "whsec_EXAMPLEexampleEXAMPLEexampleEXAMPLEexample",
         *       "updated_at": "2025-01-15T09:00:00Z",
         *       "url": "https://integrations.example.org/carevault/webhook"
         *     }
         */
        WebhookCreated: {
            /** Consecutive Failures */
            consecutive_failures: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Description */
            description: string;
            /**
             * Disabled At
             * @description When it was disabled, by an owner or by persistent failure
             */
            disabled_at: string | null;
            /**
             * Disabled Reason
             * @description Why it was disabled; `persistent_failure` when every delivery failed for the retry window
             */
            disabled_reason: string | null;
            /** Enabled */
            enabled: boolean;
            /** Event Types */
            event_types: string[];
            /** Failing Since */
            failing_since: string | null;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Last Success At */
            last_success_at: string | null;
            /**
             * Secret
             * @description The signing secret, shown only in this answer (stored encrypted)
             */
            secret: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /** Url */
            url: string;
        };
        /**
         * WebhookDeliveryRead
         * @example {
         *       "attempts": 1,
         *       "created_at": "2025-01-20T17:45:11Z",
         *       "delivered_at": null,
         *       "endpoint_id": "00000000-0000-4000-8000-0000000000f1",
         *       "event_id": "evt_0000000000000042",
         *       "event_type": "appointment.updated",
         *       "give_up_at": "2025-01-21T17:45:11Z",
         *       "id": "00000000-0000-4000-8000-0000000000f2",
         *       "last_attempt_at": "2025-01-20T17:45:12Z",
         *       "last_error": "http_status",
         *       "last_status_code": 503,
         *       "next_attempt_at": "2025-01-20T17:45:42Z",
         *       "payload": {
         *         "id": "evt_0000000000000042",
         *         "occurred_at": "2025-01-20T17:45:10Z",
         *         "resource": {
         *           "id": "00000000-0000-4000-8000-0000000000e2",
         *           "type": "appointment"
         *         },
         *         "type": "appointment.updated"
         *       },
         *       "recent_attempts": [
         *         {
         *           "attempted_at": "2025-01-20T17:45:12Z",
         *           "duration_ms": 412,
         *           "error": "http_status",
         *           "status_code": 503,
         *           "succeeded": false
         *         }
         *       ],
         *       "status": "pending"
         *     }
         */
        WebhookDeliveryRead: {
            /** Attempts */
            attempts: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Delivered At */
            delivered_at: string | null;
            /**
             * Endpoint Id
             * Format: uuid
             */
            endpoint_id: string;
            /** Event Id */
            event_id: string;
            /** Event Type */
            event_type: string;
            /**
             * Give Up At
             * Format: date-time
             */
            give_up_at: string;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Last Attempt At */
            last_attempt_at: string | null;
            /** Last Error */
            last_error: string | null;
            /** Last Status Code */
            last_status_code: number | null;
            /**
             * Next Attempt At
             * @description When pending: the next attempt
             */
            next_attempt_at: string | null;
            /**
             * Payload
             * @description The event as sent (ids and types only)
             */
            payload: {
                [key: string]: unknown;
            };
            /**
             * Recent Attempts
             * @description The latest attempts, newest first (at most 10)
             */
            recent_attempts?: components["schemas"]["WebhookAttemptRead"][];
            /**
             * Status
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
        };
        /**
         * WebhookRead
         * @example {
         *       "consecutive_failures": 0,
         *       "created_at": "2025-01-15T09:00:00Z",
         *       "description": "scheduling sync",
         *       "disabled_at": null,
         *       "disabled_reason": null,
         *       "enabled": true,
         *       "event_types": [
         *         "appointment.*",
         *         "client.updated"
         *       ],
         *       "failing_since": null,
         *       "id": "00000000-0000-4000-8000-0000000000f1",
         *       "last_success_at": "2025-01-20T17:45:12Z",
         *       "updated_at": "2025-01-15T09:00:00Z",
         *       "url": "https://integrations.example.org/carevault/webhook"
         *     }
         */
        WebhookRead: {
            /** Consecutive Failures */
            consecutive_failures: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Description */
            description: string;
            /**
             * Disabled At
             * @description When it was disabled, by an owner or by persistent failure
             */
            disabled_at: string | null;
            /**
             * Disabled Reason
             * @description Why it was disabled; `persistent_failure` when every delivery failed for the retry window
             */
            disabled_reason: string | null;
            /** Enabled */
            enabled: boolean;
            /** Event Types */
            event_types: string[];
            /** Failing Since */
            failing_since: string | null;
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Last Success At */
            last_success_at: string | null;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /** Url */
            url: string;
        };
        /**
         * WebhookUpdate
         * @description Send the fields that change (at least one). Enabling a disabled endpoint resumes its
         *     deliveries, the ones that were waiting included.
         * @example {
         *       "enabled": true
         *     }
         */
        WebhookUpdate: {
            /** Description */
            description?: string;
            /** Enabled */
            enabled?: boolean;
            /** Event Types */
            event_types?: string[];
            /** Url */
            url?: string;
        };
        /**
         * WorkspaceRead
         * @example {
         *       "break_the_glass": false,
         *       "chart_access": "practice",
         *       "id": "00000000-0000-4000-8000-0000000000b1",
         *       "late_entry_hours": 72,
         *       "name": "Example Practice",
         *       "phone_region": "DE",
         *       "time_zone": "Europe/Berlin"
         *     }
         */
        WorkspaceRead: {
            /**
             * Break The Glass
             * @description Whether a clinician may open a chart outside their care team by stating a reason (time-limited, flagged in the audit trail)
             */
            break_the_glass: boolean;
            /**
             * Chart Access
             * @description `practice`: every clinician sees every chart; `care_team`: clinicians see only the charts of clients whose care team they are on (owners see every chart)
             * @enum {string}
             */
            chart_access: "practice" | "care_team";
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /**
             * Late Entry Hours
             * @description A note signed more than this many hours after its session ended is flagged as a late entry
             * @default 72
             * @example 72
             */
            late_entry_hours?: number;
            /** Name */
            name: string;
            /**
             * Phone Region
             * @description ISO 3166 region whose national phone numbers the practice writes: a number without its country code is read as one of this region's
             * @example GB
             */
            phone_region: string;
            /**
             * Time Zone
             * @description IANA time zone that decides the practice's today (session dates and dates of birth may not be after it)
             * @example Europe/Berlin
             */
            time_zone: string;
        };
        /**
         * WorkspaceUpdate
         * @description Send the settings that change (at least one).
         * @example {
         *       "phone_region": "GB",
         *       "time_zone": "Europe/London"
         *     }
         */
        WorkspaceUpdate: {
            /**
             * Break The Glass
             * @description Allow a clinician to open a chart outside their care team by stating a reason (POST /clients/{client_id}/break-the-glass); turning it off ends every open grant
             */
            break_the_glass?: boolean;
            /**
             * Chart Access
             * @description `practice`: every clinician sees every chart; `care_team`: clinicians see only their care teams' charts (owners see every chart). Takes effect on the next request
             * @enum {string}
             */
            chart_access?: "practice" | "care_team";
            /**
             * Late Entry Hours
             * @description A note signed more than this many hours after its session ended is flagged as a late entry (default 72); applies to notes signed from now on
             * @example 72
             */
            late_entry_hours?: number;
            /**
             * Phone Region
             * @description ISO 3166 two-letter region (any case). It decides how numbers written from now on, and searches, are read; stored numbers keep the meaning they had
             * @example GB
             */
            phone_region?: string;
            /**
             * Time Zone
             * @description IANA time zone
             * @example America/New_York
             */
            time_zone?: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    list_appointments_api_v1_appointments_get: {
        parameters: {
            query?: {
                /** @description With `sort=updated_at` and `updated_since`: the keyset cursor. Send the last item's `updated_at` as `updated_since` and its `id` as `after_id` to read what follows, stable while records change */
                after_id?: string | null;
                /** @description Only this client's */
                client_id?: string | null;
                /** @description Only these clinicians' appointments; repeat for several (side-by-side calendars) */
                clinician_id?: string[] | null;
                /** @description Exclusive; after start and at most 62 days later (required with `start`) */
                end?: string | null;
                /** @description Only the appointment with this external id of yours (exact) */
                external_id?: string | null;
                /** @description Syncing only: at most this many (default 100) */
                limit?: number | null;
                /** @description `updated_at`: by (updated_at, id), oldest first; omitted: the list's usual order */
                sort?: "updated_at" | null;
                /** @description Inclusive, ISO 8601 with a UTC offset (required unless syncing by `updated_since` or `sort=updated_at`) */
                start?: string | null;
                /** @description Only records updated at or after this time (ISO 8601 with a UTC offset, microseconds kept) */
                updated_since?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "client": {
                     *           "first_name": "Ada",
                     *           "id": "00000000-0000-4000-8000-000000000001",
                     *           "last_name": "Example"
                     *         },
                     *         "client_id": "00000000-0000-4000-8000-000000000001",
                     *         "clinician": {
                     *           "display_name": "Dr. Example",
                     *           "id": "00000000-0000-4000-8000-0000000000c1"
                     *         },
                     *         "clinician_id": "00000000-0000-4000-8000-0000000000c1",
                     *         "created_at": "2025-01-10T14:25:00Z",
                     *         "ends_at": "2025-01-15T08:50:00Z",
                     *         "external_id": "sched-000123",
                     *         "id": "00000000-0000-4000-8000-0000000000e1",
                     *         "location": "Main building, 2nd floor",
                     *         "metadata": {
                     *           "scheduler": "online-booking"
                     *         },
                     *         "notes": "Example: first session.",
                     *         "room": "Room 2",
                     *         "series_id": null,
                     *         "starts_at": "2025-01-15T08:00:00Z",
                     *         "status": "scheduled",
                     *         "updated_at": "2025-01-10T14:25:00Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["AppointmentRead"][];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_appointment_api_v1_appointments_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retry this create safely: the same key and body within 24 hours answer with the first response (see docs/reference/api.md) */
                "Idempotency-Key"?: string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppointmentCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppointmentRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state; idempotency_key_reused: this Idempotency-Key came with a different request (see docs/reference/api.md) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    read_appointment_api_v1_appointments__appointment_id__get: {
        parameters: {
            query?: never;
            header?: {
                /** @description 304 with no body when the record is still at this `ETag` */
                "If-None-Match"?: string | null;
            };
            path: {
                appointment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppointmentRead"];
                };
            };
            /** @description Not Modified: the record is still at the `If-None-Match` ETag (no body; not audited, as nothing is disclosed) */
            304: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    delete_appointment_api_v1_appointments__appointment_id__delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                appointment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    update_appointment_api_v1_appointments__appointment_id__patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                appointment_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppointmentUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppointmentRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    cancel_following_api_v1_appointments__appointment_id__cancel_following_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                appointment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelledOccurrences"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    batch_get_appointments_api_v1_appointments_batch_get_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchGet"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch_AppointmentRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    upsert_appointment_api_v1_appointments_external__external_id__put: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                /** @description Your own id of the appointment (letters, digits and `._:-`; never PHI) */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppointmentUpsert"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppointmentRead"];
                };
            };
            /** @description Created: none had this external id */
            201: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppointmentRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_series_api_v1_appointments_series_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retry this create safely: the same key and body within 24 hours answer with the first response (see docs/reference/api.md) */
                "Idempotency-Key"?: string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppointmentSeriesCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppointmentSeriesRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state; idempotency_key_reused: this Idempotency-Key came with a different request (see docs/reference/api.md) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_audit_events_api_v1_audit_events_get: {
        parameters: {
            query?: {
                action?: string | null;
                /** @description Only events of these actor kinds (repeat the parameter): `actor_kind=service_account&actor_kind=token` shows integration traffic, `actor_kind=session` hides it. Unset: every kind */
                actor_kind?: ("session" | "token" | "service_account" | "system")[] | null;
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
                /** @description Named among resource_ids */
                resource_id?: string | null;
                resource_type?: string | null;
                /** @description Inclusive, ISO 8601 */
                since?: string | null;
                /** @description Exclusive, ISO 8601 */
                until?: string | null;
                /** @description Actor */
                user_id?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_AuditEventRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    login_api_v1_auth_login_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResponse"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many attempts; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    logout_api_v1_auth_logout_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    me_api_v1_auth_me_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeResponse"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    change_password_api_v1_auth_password_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordChanged"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many attempts; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    reauthenticate_api_v1_auth_reauth_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReauthRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReauthResponse"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Too many attempts; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_tokens_api_v1_auth_tokens_get: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_TokenRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_token_api_v1_auth_tokens_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retry this create safely: the same key and body within 24 hours answer with the first response (see docs/reference/api.md) */
                "Idempotency-Key"?: string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenCreated"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key came with a different request (see docs/reference/api.md) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    revoke_token_api_v1_auth_tokens__token_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_clients_api_v1_clients_get: {
        parameters: {
            query?: {
                /** @description With `sort=updated_at` and `updated_since`: the keyset cursor. Send the last item's `updated_at` as `updated_since` and its `id` as `after_id` to read what follows, stable while records change */
                after_id?: string | null;
                /** @description Only the client with this external id of yours (exact) */
                external_id?: string | null;
                /** @description Include archived clients */
                include_archived?: boolean;
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
                /** @description `updated_at`: by (updated_at, id), oldest first; omitted: the list's usual order */
                sort?: "updated_at" | null;
                /** @description Only records updated at or after this time (ISO 8601 with a UTC offset, microseconds kept) */
                updated_since?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ClientSummary_"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_client_api_v1_clients_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retry this create safely: the same key and body within 24 hours answer with the first response (see docs/reference/api.md) */
                "Idempotency-Key"?: string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClientCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state; idempotency_key_reused: this Idempotency-Key came with a different request (see docs/reference/api.md) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    read_client_api_v1_clients__client_id__get: {
        parameters: {
            query?: never;
            header?: {
                /** @description 304 with no body when the record is still at this `ETag` */
                "If-None-Match"?: string | null;
            };
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientRead"];
                };
            };
            /** @description Not Modified: the record is still at the `If-None-Match` ETag (no body; not audited, as nothing is disclosed) */
            304: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    archive_client_api_v1_clients__client_id__delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    update_client_api_v1_clients__client_id__patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClientUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    read_access_log_api_v1_clients__client_id__access_log_get: {
        parameters: {
            query?: {
                /** @description Only this user */
                actor_user_id?: string | null;
                /** @description csv: the whole filtered history as a file (so does Accept: text/csv) */
                format?: ("json" | "csv") | null;
                /** @description Only this kind */
                kind?: ("chart_read" | "list_appearance" | "change" | "export" | "access_log" | "other") | null;
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
                /** @description Inclusive, ISO 8601 */
                since?: string | null;
                /** @description Exclusive, ISO 8601 */
                until?: string | null;
            };
            header?: never;
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_AccessLogEntry_"];
                    /**
                     * @example occurred_at,kind,action,record_type,via,actor_name,actor_role,token_name,actor_user_id,ip_address,event_id
                     *     2025-01-15T10:14:37+00:00,chart_read,client.read,client,ui,Dr Example Clinician,clinician,,00000000-0000-4000-8000-0000000000a1,203.0.113.7,4182
                     */
                    "text/csv": string;
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    review_break_the_glass_api_v1_clients__client_id__break_the_glass_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "display_name": "Dr. Example",
                     *         "expires_at": "2025-01-15T10:00:00Z",
                     *         "granted_at": "2025-01-15T09:00:00Z",
                     *         "id": "00000000-0000-4000-8000-0000000000f1",
                     *         "reason": "Covering for the client's clinician",
                     *         "user_id": "00000000-0000-4000-8000-0000000000a3"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ChartAccessGrantReview"][];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    break_the_glass_api_v1_clients__client_id__break_the_glass_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BreakTheGlass"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChartAccessGrantRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    read_care_team_api_v1_clients__client_id__care_team_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CareTeamRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    set_care_team_api_v1_clients__client_id__care_team_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CareTeamUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CareTeamRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    export_client_record_api_v1_clients__client_id__export_get: {
        parameters: {
            query?: {
                /** @description pdf: a readable document; fhir: a FHIR R4 Bundle ($everything) */
                format?: "pdf" | "fhir";
            };
            header?: never;
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record as a file (`Content-Disposition: attachment`) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "entry": [
                     *         {
                     *           "fullUrl": "https://carevault.example/fhir/R4/Patient/00000000-0000-4000-8000-000000000001",
                     *           "resource": {
                     *             "id": "00000000-0000-4000-8000-000000000001",
                     *             "resourceType": "Patient"
                     *           },
                     *           "search": {
                     *             "mode": "match"
                     *           }
                     *         }
                     *       ],
                     *       "resourceType": "Bundle",
                     *       "total": 1,
                     *       "type": "searchset"
                     *     }
                     */
                    "application/fhir+json": Record<string, never>;
                    /** @example %PDF-1.4 … */
                    "application/pdf": string;
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    restore_client_api_v1_clients__client_id__restore_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    batch_get_clients_api_v1_clients_batch_get_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchGet"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch_ClientRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    upsert_client_api_v1_clients_external__external_id__put: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                /** @description Your own id of the client (letters, digits and `._:-`; never PHI) */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClientUpsert"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientRead"];
                };
            };
            /** @description Created: no client had this external id */
            201: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    import_clients_api_v1_clients_import_post: {
        parameters: {
            query?: {
                /** @description A row whose `external_id` a client already has updates that client (the fields the row has a value for) instead of refusing the import */
                upsert?: boolean;
            };
            header?: {
                /** @description Retry this create safely: the same key and body within 24 hours answer with the first response (see docs/reference/api.md) */
                "Idempotency-Key"?: string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {"first_name": "Example", "last_name": "Client", "email": "ex@example.org"} */
                "application/x-ndjson": string;
                /**
                 * @example first_name,last_name,email
                 *     Example,Client,ex@example.org
                 */
                "text/csv": string;
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientImportResult"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state; idempotency_key_reused: this Idempotency-Key came with a different request (see docs/reference/api.md) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    search_clients_api_v1_clients_search_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClientSearch"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ClientSummary_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_clinicians_api_v1_clinicians_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "active": true,
                     *         "display_name": "Example Clinician",
                     *         "id": "00000000-0000-4000-8000-0000000000a1"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ClinicianRead"][];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_events_api_v1_events_get: {
        parameters: {
            query?: {
                /** @description A `next_cursor` or event `id` as received; none: from the oldest kept */
                after?: string | null;
                /** @description events per page */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    read_event_head_api_v1_events_head_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventHead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_service_accounts_api_v1_service_accounts_get: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ServiceAccountRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_service_account_api_v1_service_accounts_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retry this create safely: the same key and body within 24 hours answer with the first response (see docs/reference/api.md) */
                "Idempotency-Key"?: string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServiceAccountCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceAccountRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key came with a different request (see docs/reference/api.md) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    get_service_account_api_v1_service_accounts__service_account_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                service_account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceAccountRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    delete_service_account_api_v1_service_accounts__service_account_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                service_account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    disable_service_account_api_v1_service_accounts__service_account_id__disable_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                service_account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceAccountRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    enable_service_account_api_v1_service_accounts__service_account_id__enable_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                service_account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceAccountRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_service_account_tokens_api_v1_service_accounts__service_account_id__tokens_get: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
            };
            header?: never;
            path: {
                service_account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ServiceAccountTokenRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_service_account_token_api_v1_service_accounts__service_account_id__tokens_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retry this create safely: the same key and body within 24 hours answer with the first response (see docs/reference/api.md) */
                "Idempotency-Key"?: string | null;
            };
            path: {
                service_account_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServiceAccountTokenCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceAccountTokenCreated"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state; idempotency_key_reused: this Idempotency-Key came with a different request (see docs/reference/api.md) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    revoke_service_account_token_api_v1_service_accounts__service_account_id__tokens__token_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                service_account_id: string;
                token_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_session_notes_api_v1_sessions_get: {
        parameters: {
            query?: {
                /** @description With `sort=updated_at` and `updated_since`: the keyset cursor. Send the last item's `updated_at` as `updated_since` and its `id` as `after_id` to read what follows, stable while records change */
                after_id?: string | null;
                /** @description Only the note(s) of this appointment */
                appointment_id?: string | null;
                /** @description Only this user's notes (your unsigned notes: `status=draft` and your id) */
                author_id?: string | null;
                /** @description Only this client's notes */
                client_id?: string | null;
                /** @description Only the note with this external id of yours (exact) */
                external_id?: string | null;
                /** @description Include soft-deleted notes */
                include_deleted?: boolean;
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
                /** @description `updated_at`: by (updated_at, id), oldest first; omitted: the list's usual order */
                sort?: "updated_at" | null;
                /** @description Only drafts (unsigned) or only finalized (signed) notes */
                status?: components["schemas"]["NoteStatus"] | null;
                /** @description Only records updated at or after this time (ISO 8601 with a UTC offset, microseconds kept) */
                updated_since?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_SessionNoteRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_session_note_api_v1_sessions_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retry this create safely: the same key and body within 24 hours answer with the first response (see docs/reference/api.md) */
                "Idempotency-Key"?: string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionNoteCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionNoteRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state; idempotency_key_reused: this Idempotency-Key came with a different request (see docs/reference/api.md) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    read_session_note_api_v1_sessions__note_id__get: {
        parameters: {
            query?: never;
            header?: {
                /** @description 304 with no body when the record is still at this `ETag` */
                "If-None-Match"?: string | null;
            };
            path: {
                note_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionNoteRead"];
                };
            };
            /** @description Not Modified: the record is still at the `If-None-Match` ETag (no body; not audited, as nothing is disclosed) */
            304: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    delete_session_note_api_v1_sessions__note_id__delete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                note_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    update_session_note_api_v1_sessions__note_id__patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                note_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionNoteUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionNoteRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    cosign_session_note_api_v1_sessions__note_id__cosign_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                note_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionNoteCosign"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionNoteRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    finalize_session_note_api_v1_sessions__note_id__finalize_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                note_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionNoteFinalize"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionNoteRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    restore_session_note_api_v1_sessions__note_id__restore_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still at this `ETag` (else 412 `precondition_failed`); optional */
                "If-Match"?: string | null;
            };
            path: {
                note_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    /** @description The record's version (a strong entity tag): send it back in `If-Match` to change the record only if unchanged, or `If-None-Match` to read it only if changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionNoteRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description If-Match names a version the record is no longer at */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_session_note_versions_api_v1_sessions__note_id__versions_get: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
            };
            header?: never;
            path: {
                note_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_SessionNoteVersionRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    read_attestations_api_v1_sessions_attestations_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttestationsRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_notes_awaiting_cosign_api_v1_sessions_awaiting_cosign_get: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_SessionNoteRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    batch_get_session_notes_api_v1_sessions_batch_get_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchGet"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch_SessionNoteRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    readiness_details_api_v1_system_readiness_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database or key ring unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "audit": {
                     *         "lag_budget_seconds": 30,
                     *         "lag_seconds": 0.4,
                     *         "last_checkpoint_at": "2025-01-15T10:10:00Z",
                     *         "last_round_at": "2025-01-15T10:14:36Z",
                     *         "sealer_running": true,
                     *         "unsealed_events": 3,
                     *         "untrusted_seals": 0
                     *       },
                     *       "database": {
                     *         "error": "ConnectionRefusedError",
                     *         "expected_revision": "0015",
                     *         "reachable": false,
                     *         "recent_failure": "database_unavailable",
                     *         "schema_revision": null
                     *       },
                     *       "key_ring": {
                     *         "active_key_age_seconds": 2592000,
                     *         "active_version": 2,
                     *         "consecutive_failures": 0,
                     *         "data_key_warnings": [],
                     *         "last_refresh_at": "2025-01-15T10:12:00Z",
                     *         "last_refresh_error": null,
                     *         "last_success_at": "2025-01-15T10:12:00Z",
                     *         "loaded": true,
                     *         "refresh_interval_seconds": 300,
                     *         "source": "AWS Secrets Manager secret carevault/keyring",
                     *         "versions": {
                     *           "1": "decrypt-only",
                     *           "2": "active"
                     *         }
                     *       },
                     *       "pgcrypto": {
                     *         "available": true,
                     *         "in_use": false
                     *       },
                     *       "phi_backend": "aesgcm",
                     *       "reasons": [
                     *         "database_unreachable"
                     *       ],
                     *       "status": "unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    list_users_api_v1_users_get: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_UserRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_user_api_v1_users_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    update_user_api_v1_users__user_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    disable_user_api_v1_users__user_id__disable_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    enable_user_api_v1_users__user_id__enable_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    set_temporary_password_api_v1_users__user_id__temporary_password_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TemporaryPassword"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    version_api_v1_version_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Version"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_webhooks_api_v1_webhooks_get: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_WebhookRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_webhook_api_v1_webhooks_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retry this create safely: the same key and body within 24 hours answer with the first response (see docs/reference/api.md) */
                "Idempotency-Key"?: string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description idempotency_key_reused: this Idempotency-Key came with a different request (see docs/reference/api.md) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    get_webhook_api_v1_webhooks__webhook_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    delete_webhook_api_v1_webhooks__webhook_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    update_webhook_api_v1_webhooks__webhook_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_webhook_deliveries_api_v1_webhooks__webhook_id__deliveries_get: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page */
                page_size?: number;
            };
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_WebhookDeliveryRead_"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    redeliver_webhook_api_v1_webhooks__webhook_id__deliveries__delivery_id__redeliver_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                delivery_id: string;
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rotate_webhook_secret_api_v1_webhooks__webhook_id__rotate_secret_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (or in another workspace) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    update_workspace_api_v1_workspace_patch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    get_practice_key_api_v1_workspace_encryption_key_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PracticeKeyRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    set_practice_key_route_api_v1_workspace_encryption_key_put: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PracticeKeyUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PracticeKeyRead"];
                };
            };
            /** @description unknown_parameter: a query parameter this operation does not declare (or bad_request: an unreadable body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not signed in, or the session or token is no longer valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing CSRF header, or the role does not allow it */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The practice's data was shredded */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed; details name the fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description rate_limited: over a rate-limit budget (per credential or per practice); see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description database_unavailable, database_timeout or storage_full; nothing was changed; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    liveness_health_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Liveness"];
                };
            };
        };
    };
    readiness_health_ready_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicReadiness"];
                };
            };
            /** @description cannot serve requests */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["PublicReadiness"];
                };
            };
        };
    };
}
