from enum import StrEnum


class WorkspaceUpdateChartAccess(StrEnum):
    CARE_TEAM = "care_team"
    PRACTICE = "practice"

    def __str__(self) -> str:
        return str(self.value)
