"""One version number: carevault.__version__ is the release everything else reports."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import carevault

ROOT = Path(__file__).resolve().parents[3]
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$")


def test_the_version_is_semantic() -> None:
    assert SEMVER.match(carevault.__version__), carevault.__version__


def test_the_package_takes_its_version_from_carevault() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["dynamic"] == ["version"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "carevault.__version__"


def test_the_ui_carries_the_same_version() -> None:
    package = json.loads((ROOT / "frontend" / "package.json").read_text())
    lock = json.loads((ROOT / "frontend" / "package-lock.json").read_text())
    assert package["version"] == carevault.__version__, "make release sets both"
    assert lock["version"] == lock["packages"][""]["version"] == carevault.__version__


def test_the_changelog_has_a_section_for_the_release() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(
        rf"^## \[{re.escape(carevault.__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$",
        changelog,
        re.MULTILINE,
    ), "CHANGELOG.md needs ## [VERSION] - YYYY-MM-DD"
