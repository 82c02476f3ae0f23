from enum import StrEnum


class ListAuditEventsApiV1AuditEventsGetActorKindType0Item(StrEnum):
    SERVICE_ACCOUNT = "service_account"
    SESSION = "session"
    SYSTEM = "system"
    TOKEN = "token"

    def __str__(self) -> str:
        return str(self.value)
