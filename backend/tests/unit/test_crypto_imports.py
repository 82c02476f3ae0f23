"""`carevault.crypto` imports and works without boto3 or SQLAlchemy: the integrations are
submodules (`carevault.crypto.aws`, `carevault.crypto.types`) imported only where used."""

from __future__ import annotations

import subprocess
import sys
import textwrap

# Runs in a fresh interpreter whose imports of the blocked packages fail, as on a machine
# where they are not installed.
BLOCKED = ("boto3", "botocore", "sqlalchemy")
PRELUDE = textwrap.dedent(
    f"""
    import importlib.abc
    import sys

    BLOCKED = {BLOCKED!r}

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{{name}} is blocked for this test")
            return None

    sys.meta_path.insert(0, Block())
    """
)


def run_blocked(body: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(body)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_crypto_seals_and_opens_without_boto3_or_sqlalchemy() -> None:
    result = run_blocked(
        """
        import uuid

        import carevault.crypto as crypto
        from carevault.crypto.datakeys import wrap_data_key
        from carevault.crypto.keyring import new_key_material

        ring = crypto.KeyRing.generate()
        cipher = crypto.FieldCipher(crypto.StaticRing(ring))
        practice, row = uuid.uuid4().bytes, uuid.uuid4().bytes
        version = ring.encryption_version()
        cipher.data_keys.store(
            practice, {version: wrap_data_key(ring, practice, version, new_key_material())}
        )
        sealed = cipher.seal("Ada Lovelace", (practice, row), b"clients.last_name")
        assert cipher.open(sealed, (practice, row), b"clients.last_name") == "Ada Lovelace"
        assert not [m for m in sys.modules if m.split(".")[0] in BLOCKED], "loaded anyway"
        print("round trip ok")
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "round trip ok"


def test_the_integrations_are_the_submodules_that_need_them() -> None:
    """The block is real (else the test above proves nothing), and each integration needs
    exactly its own package."""
    result = run_blocked(
        """
        import carevault.crypto

        for module, needs in (
            ("carevault.crypto.types", "sqlalchemy"),
            ("carevault.crypto.aws", "boto3"),
        ):
            try:
                __import__(module)
            except ImportError as exc:
                assert needs in str(exc), (module, exc)
            else:
                raise AssertionError(f"{module} imported without {needs}")
        print("blocked as expected")
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "blocked as expected"
