"""Contains all the data models used in inputs/outputs"""

from .access_log_entry import AccessLogEntry
from .access_log_entry_kind import AccessLogEntryKind
from .access_log_entry_via import AccessLogEntryVia
from .addendum_read import AddendumRead
from .appointment_client import AppointmentClient
from .appointment_clinician import AppointmentClinician
from .appointment_create import AppointmentCreate
from .appointment_create_metadata import AppointmentCreateMetadata
from .appointment_create_status import AppointmentCreateStatus
from .appointment_read import AppointmentRead
from .appointment_read_metadata import AppointmentReadMetadata
from .appointment_read_status import AppointmentReadStatus
from .appointment_series_create import AppointmentSeriesCreate
from .appointment_series_create_metadata import AppointmentSeriesCreateMetadata
from .appointment_series_create_status import AppointmentSeriesCreateStatus
from .appointment_series_read import AppointmentSeriesRead
from .appointment_update import AppointmentUpdate
from .appointment_update_metadata_type_0 import AppointmentUpdateMetadataType0
from .appointment_update_status import AppointmentUpdateStatus
from .appointment_upsert import AppointmentUpsert
from .appointment_upsert_metadata import AppointmentUpsertMetadata
from .appointment_upsert_status import AppointmentUpsertStatus
from .attestation_statement import AttestationStatement
from .attestations_read import AttestationsRead
from .audit_event_read import AuditEventRead
from .audit_event_read_actor_kind import AuditEventReadActorKind
from .audit_event_read_details_type_0 import AuditEventReadDetailsType0
from .audit_readiness import AuditReadiness
from .batch_appointment_read import BatchAppointmentRead
from .batch_client_read import BatchClientRead
from .batch_get import BatchGet
from .batch_session_note_read import BatchSessionNoteRead
from .break_the_glass import BreakTheGlass
from .cancelled_occurrences import CancelledOccurrences
from .care_team_member_read import CareTeamMemberRead
from .care_team_read import CareTeamRead
from .care_team_update import CareTeamUpdate
from .chart_access_grant_read import ChartAccessGrantRead
from .chart_access_grant_review import ChartAccessGrantReview
from .client_create import ClientCreate
from .client_create_metadata import ClientCreateMetadata
from .client_import_result import ClientImportResult
from .client_read import ClientRead
from .client_read_metadata import ClientReadMetadata
from .client_search import ClientSearch
from .client_summary import ClientSummary
from .client_update import ClientUpdate
from .client_update_metadata_type_0 import ClientUpdateMetadataType0
from .client_upsert import ClientUpsert
from .client_upsert_metadata import ClientUpsertMetadata
from .clinician_read import ClinicianRead
from .database_readiness import DatabaseReadiness
from .error_detail import ErrorDetail
from .error_response import ErrorResponse
from .event_head import EventHead
from .event_page import EventPage
from .event_read import EventRead
from .event_resource import EventResource
from .export_client_record_api_v1_clients_client_id_export_get_format import (
    ExportClientRecordApiV1ClientsClientIdExportGetFormat,
)
from .export_client_record_api_v1_clients_client_id_export_get_response_200 import (
    ExportClientRecordApiV1ClientsClientIdExportGetResponse200,
)
from .imported_client import ImportedClient
from .imported_client_action import ImportedClientAction
from .key_ring_readiness import KeyRingReadiness
from .key_ring_readiness_versions import KeyRingReadinessVersions
from .kms_key_readiness import KmsKeyReadiness
from .kms_readiness import KmsReadiness
from .kms_readiness_calls import KmsReadinessCalls
from .kms_readiness_practices_refused import KmsReadinessPracticesRefused
from .list_audit_events_api_v1_audit_events_get_actor_kind_type_0_item import (
    ListAuditEventsApiV1AuditEventsGetActorKindType0Item,
)
from .listener_readiness import ListenerReadiness
from .listener_readiness_state import ListenerReadinessState
from .liveness import Liveness
from .login_request import LoginRequest
from .login_response import LoginResponse
from .me_response import MeResponse
from .me_response_auth_method import MeResponseAuthMethod
from .note_status import NoteStatus
from .notifications_readiness import NotificationsReadiness
from .page_access_log_entry import PageAccessLogEntry
from .page_audit_event_read import PageAuditEventRead
from .page_client_summary import PageClientSummary
from .page_service_account_read import PageServiceAccountRead
from .page_service_account_token_read import PageServiceAccountTokenRead
from .page_session_note_read import PageSessionNoteRead
from .page_session_note_version_read import PageSessionNoteVersionRead
from .page_token_read import PageTokenRead
from .page_user_read import PageUserRead
from .page_webhook_delivery_read import PageWebhookDeliveryRead
from .page_webhook_read import PageWebhookRead
from .password_change import PasswordChange
from .password_changed import PasswordChanged
from .pgcrypto_readiness import PgcryptoReadiness
from .practice_key_read import PracticeKeyRead
from .practice_key_update import PracticeKeyUpdate
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
from .redis_readiness import RedisReadiness
from .redis_readiness_limits import RedisReadinessLimits
from .replica_readiness import ReplicaReadiness
from .replica_readiness_state import ReplicaReadinessState
from .service_account_create import ServiceAccountCreate
from .service_account_create_scopes_item import ServiceAccountCreateScopesItem
from .service_account_read import ServiceAccountRead
from .service_account_ref import ServiceAccountRef
from .service_account_token_create import ServiceAccountTokenCreate
from .service_account_token_created import ServiceAccountTokenCreated
from .service_account_token_read import ServiceAccountTokenRead
from .session_note_cosign import SessionNoteCosign
from .session_note_create import SessionNoteCreate
from .session_note_create_metadata import SessionNoteCreateMetadata
from .session_note_finalize import SessionNoteFinalize
from .session_note_read import SessionNoteRead
from .session_note_read_cosign_status_type_0 import SessionNoteReadCosignStatusType0
from .session_note_read_metadata import SessionNoteReadMetadata
from .session_note_read_status import SessionNoteReadStatus
from .session_note_update import SessionNoteUpdate
from .session_note_update_metadata_type_0 import SessionNoteUpdateMetadataType0
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
from .webhook_attempt_read import WebhookAttemptRead
from .webhook_create import WebhookCreate
from .webhook_created import WebhookCreated
from .webhook_delivery_read import WebhookDeliveryRead
from .webhook_delivery_read_payload import WebhookDeliveryReadPayload
from .webhook_delivery_read_status import WebhookDeliveryReadStatus
from .webhook_read import WebhookRead
from .webhook_update import WebhookUpdate
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
    "AppointmentCreateMetadata",
    "AppointmentCreateStatus",
    "AppointmentRead",
    "AppointmentReadMetadata",
    "AppointmentReadStatus",
    "AppointmentSeriesCreate",
    "AppointmentSeriesCreateMetadata",
    "AppointmentSeriesCreateStatus",
    "AppointmentSeriesRead",
    "AppointmentUpdate",
    "AppointmentUpdateMetadataType0",
    "AppointmentUpdateStatus",
    "AppointmentUpsert",
    "AppointmentUpsertMetadata",
    "AppointmentUpsertStatus",
    "AttestationsRead",
    "AttestationStatement",
    "AuditEventRead",
    "AuditEventReadActorKind",
    "AuditEventReadDetailsType0",
    "AuditReadiness",
    "BatchAppointmentRead",
    "BatchClientRead",
    "BatchGet",
    "BatchSessionNoteRead",
    "BreakTheGlass",
    "CancelledOccurrences",
    "CareTeamMemberRead",
    "CareTeamRead",
    "CareTeamUpdate",
    "ChartAccessGrantRead",
    "ChartAccessGrantReview",
    "ClientCreate",
    "ClientCreateMetadata",
    "ClientImportResult",
    "ClientRead",
    "ClientReadMetadata",
    "ClientSearch",
    "ClientSummary",
    "ClientUpdate",
    "ClientUpdateMetadataType0",
    "ClientUpsert",
    "ClientUpsertMetadata",
    "ClinicianRead",
    "DatabaseReadiness",
    "ErrorDetail",
    "ErrorResponse",
    "EventHead",
    "EventPage",
    "EventRead",
    "EventResource",
    "ExportClientRecordApiV1ClientsClientIdExportGetFormat",
    "ExportClientRecordApiV1ClientsClientIdExportGetResponse200",
    "ImportedClient",
    "ImportedClientAction",
    "KeyRingReadiness",
    "KeyRingReadinessVersions",
    "KmsKeyReadiness",
    "KmsReadiness",
    "KmsReadinessCalls",
    "KmsReadinessPracticesRefused",
    "ListAuditEventsApiV1AuditEventsGetActorKindType0Item",
    "ListenerReadiness",
    "ListenerReadinessState",
    "Liveness",
    "LoginRequest",
    "LoginResponse",
    "MeResponse",
    "MeResponseAuthMethod",
    "NoteStatus",
    "NotificationsReadiness",
    "PageAccessLogEntry",
    "PageAuditEventRead",
    "PageClientSummary",
    "PageServiceAccountRead",
    "PageServiceAccountTokenRead",
    "PageSessionNoteRead",
    "PageSessionNoteVersionRead",
    "PageTokenRead",
    "PageUserRead",
    "PageWebhookDeliveryRead",
    "PageWebhookRead",
    "PasswordChange",
    "PasswordChanged",
    "PgcryptoReadiness",
    "PracticeKeyRead",
    "PracticeKeyUpdate",
    "PublicReadiness",
    "PublicReadinessStatus",
    "ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0",
    "ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0",
    "Readiness",
    "ReadinessStatus",
    "ReauthRequest",
    "ReauthResponse",
    "Recurrence",
    "RedisReadiness",
    "RedisReadinessLimits",
    "ReplicaReadiness",
    "ReplicaReadinessState",
    "ServiceAccountCreate",
    "ServiceAccountCreateScopesItem",
    "ServiceAccountRead",
    "ServiceAccountRef",
    "ServiceAccountTokenCreate",
    "ServiceAccountTokenCreated",
    "ServiceAccountTokenRead",
    "SessionNoteCosign",
    "SessionNoteCreate",
    "SessionNoteCreateMetadata",
    "SessionNoteFinalize",
    "SessionNoteRead",
    "SessionNoteReadCosignStatusType0",
    "SessionNoteReadMetadata",
    "SessionNoteReadStatus",
    "SessionNoteUpdate",
    "SessionNoteUpdateMetadataType0",
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
    "WebhookAttemptRead",
    "WebhookCreate",
    "WebhookCreated",
    "WebhookDeliveryRead",
    "WebhookDeliveryReadPayload",
    "WebhookDeliveryReadStatus",
    "WebhookRead",
    "WebhookUpdate",
    "WorkspaceRead",
    "WorkspaceReadChartAccess",
    "WorkspaceUpdate",
    "WorkspaceUpdateChartAccess",
)
