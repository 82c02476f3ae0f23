from enum import StrEnum


class AuditEventReadActorKind(StrEnum):
    SERVICE_ACCOUNT = "service_account"
    SESSION = "session"
    SYSTEM = "system"
    TOKEN = "token"

    def __str__(self) -> str:
        return str(self.value)
