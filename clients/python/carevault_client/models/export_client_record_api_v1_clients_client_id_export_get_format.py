from enum import StrEnum


class ExportClientRecordApiV1ClientsClientIdExportGetFormat(StrEnum):
    FHIR = "fhir"
    PDF = "pdf"

    def __str__(self) -> str:
        return str(self.value)
