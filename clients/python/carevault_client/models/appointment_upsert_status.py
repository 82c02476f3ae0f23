from enum import StrEnum


class AppointmentUpsertStatus(StrEnum):
    ATTENDED = "attended"
    CANCELLED = "cancelled"
    NO_SHOW = "no-show"
    SCHEDULED = "scheduled"

    def __str__(self) -> str:
        return str(self.value)
