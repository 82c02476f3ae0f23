"""Contains all the data models used in inputs/outputs"""

from .appointment_create import AppointmentCreate
from .appointment_create_status import AppointmentCreateStatus
from .appointment_read import AppointmentRead
from .appointment_read_status import AppointmentReadStatus
from .appointment_update import AppointmentUpdate
from .appointment_update_status import AppointmentUpdateStatus
from .audit_event_read import AuditEventRead
from .audit_event_read_details_type_0 import AuditEventReadDetailsType0
from .audit_readiness import AuditReadiness
from .break_the_glass import BreakTheGlass
from .care_team_member_read import CareTeamMemberRead
from .care_team_read import CareTeamRead
from .care_team_update import CareTeamUpdate
from .chart_access_grant_read import ChartAccessGrantRead
from .chart_access_grant_review import ChartAccessGrantReview
from .client_create import ClientCreate
from .client_import_result import ClientImportResult
from .client_read import ClientRead
from .client_search import ClientSearch
from .client_update import ClientUpdate
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
from .page_audit_event_read import PageAuditEventRead
from .page_client_read import PageClientRead
from .page_session_note_read import PageSessionNoteRead
from .page_session_note_version_read import PageSessionNoteVersionRead
from .page_token_read import PageTokenRead
from .page_user_read import PageUserRead
from .password_change import PasswordChange
from .password_changed import PasswordChanged
from .pgcrypto_readiness import PgcryptoReadiness
from .public_readiness import PublicReadiness
from .public_readiness_status import PublicReadinessStatus
from .readiness import Readiness
from .readiness_status import ReadinessStatus
from .reauth_request import ReauthRequest
from .reauth_response import ReauthResponse
from .session_note_create import SessionNoteCreate
from .session_note_finalize import SessionNoteFinalize
from .session_note_read import SessionNoteRead
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
from .workspace_read import WorkspaceRead
from .workspace_read_chart_access import WorkspaceReadChartAccess
from .workspace_update import WorkspaceUpdate
from .workspace_update_chart_access import WorkspaceUpdateChartAccess

__all__ = (
    "AppointmentCreate",
    "AppointmentCreateStatus",
    "AppointmentRead",
    "AppointmentReadStatus",
    "AppointmentUpdate",
    "AppointmentUpdateStatus",
    "AuditEventRead",
    "AuditEventReadDetailsType0",
    "AuditReadiness",
    "BreakTheGlass",
    "CareTeamMemberRead",
    "CareTeamRead",
    "CareTeamUpdate",
    "ChartAccessGrantRead",
    "ChartAccessGrantReview",
    "ClientCreate",
    "ClientImportResult",
    "ClientRead",
    "ClientSearch",
    "ClientUpdate",
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
    "PageAuditEventRead",
    "PageClientRead",
    "PageSessionNoteRead",
    "PageSessionNoteVersionRead",
    "PageTokenRead",
    "PageUserRead",
    "PasswordChange",
    "PasswordChanged",
    "PgcryptoReadiness",
    "PublicReadiness",
    "PublicReadinessStatus",
    "Readiness",
    "ReadinessStatus",
    "ReauthRequest",
    "ReauthResponse",
    "SessionNoteCreate",
    "SessionNoteFinalize",
    "SessionNoteRead",
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
    "WorkspaceRead",
    "WorkspaceReadChartAccess",
    "WorkspaceUpdate",
    "WorkspaceUpdateChartAccess",
)
