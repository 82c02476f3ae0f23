from enum import StrEnum


class AccessLogEntryVia(StrEnum):
    SYSTEM = "system"
    TOKEN = "token"
    UI = "ui"

    def __str__(self) -> str:
        return str(self.value)
