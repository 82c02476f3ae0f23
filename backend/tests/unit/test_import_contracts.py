"""The import contracts of pyproject.toml (`make lint` runs lint-imports;
docs/explanation/architecture.md) keep up with the package: a new top-level package is
forbidden to crypto and core too; no contract names an exception; and our own `acyclic`
contract type finds import circles."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import grimp
import pytest

import carevault

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = Path(carevault.__file__).resolve().parent
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.import_contracts import AcyclicContract  # noqa: E402


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


def test_settings_are_forbidden_every_package_above_the_database_layer() -> None:
    contract = _contracts()["carevault.config imports no domain, web or command package"]
    assert contract["source_modules"] == ["carevault.config"]
    below = {"carevault.config", "carevault.core", "carevault.crypto", "carevault.db"}
    assert set(contract["forbidden_modules"]) == _top_level() - below


def test_the_layering_contracts_are_there() -> None:
    assert {
        "Domains never import carevault.api",
        "Only the web layer imports carevault.api",
        "Routers and request dependencies are imported only by the web layer",
        "Only carevault.__main__ imports carevault.cli",
    } <= set(_contracts())


def test_no_contract_names_an_exception() -> None:
    """The layering holds without exceptions: a contract that needs one is untied by moving
    the shared piece, not by naming the import."""
    for name, contract in _contracts().items():
        assert "ignore_imports" not in contract, name


# The acyclic contract (tools/import_contracts.py) --------------------------------------------

# A throwaway package: a -> b -> c -> a is a circle (b's import runs inside a function, and
# counts all the same); d imports into the circle without being part of it.
KNOTTED = {
    "__init__.py": "",
    "a.py": "from knotted import b\n",
    "b.py": "def later() -> None:\n    from knotted.c import VALUE\n",
    "c.py": "import knotted.a\n\nVALUE = 1\n",
    "d.py": "import knotted.a\nimport knotted.c\n",
}


def _knotted_package(root: Path, files: dict[str, str]) -> None:
    package = root / "knotted"
    package.mkdir(exist_ok=True)
    for name, source in files.items():
        (package / name).write_text(source, encoding="utf-8")


def _acyclic(containers: list[str]) -> AcyclicContract:
    return AcyclicContract(
        name="No import circle", session_options={}, contract_options={"containers": containers}
    )


def test_the_acyclic_contract_finds_a_circle_and_the_imports_that_close_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _knotted_package(tmp_path, KNOTTED)
    monkeypatch.syspath_prepend(str(tmp_path))

    check = _acyclic(["knotted"]).check(grimp.build_graph("knotted", cache_dir=None), False)

    assert not check.kept
    assert check.metadata["circles"] == [
        (
            ["knotted.a", "knotted.b", "knotted.c"],
            [
                ("knotted.a", "knotted.b", [1]),
                ("knotted.b", "knotted.c", [2]),
                ("knotted.c", "knotted.a", [1]),
            ],
        )
    ]


def test_the_acyclic_contract_is_kept_once_the_circle_is_untied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _knotted_package(tmp_path, {**KNOTTED, "c.py": "VALUE = 1\n"})
    monkeypatch.syspath_prepend(str(tmp_path))

    check = _acyclic(["knotted"]).check(grimp.build_graph("knotted", cache_dir=None), False)

    assert check.kept
    assert check.metadata["circles"] == []


def test_lint_imports_runs_the_acyclic_contract_as_pyproject_registers_it(tmp_path: Path) -> None:
    """The registration pyproject.toml uses, through the real `lint-imports`: it fails on
    the circle and names it."""
    _knotted_package(tmp_path, KNOTTED)
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract_types = config["tool"]["importlinter"]["contract_types"]
    (tmp_path / "contracts.toml").write_text(
        "[tool.importlinter]\n"
        'root_packages = ["knotted"]\n'
        f"contract_types = {contract_types!r}\n"
        "[[tool.importlinter.contracts]]\n"
        'name = "No import circle in knotted"\n'
        'type = "acyclic"\n'
        'containers = ["knotted"]\n',
        encoding="utf-8",
    )
    result = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--config", "contracts.toml"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    text = " ".join(result.stdout.split())
    assert "Import circle among knotted.a, knotted.b, knotted.c" in text
    assert "- knotted.c -> knotted.a (l.1)" in text


def test_carevault_has_no_import_circle() -> None:
    contract = _contracts()["No import circle in carevault"]
    assert contract["type"] == "acyclic"
    assert contract["containers"] == ["carevault"]

    check = _acyclic(["carevault"]).check(grimp.build_graph("carevault", cache_dir=None), False)

    assert check.kept, check.metadata["circles"]
