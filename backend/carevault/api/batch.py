"""Batch reads over HTTP: `POST /<resource>/batch-get` with up to 100 ids → the records the
caller may read, in the order asked, and the ids it cannot (missing, in another practice,
outside the caller's care team: one list, so nothing tells them apart). The services write
one audit event naming every record disclosed."""

from __future__ import annotations

import uuid
from typing import Any, Generic, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field

from carevault.auth.schemas import StrictModel

MAX_BATCH_IDS = 100
T = TypeVar("T")


class BatchGet(StrictModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "ids": [
                        "00000000-0000-4000-8000-000000000001",
                        "00000000-0000-4000-8000-000000000002",
                    ]
                }
            ]
        }
    )

    ids: list[uuid.UUID] = Field(
        min_length=1,
        max_length=MAX_BATCH_IDS,
        description="1 to 100 ids; a repeated id is read once",
    )

    def distinct_ids(self) -> list[uuid.UUID]:
        return list(dict.fromkeys(self.ids))


def _batch_example(schema: dict[str, Any], batch: type[Any]) -> None:
    """`Batch[Item]`'s example: one found item and one id not found."""
    (item,) = get_args(batch.model_fields["items"].annotation) or (None,)
    extra = item.model_config.get("json_schema_extra") if hasattr(item, "model_config") else None
    if isinstance(extra, dict) and isinstance(extra.get("examples"), list) and extra["examples"]:
        schema["examples"] = [
            {
                "items": [extra["examples"][0]],
                "not_found": ["00000000-0000-4000-8000-000000000002"],
            }
        ]


class Batch(BaseModel, Generic[T]):
    model_config = ConfigDict(json_schema_extra=_batch_example)

    items: list[T] = Field(description="The records you may read, in the order asked")
    not_found: list[uuid.UUID] = Field(
        description="Ids of records that do not exist, are deleted, or that you may not read "
        "(another practice, outside your care team); or whose protected fields could not be "
        "decrypted (each such record is also in the audit trail)"
    )

    @classmethod
    def of(cls, asked: list[uuid.UUID], items: list[T]) -> Batch[T]:
        found = {getattr(item, "id", None) for item in items}
        return cls(items=items, not_found=[i for i in asked if i not in found])
