"""The format-2 audit seal test vector in docs/reference/audit-seal-format.md: recomputed from
the specification with hashlib and hmac alone (tests/audit_support.vector_block), it must match
the document, and carevault's own sealing functions must agree with it. (That PostgreSQL
produces the vector's encoding is checked in tests/integration/test_audit_formats.py.)

Regenerate the block after a deliberate change: python -m tests.unit.test_audit_seal_vector
(from backend/)."""

from __future__ import annotations

import uuid
from pathlib import Path

from carevault.audit.sealing import (
    GENESIS_MAC,
    content_digest,
    event_digest,
    seal_mac_v2,
)
from tests.support.audit import (
    VECTOR_BEGIN,
    VECTOR_END,
    VECTOR_EVENT,
    VECTOR_KEY,
    VECTOR_SEAL,
    encode_event,
    vector_block,
)

DOC_PATH = Path(__file__).resolve().parents[3] / "docs" / "reference" / "audit-seal-format.md"


def field(block: str, name: str) -> str:
    line = next(line for line in block.splitlines() if line.startswith(name + " "))
    return line.split()[-1]


def test_the_documented_vector_is_the_specification_recomputed() -> None:
    document = DOC_PATH.read_text()
    documented = document.split(VECTOR_BEGIN)[1].split(VECTOR_END)[0].strip()
    assert documented == vector_block()


def test_carevault_seals_the_vector_as_documented() -> None:
    block = vector_block()
    encoding = encode_event(**VECTOR_EVENT)
    digest = event_digest(encoding)
    content = content_digest([encoding])
    assert digest.hex() == field(block, "digest")
    assert content.hex() == field(block, "content_digest")
    workspace: uuid.UUID = VECTOR_EVENT["workspace_id"]
    mac = seal_mac_v2(
        VECTOR_KEY,
        workspace,
        VECTOR_SEAL["seq"],
        VECTOR_SEAL["total"],
        GENESIS_MAC,
        VECTOR_SEAL["txid_from"],
        VECTOR_SEAL["txid_to"],
        [VECTOR_EVENT["id"]],
        digest,
        content,
    )
    assert mac.hex() == field(block, "mac")


if __name__ == "__main__":
    print(VECTOR_BEGIN)
    print(vector_block())
    print(VECTOR_END)
