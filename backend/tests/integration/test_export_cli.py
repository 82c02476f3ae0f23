"""`carevault export` (issue 26): the practice's NDJSON in a directory with a manifest, the
same records the API's bulk export writes; an interrupted run continues with --resume,
without rewriting what it had finished; a directory with an export is never overwritten."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from carevault.auth.models import Role
from carevault.exports import bulk, directory
from tests.support.cli import carevault
from tests.support.db import sql
from tests.support.http import ApiContext


async def _practice(api: ApiContext, clients: int) -> str:
    space, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as http:
        for index in range(clients):
            made = await http.post(
                "/clients", json={"first_name": f"Cli{index}", "last_name": "Example"}
            )
            assert made.status_code == 201, made.text
            note = await http.post(
                "/sessions",
                json={"client_id": made.json()["id"], "session_date": "2025-01-15", "plan": "x"},
            )
            assert note.status_code == 201, note.text
    return space.name


def _records(path: Path) -> dict[str, list[dict[str, Any]]]:
    manifest = json.loads((path / "manifest.json").read_text())
    found: dict[str, list[dict[str, Any]]] = {}
    for output in manifest["output"]:
        lines = (path / output["url"]).read_text().splitlines()
        assert len(lines) == output["count"]
        found.setdefault(output["type"], []).extend(json.loads(line) for line in lines)
    return found


async def test_export_writes_every_type_and_resumes_after_an_interruption(
    api: ApiContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = await _practice(api, clients=5)
    whole = tmp_path / "whole"
    code, output = await carevault(api, "export", "--workspace", name, "--output", str(whole))
    assert code == 0, output
    records = _records(whole)
    assert [len(records[t]) for t in ("Organization", "Practitioner", "Patient")] == [1, 1, 5]
    assert len(records["Encounter"]) == 5 and len(records["DocumentReference"]) == 5
    events = await sql(api, "SELECT details FROM audit_events WHERE action = 'export.cli'")
    assert json.loads(events[0]["details"])["records"]["Patient"] == 5

    # Refused: the directory already holds an export (and --resume of an empty one).
    code, output = await carevault(api, "export", "--workspace", name, "--output", str(whole))
    assert code != 0 and "--resume" in output
    code, output = await carevault(
        api, "export", "--workspace", name, "--output", str(tmp_path / "none"), "--resume"
    )
    assert code != 0 and "no export to resume" in output

    # Interrupted after two parts of two records, then resumed.
    monkeypatch.setattr(bulk, "PART_RECORDS", 2)
    recorded = directory.DirectoryStore.record
    calls = 0

    async def stop_after_two(self: directory.DirectoryStore, part: bulk.Part) -> bool:
        nonlocal calls
        calls += 1
        if calls > 3:  # Organization, Practitioner, one Patient part
            raise KeyboardInterrupt
        return await recorded(self, part)

    monkeypatch.setattr(directory.DirectoryStore, "record", stop_after_two)
    parted = tmp_path / "parted"
    code, _ = await carevault(api, "export", "--workspace", name, "--output", str(parted))
    assert code != 0
    first_patients = (parted / "Patient-00001.ndjson").stat()
    assert not (parted / "manifest.json").exists()
    monkeypatch.setattr(directory.DirectoryStore, "record", recorded)
    code, output = await carevault(
        api, "export", "--workspace", name, "--output", str(parted), "--resume"
    )
    assert code == 0, output
    assert (parted / "Patient-00001.ndjson").stat().st_mtime_ns == first_patients.st_mtime_ns
    resumed = _records(parted)
    for kind, resources in records.items():
        assert sorted(r["id"] for r in resumed[kind]) == sorted(r["id"] for r in resources), kind
    assert not list(parted.glob(".*.partial"))
