"""`carevault export`'s parts: plain NDJSON files in the operator's directory, the parts
finished so far listed in `.carevault-export.json` (rewritten atomically after each part),
so `--resume` continues after the last one. The directory then holds PHI in the clear: it
is the operator's to protect and to move (docs/how-to/operations.md)."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from carevault.exports import bulk

STATE_FILE = ".carevault-export.json"


class DirectoryPart:
    def __init__(self, directory: Path, name: str) -> None:
        self._final = directory / name
        self._temporary = directory / f".{name}.partial"
        self._file = self._temporary.open("wb")
        os.chmod(self._temporary, 0o600)
        self._size = 0

    def write(self, data: bytes) -> None:
        self._file.write(data)
        self._size += len(data)

    def close(self) -> int:
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        os.replace(self._temporary, self._final)
        return self._size

    def discard(self) -> None:
        self._file.close()
        self._temporary.unlink(missing_ok=True)


class DirectoryStore:
    def __init__(self, directory: Path, workspace_id: str, *, resume: bool) -> None:
        self.directory = directory
        self.state_path = directory / STATE_FILE
        self.parts: list[bulk.Part] = []
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        if self.state_path.exists():
            state = json.loads(self.state_path.read_text())
            if not resume:
                raise FileExistsError(f"{directory} holds an export; pass --resume to continue it")
            if state.get("workspace_id") != workspace_id:
                raise FileExistsError(f"{directory} holds the export of another workspace")
            self.parts = [bulk.Part(**part) for part in state.get("parts", [])]
        elif resume:
            raise FileNotFoundError(f"{directory} holds no export to resume")
        elif any(p for p in directory.iterdir() if not p.name.startswith(".")):
            raise FileExistsError(f"{directory} is not empty")
        for stray in directory.glob(".*.partial"):  # a part the stopped run had not finished
            stray.unlink()
        self.workspace_id = workspace_id
        self._save()

    async def finished(self) -> list[bulk.Part]:
        return list(self.parts)

    def open(self, resource_type: str, part: int) -> bulk.PartWriter:
        return DirectoryPart(self.directory, bulk.part_name(resource_type, part))

    async def record(self, part: bulk.Part) -> bool:
        self.parts.append(part)
        self._save()
        return True

    async def heartbeat(self) -> bool:
        return True

    def _save(self) -> None:
        state: dict[str, Any] = {
            "workspace_id": self.workspace_id,
            "parts": [asdict(part) for part in self.parts],
        }
        temporary = self.state_path.with_suffix(".tmp")
        temporary.write_text(json.dumps(state, indent=1))
        os.replace(temporary, self.state_path)

    def write_manifest(self, transaction_time: str) -> Path:
        """`manifest.json` as the Bulk Data status answer has it, with relative file names."""
        order = sorted(
            self.parts, key=lambda p: (bulk.RESOURCE_TYPES.index(p.resource_type), p.part)
        )
        manifest = {
            "transactionTime": transaction_time,
            "request": "carevault export",
            "requiresAccessToken": False,
            "output": [
                {
                    "type": p.resource_type,
                    "url": bulk.part_name(p.resource_type, p.part),
                    "count": p.count,
                }
                for p in order
            ],
            "error": [],
        }
        path = self.directory / "manifest.json"
        path.write_text(json.dumps(manifest, indent=1))
        return path
