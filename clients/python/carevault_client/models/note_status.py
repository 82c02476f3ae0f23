from enum import StrEnum


class NoteStatus(StrEnum):
    DRAFT = "draft"
    FINALIZED = "finalized"

    def __str__(self) -> str:
        return str(self.value)
