from enum import StrEnum


class RedisReadinessLimits(StrEnum):
    FALLING_BACK = "falling_back"
    SHARED = "shared"

    def __str__(self) -> str:
        return str(self.value)
