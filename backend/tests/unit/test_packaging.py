"""What an installed wheel needs travels inside the package (no source tree beside it)."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import carevault
from carevault.db.migrate import MIGRATIONS_DIR, head_revision

PACKAGE = Path(carevault.__file__).resolve().parent
ROOT = PACKAGE.parents[1]


def package_data_globs() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["setuptools"]["package-data"]["carevault"])


def test_the_migrations_are_inside_the_package() -> None:
    assert MIGRATIONS_DIR.is_relative_to(PACKAGE)
    assert (MIGRATIONS_DIR / "env.py").is_file()
    assert head_revision() is not None


def test_every_migration_file_that_is_not_a_module_is_package_data() -> None:
    """setuptools ships the .py files as modules of carevault.migrations; anything else Alembic
    reads (the revision template) must be named in package-data, or `db upgrade` breaks only
    in an installed wheel."""
    globs = package_data_globs()
    others = [
        path.relative_to(PACKAGE).as_posix()
        for path in MIGRATIONS_DIR.rglob("*")
        if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts
    ]
    assert others, "expected at least script.py.mako"
    for name in others:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in globs), name
