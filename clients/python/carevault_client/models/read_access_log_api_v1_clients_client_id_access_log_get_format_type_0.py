from enum import StrEnum


class ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0(StrEnum):
    CSV = "csv"
    JSON = "json"

    def __str__(self) -> str:
        return str(self.value)
