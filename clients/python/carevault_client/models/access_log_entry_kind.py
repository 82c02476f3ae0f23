from enum import StrEnum


class AccessLogEntryKind(StrEnum):
    ACCESS_LOG = "access_log"
    CHANGE = "change"
    CHART_READ = "chart_read"
    EXPORT = "export"
    LIST_APPEARANCE = "list_appearance"
    OTHER = "other"

    def __str__(self) -> str:
        return str(self.value)
