"""The import contracts of pyproject.toml (`make lint` runs lint-imports;
docs/explanation/architecture.md) keep up with the package: a new top-level package is
forbidden to crypto and core too."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import carevault

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = Path(carevault.__file__).resolve().parent


def _contracts() -> dict[str, dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["name"]: c for c in config["tool"]["importlinter"]["contracts"]}


def _top_level() -> set[str]:
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    modules = {p.stem for p in PACKAGE.glob("*.py") if not p.stem.startswith("__")}
    return {f"carevault.{name}" for name in packages | modules}


def test_crypto_and_core_are_forbidden_every_other_package() -> None:
    contracts = _contracts()
    for source in ("carevault.crypto", "carevault.core"):
        contract = contracts[f"{source} imports no other CareVault package"]
        assert contract["source_modules"] == [source]
        assert set(contract["forbidden_modules"]) == _top_level() - {source}


def test_the_layering_contracts_are_there() -> None:
    assert {
        "Domains never import carevault.api",
        "Only the web layer imports carevault.api",
        "Routers and request dependencies are imported only by the web layer",
    } <= set(_contracts())
