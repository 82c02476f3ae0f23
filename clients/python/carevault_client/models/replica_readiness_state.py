from enum import StrEnum


class ReplicaReadinessState(StrEnum):
    LAGGING = "lagging"
    NOT_IN_RECOVERY = "not_in_recovery"
    STREAMING = "streaming"
    UNKNOWN = "unknown"
    UNREACHABLE = "unreachable"

    def __str__(self) -> str:
        return str(self.value)
