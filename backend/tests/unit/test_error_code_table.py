"""docs/reference/error-codes.md's table is the one generated from the code (issue 14)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.error_codes import MEANINGS, all_codes, codes_in, markdown  # noqa: E402

DOC = ROOT / "docs" / "reference" / "error-codes.md"
BEGIN = "<!-- error-codes:begin (generated: python -m tools.error_codes) -->"
END = "<!-- error-codes:end -->"


def test_the_doc_table_is_the_generated_one() -> None:
    text = DOC.read_text(encoding="utf-8")
    block = text[text.index(BEGIN) + len(BEGIN) : text.index(END)].strip()
    assert block == markdown(all_codes()), (
        "run `python -m tools.error_codes` into docs/reference/error-codes.md"
    )


def test_every_code_has_a_meaning_and_every_meaning_a_code() -> None:
    found = {code for codes in all_codes().values() for code in codes}
    assert found == set(MEANINGS)
    assert {"unknown_parameter", "idempotency_key_reused", "storage_full"} <= found


def test_the_scan_finds_every_way_a_code_is_raised() -> None:
    source = """
def handler():
    body = error_body("first", "…")
    body = error_body("second", "…")
    return JSONResponse(body, status_code=403)

def other():
    raise ApiError(409, "conflicting")

def third():
    raise invalid("bad_field", "…", "field")

def fourth():
    raise AuthFailure("no_entry", "…")

def fifth():
    return JSONResponse({"error": {"code": "literal"}}, status_code=500)

DOMAIN_STATUS: dict[type[DomainError], int] = {Conflict: 409, Gone: 410}

def sixth():
    raise Conflict("clashing", "…", details={})

def seventh():
    raise errors.Gone("departed", "…")
"""
    assert codes_in(ast.parse(source)) == {
        (403, "second"),
        (409, "conflicting"),
        (422, "bad_field"),
        (401, "no_entry"),
        (500, "literal"),
        (409, "clashing"),
        (410, "departed"),
    }


def test_the_domain_kinds_take_their_status_from_the_web_layers_table() -> None:
    # What the services raise is listed at the status api/errors.py maps their kind to.
    table = all_codes()
    assert "version_conflict" in table[409] and "appointment_conflict" in table[409]
    assert "workspace_shredded" in table[410]
    assert {"no_changes", "empty_note", "client_archived"} <= set(table[422])
    assert "not_found" in table[404]
