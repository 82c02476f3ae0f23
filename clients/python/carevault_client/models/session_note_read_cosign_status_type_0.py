from enum import StrEnum


class SessionNoteReadCosignStatusType0(StrEnum):
    AWAITING = "awaiting"
    COSIGNED = "cosigned"

    def __str__(self) -> str:
        return str(self.value)
