"""`make lint`: every relative link in the project's Markdown resolves, anchors included, and
no documentation page outgrows what a reader takes in at one sitting.

Checked: README.md, CHANGELOG.md, docs/**/*.md, frontend/README.md, clients/python/README.md.
A link is `[text](target)` outside code blocks and code spans; web links (http, https,
mailto) are not fetched (CI has no network but the package registries). An anchor must name
a heading of the target page, spelled as GitHub spells it (lower case, punctuation dropped,
spaces as hyphens, `-1`, `-2` … for repeats).

    python -m tools.check_docs            # exit 1 and one line per problem
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
PAGES = (
    "README.md",
    "CHANGELOG.md",
    "docs/**/*.md",
    "frontend/README.md",
    "clients/python/README.md",
)
MAX_PAGE_BYTES = 40 * 1024
# Pages allowed past the limit, each with its reason: generated reference pages only (a
# narrative page that outgrows the limit is split instead).
OVERSIZED: dict[str, tuple[int, str]] = {
    "docs/reference/encryption-vectors.md": (
        50_000,
        "generated (make_encryption_vectors.py --markdown): every vector in full, so that a "
        "decoder can be written from the specification pages alone",
    ),
}

_FENCE = re.compile(r"^(```|~~~)")
_LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
_CODE_SPAN = re.compile(r"`[^`]*`")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def pages() -> list[Path]:
    found: set[Path] = set()
    for pattern in PAGES:
        found.update(ROOT.glob(pattern))
    return sorted(found)


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"<[^>]+>", "", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link keeps its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: Counter[str] = Counter()
    found: set[str] = set()
    for _, line in prose_lines(page.read_text(encoding="utf-8")):
        found.update(_HTML_ANCHOR.findall(line))
        heading = _HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            found.add(base if seen[base] == 0 else f"{base}-{seen[base]}")
            seen[base] += 1
    return found


def problems() -> list[str]:
    found: list[str] = []
    cache: dict[Path, set[str]] = {}
    for page in pages():
        name = page.relative_to(ROOT).as_posix()
        size = page.stat().st_size
        limit, _reason = OVERSIZED.get(name, (MAX_PAGE_BYTES, ""))
        if size > limit:
            found.append(f"{name}: {size:,} bytes, over its limit of {limit:,}")
        for number, raw in prose_lines(page.read_text(encoding="utf-8")):
            line = _CODE_SPAN.sub("``", raw)  # a link in a code span is an example
            for target in [*_LINK.findall(line), *_IMAGE.findall(line)]:
                problem = check_link(page, target, cache)
                if problem:
                    found.append(f"{name}:{number}: {target}: {problem}")
    return found


def check_link(page: Path, target: str, cache: dict[Path, set[str]]) -> str | None:
    if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
        return None
    path_part, _, anchor = target.partition("#")
    destination = (page.parent / unquote(path_part)).resolve() if path_part else page
    if not destination.exists():
        return "no such file"
    if not anchor or destination.is_dir() or destination.suffix != ".md":
        return None
    if destination not in cache:
        cache[destination] = anchors(destination)
    return None if anchor in cache[destination] else "no such heading"


def main() -> int:
    found = problems()
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} problem(s) in the documentation", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
