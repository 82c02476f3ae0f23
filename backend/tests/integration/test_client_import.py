"""`carevault import clients`: all rows or none, bad rows by line number."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import asyncpg
import pytest
from typer.testing import CliRunner, Result

from carevault.cli import app as cli
from carevault.clients.importing import ImportRejected, read_rows, validate
from tests.support.db import NewDatabase
from tests.support.http import ApiContext

CSV = """First Name,Last Name,E-mail,Mobile,DOB,Notes
Ada,Lovelace,ada@example.org,+44 20 7946 0000,1990-12-10,Prefers mornings
Grace,Hopper,grace@example.org,(555) 010-0199,1985-06-01,
"""


async def invoke(arguments: list[str], env: dict[str, str]) -> Result:
    return await asyncio.to_thread(lambda: CliRunner().invoke(cli, arguments, env=env))


async def count_clients(url: str) -> int:
    connection = await asyncpg.connect(url.replace("+asyncpg", ""))
    try:
        return int(await connection.fetchval("SELECT count(*) FROM clients"))
    finally:
        await connection.close()


@pytest.fixture
async def env(new_database: NewDatabase, data_dir: Path) -> dict[str, str]:
    url = await new_database()
    variables = {"CAREVAULT_DATABASE_URL": url, "CAREVAULT_DATA_DIR": str(data_dir)}
    created = await asyncio.to_thread(
        CliRunner().invoke,
        cli,
        [
            "users",
            "create",
            "--workspace",
            "Import Clinic",
            "--email",
            "o@import.example",
            "--role",
            "owner",
        ],
        input="import-owner-pw\n",
        env=variables,
    )
    assert created.exit_code == 0, created.output
    return variables


async def test_csv_with_export_style_headers_imports_every_row(
    env: dict[str, str], tmp_path: Path
) -> None:
    source = tmp_path / "export.csv"
    source.write_text(CSV)
    result = await invoke(["import", "clients", str(source), "--workspace", "Import Clinic"], env)
    assert result.exit_code == 0, result.output
    assert "Imported 2 clients into 'Import Clinic'." in result.output
    assert await count_clients(env["CAREVAULT_DATABASE_URL"]) == 2


async def test_the_command_works_in_a_fresh_process(env: dict[str, str], tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    source = tmp_path / "one.csv"
    source.write_text("first_name,last_name\nAda,Lovelace\n")
    done = await asyncio.to_thread(
        subprocess.run,
        [
            sys.executable,
            "-m",
            "carevault",
            "import",
            "clients",
            str(source),
            "--workspace",
            "Import Clinic",
        ],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert await count_clients(env["CAREVAULT_DATABASE_URL"]) == 1


async def test_a_bad_row_imports_nothing_and_names_the_line(
    env: dict[str, str], tmp_path: Path
) -> None:
    rows = [
        {"first_name": "Ok", "last_name": "Row"},
        {"first_name": "", "last_name": "X"},
        {"first_name": "A", "last_name": "B", "date_of_birth": "2999-01-01"},
    ]
    source = tmp_path / "clients.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in rows) + "\nnot json\n")
    result = await invoke(["import", "clients", str(source), "--workspace", "Import Clinic"], env)
    assert result.exit_code == 1
    assert "line 2 first_name:" in result.output
    assert "line 3 date_of_birth: Value error, is in the future" in result.output
    assert "line 4: not valid JSON" in result.output
    assert "nothing was imported" in result.output
    assert await count_clients(env["CAREVAULT_DATABASE_URL"]) == 0


async def test_unknown_workspace_rolls_back(env: dict[str, str], tmp_path: Path) -> None:
    source = tmp_path / "export.csv"
    source.write_text(CSV)
    result = await invoke(["import", "clients", str(source), "--workspace", "Nope"], env)
    assert result.exit_code == 2 and "no workspace named 'Nope'" in result.output
    assert await count_clients(env["CAREVAULT_DATABASE_URL"]) == 0


def test_unknown_columns_are_refused_unless_ignored() -> None:
    text = "first_name,last_name,shoe_size\nAda,Lovelace,38\n"
    with pytest.raises(ImportRejected) as rejected:
        validate(read_rows(text, "csv"), phone_region="US")
    assert rejected.value.errors[0].field == "shoe_size"
    assert rejected.value.errors[0].line == 2
    assert [
        r.first_name
        for r in validate(read_rows(text, "csv"), phone_region="US", ignore_unknown_columns=True)
    ] == ["Ada"]


def test_cells_a_spreadsheet_would_run_as_formulas_are_refused_by_line_and_field() -> None:
    """OWASP's CSV injection: text starting with =, +, -, @ (also after a tab or CR, which
    are stripped) would run as a formula in whoever's spreadsheet opens an export later."""
    text = (
        "first_name,last_name,email,phone,address,notes\n"
        '"=HYPERLINK(""http://x.test"",""click"")",Doe,,,,\n'
        "Ada,Lovelace,=1+1@example.org,,,\n"
        "Grace,Hopper,,,-2+3+cmd|' /C calc'!A0,\n"
        'Alan,Turing,,,,"\t=1+1"\n'
        'Mary,Shelley,,,,"\r+SUM(A1:A2)"\n'
        "Ok,Row,,+1 555 010 0199,1 Main St,'- prefers mornings; a = b; -1 is fine here\n"
    )
    with pytest.raises(ImportRejected) as rejected:
        validate(read_rows(text, "csv"), phone_region="US")
    found = [(e.line, e.field) for e in rejected.value.errors]
    assert found == [
        (2, "first_name"),
        (3, "email"),
        (4, "address"),
        (5, "notes"),
        (7, "notes"),  # the record ends on line 7: its quoted CR counts as a line break
    ]
    assert all("formula" in e.message for e in rejected.value.errors)
    last = text.splitlines()[0] + "\n" + text.splitlines()[-1] + "\n"
    [kept] = validate(read_rows(last, "csv"), phone_region="US")
    assert kept.notes == "'- prefers mornings; a = b; -1 is fine here"
    assert kept.phone == "+1 555 010 0199"  # a phone's "+" is its country code
    jsonl = json.dumps({"first_name": "Ada", "last_name": "Lovelace", "notes": "@SUM(1)"})
    with pytest.raises(ImportRejected) as from_json:
        validate(read_rows(jsonl + "\n", "jsonl"), phone_region="US")
    assert [(e.line, e.field) for e in from_json.value.errors] == [(1, "notes")]


async def test_http_import_is_for_owners_and_all_or_nothing(api: ApiContext) -> None:
    from carevault.auth.models import Role

    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    headers = {"Content-Type": "text/csv"}
    async with api.signed_in(clinician) as client:
        refused = await client.post("/clients/import", content=CSV, headers=headers)
        assert refused.status_code == 403
    async with api.signed_in(owner) as client:
        bad = await client.post("/clients/import", content=CSV + "Only,\n", headers=headers)
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "import_rejected"
        assert bad.json()["error"]["details"][0]["line"] == 4
        assert (await client.get("/clients")).json()["total"] == 0
        wrong_type = await client.post("/clients/import", content=CSV)
        assert wrong_type.status_code == 415
        done = await client.post("/clients/import", content=CSV, headers=headers)
        assert done.status_code == 201 and done.json()["imported"] == 2
        found = await client.post("/clients/search", json={"q": "GRACE@example.org "})
        assert [c["last_name"] for c in found.json()["items"]] == ["Hopper"]


async def test_a_bad_row_after_copied_batches_leaves_nothing(
    env: dict[str, str], tmp_path: Path
) -> None:
    """Rows of the first 1,000-row batch are already COPY'd when line 1,402 is read: the
    transaction is rolled back and the file is refused at that line."""
    rows = [f"Given{i},Family{i},client{i}@example.org" for i in range(1_500)]
    rows[1_400] = "Given,Family,not-an-email"  # line 1,402 (the header is line 1)
    source = tmp_path / "export.csv"
    source.write_text("first_name,last_name,email\n" + "\n".join(rows) + "\n")
    result = await invoke(["import", "clients", str(source), "--workspace", "Import Clinic"], env)
    assert result.exit_code == 1, result.output
    assert result.output.startswith("line 1402 email: Value error, not an email address")
    assert "1 problem(s) in export.csv; nothing was imported" in result.output
    assert await count_clients(env["CAREVAULT_DATABASE_URL"]) == 0


async def test_a_line_that_is_not_utf8_is_named(env: dict[str, str], tmp_path: Path) -> None:
    source = tmp_path / "latin1.csv"
    source.write_bytes("first_name,last_name\nAda,Lovelace\nZoë,Brontë\n".encode("latin-1"))
    result = await invoke(["import", "clients", str(source), "--workspace", "Import Clinic"], env)
    assert result.exit_code == 1, result.output
    assert "line 3: not UTF-8 text" in result.output
    assert await count_clients(env["CAREVAULT_DATABASE_URL"]) == 0


async def test_the_command_reports_its_rate(env: dict[str, str], tmp_path: Path) -> None:
    source = tmp_path / "clients.jsonl"
    source.write_text('{"first_name": "Ada", "last_name": "Lovelace"}\n')
    result = await invoke(["import", "clients", str(source), "--workspace", "Import Clinic"], env)
    assert result.exit_code == 0, result.output
    assert re.search(
        r"Imported 1 clients into 'Import Clinic'\. [\d.]+ s, [\d,]+ rows/s\.", result.output
    )


async def test_http_import_names_undecodable_and_unreadable_lines(api: ApiContext) -> None:
    from carevault.auth.models import Role

    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    headers = {"Content-Type": "text/csv"}
    latin1 = "first_name,last_name\nAda,Lovelace\nZoë,Brontë\n".encode("latin-1")
    too_long = "first_name,notes\nAda," + "x" * 200_000 + "\n"
    async with api.signed_in(owner) as client:
        undecodable = await client.post("/clients/import", content=latin1, headers=headers)
        unreadable = await client.post("/clients/import", content=too_long, headers=headers)
        total = (await client.get("/clients")).json()["total"]
    assert undecodable.status_code == 422
    assert undecodable.json()["error"]["code"] == "import_rejected"
    assert undecodable.json()["error"]["details"][0]["line"] == 3
    # A field over the csv module's limit was an unhandled error (500) before.
    assert unreadable.status_code == 422, unreadable.text
    assert unreadable.json()["error"]["details"][0]["line"] == 2
    assert total == 0


EXTERNAL_CSV = """first_name,last_name,email,external_id
Ada,Lovelace,ada@example.org,crm-1
Grace,Hopper,,
Alan,Turing,alan@example.org,crm-3
"""


async def test_http_import_returns_each_rows_line_id_and_external_id(api: ApiContext) -> None:
    from carevault.auth.models import Role

    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    headers = {"Content-Type": "text/csv"}
    async with api.signed_in(owner) as client:
        done = await client.post("/clients/import", content=EXTERNAL_CSV, headers=headers)
        assert done.status_code == 201, done.text
        answer = done.json()
        assert (answer["imported"], answer["created"], answer["updated"]) == (3, 3, 0)
        assert [(r["line"], r["external_id"], r["action"]) for r in answer["results"]] == [
            (2, "crm-1", "created"),
            (3, None, "created"),
            (4, "crm-3", "created"),
        ]
        first = await client.get(f"/clients/{answer['results'][0]['id']}")
        assert first.json()["last_name"] == "Lovelace"
        assert first.json()["external_id"] == "crm-1"
        # Again without upsert: refused by line, nothing written.
        again = await client.post("/clients/import", content=EXTERNAL_CSV, headers=headers)
        assert again.status_code == 422
        assert [(d["line"], d["field"]) for d in again.json()["error"]["details"]] == [
            (2, "external_id"),
            (4, "external_id"),
        ]
        assert (await client.get("/clients")).json()["total"] == 3
        changed = EXTERNAL_CSV.replace("Lovelace,ada@example.org", "King,")
        upserted = await client.post(
            "/clients/import", params={"upsert": "true"}, content=changed, headers=headers
        )
        assert upserted.status_code == 201, upserted.text
        results = upserted.json()["results"]
        assert [(r["line"], r["action"]) for r in results] == [
            (2, "updated"),
            (3, "created"),
            (4, "updated"),
        ]
        assert results[0]["id"] == answer["results"][0]["id"]
        assert upserted.json()["updated"] == 2
        ada = (await client.get(f"/clients/{results[0]['id']}")).json()
        assert ada["last_name"] == "King"
        assert ada["email"] == "ada@example.org"  # a blank cell never clears
        assert (await client.get("/clients")).json()["total"] == 4


async def test_an_external_id_twice_in_one_file(api: ApiContext) -> None:
    from carevault.auth.models import Role

    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    twice = "first_name,last_name,external_id\nAda,One,crm-9\nAda,Two,crm-9\n"
    headers = {"Content-Type": "text/csv"}
    async with api.signed_in(owner) as client:
        refused = await client.post("/clients/import", content=twice, headers=headers)
        assert refused.status_code == 422
        assert refused.json()["error"]["details"][0]["line"] == 3
        upserted = await client.post(
            "/clients/import", params={"upsert": "true"}, content=twice, headers=headers
        )
        assert upserted.status_code == 201, upserted.text
        assert [r["action"] for r in upserted.json()["results"]] == ["created", "updated"]
        listed = (await client.get("/clients")).json()["items"]
    assert [c["last_name"] for c in listed] == ["Two"]  # the last row wins


async def test_the_command_upserts_and_writes_its_results(
    env: dict[str, str], tmp_path: Path
) -> None:
    source = tmp_path / "export.csv"
    source.write_text(EXTERNAL_CSV)
    results = tmp_path / "results.csv"
    first = await invoke(
        [
            "import",
            "clients",
            str(source),
            "--workspace",
            "Import Clinic",
            "--results",
            str(results),
        ],
        env,
    )
    assert first.exit_code == 0, first.output
    lines = results.read_text().splitlines()
    assert lines[0] == "line,id,external_id,action"
    assert [line.split(",")[2:] for line in lines[1:]] == [
        ["crm-1", "created"],
        ["", "created"],
        ["crm-3", "created"],
    ]
    refused = await invoke(["import", "clients", str(source), "--workspace", "Import Clinic"], env)
    assert refused.exit_code == 1
    assert "line 2 external_id" in refused.output
    upserted = await invoke(
        ["import", "clients", str(source), "--workspace", "Import Clinic", "--upsert"], env
    )
    assert upserted.exit_code == 0, upserted.output
    assert "(2 updated)" in upserted.output
    assert await count_clients(env["CAREVAULT_DATABASE_URL"]) == 4
