"""Contains all the data models used in inputs/outputs"""

from .access_log_entry import AccessLogEntry
from .access_log_entry_kind import AccessLogEntryKind
from .access_log_entry_via import AccessLogEntryVia
from .addendum_read import AddendumRead
from .appointment_client import AppointmentClient
from .appointment_clinician import AppointmentClinician
from .appointment_create import AppointmentCreate
from .appointment_create_status import AppointmentCreateStatus
from .appointment_read import AppointmentRead
from .appointment_read_status import AppointmentReadStatus
from .appointment_series_create import AppointmentSeriesCreate
from .appointment_series_create_status import AppointmentSeriesCreateStatus
from .appointment_series_read import AppointmentSeriesRead
from .appointment_update import AppointmentUpdate
from .appointment_update_status import AppointmentUpdateStatus
from .attestation_statement import AttestationStatement
from .attestations_read import AttestationsRead
from .audit_event_read import AuditEventRead
from .audit_event_read_details_type_0 import AuditEventReadDetailsType0
from .audit_readiness import AuditReadiness
from .break_the_glass import BreakTheGlass
from .cancelled_occurrences import CancelledOccurrences
from .care_team_member_read import CareTeamMemberRead
from .care_team_read import CareTeamRead
from .care_team_update import CareTeamUpdate
from .chart_access_grant_read import ChartAccessGrantRead
from .chart_access_grant_review import ChartAccessGrantReview
from .client_create import ClientCreate
from .client_import_result import ClientImportResult
from .client_read import ClientRead
from .client_search import ClientSearch
from .client_summary import ClientSummary
from .client_update import ClientUpdate
from .clinician_read import ClinicianRead
from .database_readiness import DatabaseReadiness
from .error_detail import ErrorDetail
from .error_response import ErrorResponse
from .key_ring_readiness import KeyRingReadiness
from .key_ring_readiness_versions import KeyRingReadinessVersions
from .liveness import Liveness
from .login_request import LoginRequest
from .login_response import LoginResponse
from .me_response import MeResponse
from .me_response_auth_method import MeResponseAuthMethod
from .note_status import NoteStatus
from .page_access_log_entry import PageAccessLogEntry
from .page_audit_event_read import PageAuditEventRead
from .page_client_summary import PageClientSummary
from .page_session_note_read import PageSessionNoteRead
from .page_session_note_version_read import PageSessionNoteVersionRead
from .page_token_read import PageTokenRead
from .page_user_read import PageUserRead
from .password_change import PasswordChange
from .password_changed import PasswordChanged
from .pgcrypto_readiness import PgcryptoReadiness
from .public_readiness import PublicReadiness
from .public_readiness_status import PublicReadinessStatus
from .read_access_log_api_v1_clients_client_id_access_log_get_format_type_0 import (
    ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0,
)
from .read_access_log_api_v1_clients_client_id_access_log_get_kind_type_0 import (
    ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0,
)
from .readiness import Readiness
from .readiness_status import ReadinessStatus
from .reauth_request import ReauthRequest
from .reauth_response import ReauthResponse
from .recurrence import Recurrence
from .session_note_cosign import SessionNoteCosign
from .session_note_create import SessionNoteCreate
from .session_note_finalize import SessionNoteFinalize
from .session_note_read import SessionNoteRead
from .session_note_read_cosign_status_type_0 import SessionNoteReadCosignStatusType0
from .session_note_read_status import SessionNoteReadStatus
from .session_note_update import SessionNoteUpdate
from .session_note_version_read import SessionNoteVersionRead
from .temporary_password import TemporaryPassword
from .token_create import TokenCreate
from .token_create_scopes_item import TokenCreateScopesItem
from .token_created import TokenCreated
from .token_read import TokenRead
from .user_create import UserCreate
from .user_create_role import UserCreateRole
from .user_read import UserRead
from .user_read_role import UserReadRole
from .user_update import UserUpdate
from .version import Version
from .workspace_read import WorkspaceRead
from .workspace_read_chart_access import WorkspaceReadChartAccess
from .workspace_update import WorkspaceUpdate
from .workspace_update_chart_access import WorkspaceUpdateChartAccess

__all__ = (
    "AccessLogEntry",
    "AccessLogEntryKind",
    "AccessLogEntryVia",
    "AddendumRead",
    "AppointmentClient",
    "AppointmentClinician",
    "AppointmentCreate",
    "AppointmentCreateStatus",
    "AppointmentRead",
    "AppointmentReadStatus",
    "AppointmentSeriesCreate",
    "AppointmentSeriesCreateStatus",
    "AppointmentSeriesRead",
    "AppointmentUpdate",
    "AppointmentUpdateStatus",
    "AttestationsRead",
    "AttestationStatement",
    "AuditEventRead",
    "AuditEventReadDetailsType0",
    "AuditReadiness",
    "BreakTheGlass",
    "CancelledOccurrences",
    "CareTeamMemberRead",
    "CareTeamRead",
    "CareTeamUpdate",
    "ChartAccessGrantRead",
    "ChartAccessGrantReview",
    "ClientCreate",
    "ClientImportResult",
    "ClientRead",
    "ClientSearch",
    "ClientSummary",
    "ClientUpdate",
    "ClinicianRead",
    "DatabaseReadiness",
    "ErrorDetail",
    "ErrorResponse",
    "KeyRingReadiness",
    "KeyRingReadinessVersions",
    "Liveness",
    "LoginRequest",
    "LoginResponse",
    "MeResponse",
    "MeResponseAuthMethod",
    "NoteStatus",
    "PageAccessLogEntry",
    "PageAuditEventRead",
    "PageClientSummary",
    "PageSessionNoteRead",
    "PageSessionNoteVersionRead",
    "PageTokenRead",
    "PageUserRead",
    "PasswordChange",
    "PasswordChanged",
    "PgcryptoReadiness",
    "PublicReadiness",
    "PublicReadinessStatus",
    "ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0",
    "ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0",
    "Readiness",
    "ReadinessStatus",
    "ReauthRequest",
    "ReauthResponse",
    "Recurrence",
    "SessionNoteCosign",
    "SessionNoteCreate",
    "SessionNoteFinalize",
    "SessionNoteRead",
    "SessionNoteReadCosignStatusType0",
    "SessionNoteReadStatus",
    "SessionNoteUpdate",
    "SessionNoteVersionRead",
    "TemporaryPassword",
    "TokenCreate",
    "TokenCreated",
    "TokenCreateScopesItem",
    "TokenRead",
    "UserCreate",
    "UserCreateRole",
    "UserRead",
    "UserReadRole",
    "UserUpdate",
    "Version",
    "WorkspaceRead",
    "WorkspaceReadChartAccess",
    "WorkspaceUpdate",
    "WorkspaceUpdateChartAccess",
)
