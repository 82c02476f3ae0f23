"""Imports every model so that `Base.metadata` is complete (Alembic, tests)."""

from carevault.appointments.models import Appointment
from carevault.audit.models import AuditCheckpointRecord, AuditEvent, AuditSeal
from carevault.auth.models import ApiToken, User
from carevault.clients.models import CareTeamMember, ChartAccessGrant, Client
from carevault.db.base import Base
from carevault.events.models import ChangeEvent, ChangeEventHorizon
from carevault.exports.models import ExportFile, ExportJob
from carevault.idempotency.models import IdempotencyRecord
from carevault.notes.models import SessionNote, SessionNoteVersion
from carevault.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from carevault.workspaces.models import Workspace

__all__ = [
    "ApiToken",
    "Appointment",
    "AuditCheckpointRecord",
    "AuditEvent",
    "AuditSeal",
    "Base",
    "CareTeamMember",
    "ChangeEvent",
    "ChangeEventHorizon",
    "ChartAccessGrant",
    "Client",
    "ExportFile",
    "ExportJob",
    "IdempotencyRecord",
    "SessionNote",
    "SessionNoteVersion",
    "User",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpoint",
    "Workspace",
]
