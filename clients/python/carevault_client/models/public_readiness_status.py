from enum import StrEnum


class PublicReadinessStatus(StrEnum):
    DEGRADED = "degraded"
    READY = "ready"
    UNAVAILABLE = "unavailable"

    def __str__(self) -> str:
        return str(self.value)
