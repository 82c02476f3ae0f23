"""Generate the typed Python client in clients/python from the app's OpenAPI document.

    python -m tools.generate_client            # (re)generate clients/python
    python -m tools.generate_client --check    # fail if clients/python is not what it would be

The document is built in-process (no database, no server), written to a temporary file and
handed to openapi-python-client (pinned in the `dev` extra) with tools/client_templates, which
gives the package a hatchling build. The modules under tools/client_templates/extra are
copied into the package as they are: operations the generator cannot write, such as
`POST /clients/import` with its CSV or JSON-lines body. The output depends only on the
document, the generator's version, ruff's and those modules, so `--check` (run by
`make lint`) catches an API change without a regenerated client, like the UI's
`npm run check:api`.
"""

from __future__ import annotations

import argparse
import difflib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "clients" / "python"
TEMPLATES = Path(__file__).resolve().parent / "client_templates"
# Hand-written modules, at their place in the package (the generator ignores this folder).
EXTRA = TEMPLATES / "extra"
PACKAGE = "carevault_client"
# Caches and build products that may sit in the output without being part of it.
IGNORED = {"__pycache__", ".ruff_cache", ".mypy_cache", "build", "dist", ".pytest_cache"}
# An address that is never connected to: building the document needs no database.
OFFLINE_DATABASE_URL = "postgresql+asyncpg://nobody@127.0.0.1:1/none"


def openapi_document() -> dict[str, object]:
    from carevault.api.app import create_app

    return create_app(database_url=OFFLINE_DATABASE_URL).openapi()


def generate(destination: Path) -> None:
    """Write the client package into `destination` (which must not exist yet)."""
    document = openapi_document()
    info = document.get("info")
    version = str(info.get("version", "0.1.0")) if isinstance(info, dict) else "0.1.0"
    config = {
        "project_name_override": "carevault-client",
        "package_name_override": PACKAGE,
        "package_version_override": version,
        # Formatting runs below, with this interpreter's ruff, where a failure stops us.
        "post_hooks": [],
    }
    with tempfile.TemporaryDirectory(prefix="carevault-openapi-") as work:
        spec = Path(work) / "openapi.json"
        spec.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        config_path = Path(work) / "config.json"
        config_path.write_text(json.dumps(config), encoding="utf-8")
        command = [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(spec),
            "--config",
            str(config_path),
            "--meta",
            "uv",  # any meta that writes a pyproject.toml; the template replaces its contents
            "--custom-template-path",
            str(TEMPLATES),
            "--output-path",
            str(destination),
        ]
        result = subprocess.run(  # noqa: S603 (our interpreter, fixed arguments)
            command, capture_output=True, text=True, check=False
        )
    if result.returncode != 0 or not (destination / PACKAGE).is_dir():
        sys.exit(f"openapi-python-client failed:\n{result.stdout}\n{result.stderr}")
    add_extra_modules(destination / PACKAGE)
    # The package's own pyproject.toml holds the ruff settings these use (and `ruff check
    # clients` from the repository root uses too).
    for ruff in (["check", "--fix-only", "--quiet", "."], ["format", "--quiet", "."]):
        subprocess.run(  # noqa: S603 (our interpreter, fixed arguments)
            [sys.executable, "-m", "ruff", *ruff], cwd=destination, check=True
        )
    for ignored in IGNORED:
        for path in destination.rglob(ignored):
            shutil.rmtree(path, ignore_errors=True)


def add_extra_modules(package: Path) -> None:
    """Copy the hand-written modules in; never over a generated one (once the generator
    writes an operation itself, its hand-written module goes)."""
    for source in sorted(EXTRA.rglob("*.py")):
        if IGNORED.intersection(source.relative_to(EXTRA).parts):
            continue
        target = package / source.relative_to(EXTRA)
        if target.exists():
            sys.exit(f"{target.relative_to(package)} is generated now: delete {source}")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not IGNORED.intersection(path.relative_to(root).parts)
    }


def check() -> int:
    with tempfile.TemporaryDirectory(prefix="carevault-client-") as work:
        fresh_root = Path(work) / "python"
        generate(fresh_root)
        fresh = files(fresh_root)
    current = files(OUTPUT) if OUTPUT.is_dir() else {}
    if fresh == current:
        print(f"{OUTPUT.relative_to(ROOT)} matches the OpenAPI document")
        return 0
    for name in sorted(set(fresh) | set(current)):
        if fresh.get(name) == current.get(name):
            continue
        before = current.get(name, b"").decode("utf-8", "replace").splitlines(keepends=True)
        after = fresh.get(name, b"").decode("utf-8", "replace").splitlines(keepends=True)
        diff = difflib.unified_diff(before, after, f"a/{name}", f"b/{name}", n=1)
        sys.stderr.writelines(list(diff)[:40])
    print(
        f"{OUTPUT.relative_to(ROOT)} is out of date with the OpenAPI document: run `make client`",
        file=sys.stderr,
    )
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="fail if clients/python differs from a fresh one"
    )
    args = parser.parse_args(argv)
    if args.check:
        return check()
    with tempfile.TemporaryDirectory(prefix="carevault-client-", dir=OUTPUT.parent) as work:
        fresh_root = Path(work) / "python"
        generate(fresh_root)
        if OUTPUT.exists():
            shutil.rmtree(OUTPUT)
        shutil.move(str(fresh_root), OUTPUT)
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
