from enum import StrEnum


class ImportedClientAction(StrEnum):
    CREATED = "created"
    UPDATED = "updated"

    def __str__(self) -> str:
        return str(self.value)
