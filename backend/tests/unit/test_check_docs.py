"""tools/check_docs.py: broken relative links and anchors are found; good ones pass."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools import check_docs  # noqa: E402


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(check_docs, "ROOT", tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(
        "# Guide\n\n## The `carevault` command\n\n"
        "## Keys: rotate, retire!\n\n## Keys: rotate, retire!\n"
    )
    return tmp_path


def test_headings_are_spelled_as_github_spells_them(tree: Path) -> None:
    assert check_docs.anchors(tree / "docs" / "guide.md") == {
        "guide",
        "the-carevault-command",
        "keys-rotate-retire",
        "keys-rotate-retire-1",
    }


def test_good_links_pass_and_broken_ones_are_named(tree: Path) -> None:
    (tree / "README.md").write_text(
        "[ok](docs/guide.md#the-carevault-command) [ok2](docs/guide.md#keys-rotate-retire-1)\n"
        "[web](https://example.com/x) `[code](docs/missing.md)`\n"
        "```\n[fenced](docs/missing.md)\n```\n"
        "[gone](docs/missing.md) [anchor](docs/guide.md#nope) [self](#guide)\n"
    )
    assert check_docs.problems() == [
        "README.md:6: docs/missing.md: no such file",
        "README.md:6: docs/guide.md#nope: no such heading",
        "README.md:6: #guide: no such heading",
    ]


def test_a_page_over_the_size_limit_is_reported(tree: Path) -> None:
    (tree / "docs" / "long.md").write_text("# Long\n" + "x" * (check_docs.MAX_PAGE_BYTES + 1))
    assert check_docs.problems() == [
        f"docs/long.md: {check_docs.MAX_PAGE_BYTES + 8:,} bytes, over its limit of "
        f"{check_docs.MAX_PAGE_BYTES:,}"
    ]


def test_only_generated_reference_pages_may_be_oversized() -> None:
    for name, (limit, reason) in check_docs.OVERSIZED.items():
        assert name.startswith("docs/reference/") and "generated" in reason, name
        assert limit > check_docs.MAX_PAGE_BYTES


def test_the_project_documentation_has_no_broken_link() -> None:
    assert check_docs.problems() == []
