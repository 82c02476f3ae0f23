from enum import StrEnum


class UserReadRole(StrEnum):
    CLINICIAN = "clinician"
    OWNER = "owner"

    def __str__(self) -> str:
        return str(self.value)
