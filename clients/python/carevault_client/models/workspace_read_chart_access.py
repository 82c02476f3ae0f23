from enum import StrEnum


class WorkspaceReadChartAccess(StrEnum):
    CARE_TEAM = "care_team"
    PRACTICE = "practice"

    def __str__(self) -> str:
        return str(self.value)
