from enum import StrEnum


class ListenerReadinessState(StrEnum):
    LISTENING = "listening"
    RECONNECTING = "reconnecting"

    def __str__(self) -> str:
        return str(self.value)
