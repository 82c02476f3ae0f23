"""Loaded by the schemathesis command (`SCHEMATHESIS_HOOKS`, see test_schemathesis.py): how
to send the request bodies it has no serializer for. `POST /clients/import` takes JSON lines
as `application/x-ndjson`, text like its `text/csv` body; a generated value that is not text
goes as its JSON, and unpaired surrogates stay in the bytes (the server must refuse them,
not fail on them)."""

from __future__ import annotations

import json
from typing import Any

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def json_lines(context: Any, value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    return json.dumps(value).encode()
