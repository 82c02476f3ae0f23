from enum import StrEnum


class ServiceAccountCreateScopesItem(StrEnum):
    APPOINTMENTSREAD = "appointments:read"
    APPOINTMENTSWRITE = "appointments:write"
    AUDITREAD = "audit:read"
    CLIENTSREAD = "clients:read"
    CLIENTSWRITE = "clients:write"
    EVENTSREAD = "events:read"
    NOTESREAD = "notes:read"
    NOTESWRITE = "notes:write"
    SYSTEMREAD = "system:read"

    def __str__(self) -> str:
        return str(self.value)
