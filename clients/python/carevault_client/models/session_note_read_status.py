from enum import StrEnum


class SessionNoteReadStatus(StrEnum):
    DRAFT = "draft"
    FINALIZED = "finalized"

    def __str__(self) -> str:
        return str(self.value)
