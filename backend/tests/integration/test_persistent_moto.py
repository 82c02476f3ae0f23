"""tools/persistent_moto.py: Secrets Manager writes survive a restart of the secrets store."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import boto3
import pytest
from mypy_boto3_secretsmanager import SecretsManagerClient

from tests.support.secrets_store import ROOT, SecretsStore

if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.persistent_moto import Journal, JournalError


def secrets_client(endpoint: str, region: str = "eu-west-1") -> SecretsManagerClient:
    return boto3.client("secretsmanager", region_name=region, endpoint_url=endpoint)


def test_writes_survive_a_kill_and_reads_are_not_journaled(tmp_path: Path) -> None:
    journal = tmp_path / "state" / "journal.jsonl"
    store = SecretsStore(journal, tmp_path / "moto.log")
    store.start()
    try:
        client = secrets_client(store.endpoint)
        client.create_secret(Name="ring", SecretString="first")
        put = client.put_secret_value(SecretId="ring", SecretString="second")
        with pytest.raises(client.exceptions.ResourceExistsException):
            client.create_secret(Name="ring", SecretString="refused")
        for _ in range(5):
            client.get_secret_value(SecretId="ring")
        lines = journal.read_text().splitlines()
        # Two acknowledged writes; neither the refused create nor any read.
        assert [json.loads(line)["target"] for line in lines] == [
            "secretsmanager.CreateSecret",
            "secretsmanager.PutSecretValue",
        ]
        assert journal.stat().st_mode & 0o077 == 0
        store.kill()

        store.start()
        client = secrets_client(store.endpoint)
        value = client.get_secret_value(SecretId="ring")
        assert value["SecretString"] == "second"
        assert value["VersionId"] == put["VersionId"]  # the same version, not a new one
        versions = client.list_secret_version_ids(SecretId="ring")["Versions"]
        assert len(versions) == 2
        # Regions stay apart, as they were written.
        other = secrets_client(store.endpoint, "us-east-1")
        with pytest.raises(other.exceptions.ResourceNotFoundException):
            other.get_secret_value(SecretId="ring")
    finally:
        store.kill()


def test_a_journal_that_does_not_replay_is_refused_and_kept(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    entry = {
        "target": "secretsmanager.PutSecretValue",
        "region": "us-east-1",
        "body": json.dumps({"SecretId": "never-created", "SecretString": "x"}),
    }
    journal.write_text(json.dumps(entry) + "\n")
    refused = SecretsStore(journal, tmp_path / "moto.log").run_to_exit()
    assert refused.returncode != 0
    assert "entry 1 (PutSecretValue) failed" in refused.stderr
    assert '"x"' not in refused.stderr  # never the secret itself
    assert journal.read_text() == json.dumps(entry) + "\n"


def test_a_torn_last_line_is_cut_and_the_rest_kept(tmp_path: Path) -> None:
    """The process died while appending: that write was never acknowledged."""
    path = tmp_path / "journal.jsonl"
    whole = json.dumps({"target": "secretsmanager.CreateSecret", "region": "r", "body": "{}"})
    path.write_text(whole + "\n" + whole[:20])
    assert len(Journal(path).entries()) == 1
    assert path.read_text() == whole + "\n"


def test_a_damaged_line_before_the_end_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    whole = json.dumps({"target": "secretsmanager.CreateSecret", "region": "r", "body": "{}"})
    path.write_text("garbage\n" + whole + "\n")
    with pytest.raises(JournalError, match="line 1"):
        Journal(path).entries()
    assert path.read_text().startswith("garbage")
