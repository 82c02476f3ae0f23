"""Fake, repeatable practice data (Faker, seeded): client exports and SOAP note text.

Faker costs about 1.5 ms per fully generated client, so 100,000 clients would take minutes.
Instead Faker fills seeded pools once and a seeded random generator combines them: every
file is the same for a given seed and size, and generating it takes about a second.
"""

from __future__ import annotations

import csv
import random
import re
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from pathlib import Path

from faker import Faker

# The columns a practice exports from another system, with the names such exports use
# (the importer maps them: "First Name" -> first_name, "DOB" -> date_of_birth, ...).
CSV_HEADER = (
    "First Name",
    "Last Name",
    "E-mail",
    "Mobile",
    "DOB",
    "Address",
    "Emergency Contact",
    "Emergency Phone",
    "Medical History",
    "Notes",
)
POOL = 2_000
SOAP_FIELDS = ("subjective", "objective", "assessment", "plan")


@dataclass(frozen=True)
class CsvStats:
    path: Path
    rows: int
    file_bytes: int
    plaintext_bytes_per_row: float
    fields_per_row: float


def _us_phones(fake: Faker, count: int) -> list[str]:
    """Faker's US numbers, as variously written as in real exports, keeping only those a US
    practice accepts (Faker also writes some with a 001 prefix, which is no US number)."""
    from carevault.workspaces.phones import NotAPhoneNumber, read_phone

    phones: list[str] = []
    while len(phones) < count:
        phone = fake.phone_number()
        try:
            read_phone(phone, "US")
        except NotAPhoneNumber:
            continue
        phones.append(phone)
    return phones


@dataclass(frozen=True)
class _Pools:
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]
    domains: tuple[str, ...]
    phones: tuple[str, ...]
    addresses: tuple[str, ...]
    sentences: tuple[str, ...]


@cache
def _pools(seed: int) -> _Pools:
    """Faker's values for `seed`, made once per process (about 12,000 Faker calls)."""
    fake = Faker("en_US")
    fake.seed_instance(seed)
    return _Pools(
        first_names=tuple(fake.first_name() for _ in range(POOL)),
        last_names=tuple(fake.last_name() for _ in range(POOL)),
        domains=tuple(fake.free_email_domain() for _ in range(50)),
        phones=tuple(_us_phones(fake, POOL)),
        addresses=tuple(fake.address().replace("\n", ", ") for _ in range(POOL)),
        sentences=tuple(fake.sentence(nb_words=12) for _ in range(POOL)),
    )


class PracticeData:
    """Seeded pools of fake values."""

    def __init__(self, seed: int) -> None:
        pools = _pools(seed)
        self.random = random.Random(seed)  # noqa: S311 (repeatable fake data, not security)
        self.first_names = pools.first_names
        self.last_names = pools.last_names
        self.domains = pools.domains
        self.phones = pools.phones
        self.addresses = pools.addresses
        self.sentences = pools.sentences

    def text(self, target_bytes: int) -> str:
        """Sentences from the pool until about `target_bytes` long."""
        parts: list[str] = []
        size = 0
        while size < target_bytes:
            sentence = self.random.choice(self.sentences)
            parts.append(sentence)
            size += len(sentence) + 1
        return " ".join(parts)[:target_bytes].rstrip()

    def client_row(self, number: int) -> list[str]:
        pick = self.random.choice
        first, last = pick(self.first_names), pick(self.last_names)
        born = date(1940, 1, 1) + timedelta(days=self.random.randrange(365 * 65))
        # Exports are patchy: some clients have no email, history or notes.
        local = re.sub(r"[^a-z0-9.]", "", f"{first}.{last}.{number}".lower())
        email = f"{local}@{pick(self.domains)}"
        return [
            first,
            last,
            email if self.random.random() < 0.9 else "",
            pick(self.phones),
            born.isoformat(),
            pick(self.addresses),
            f"{pick(self.first_names)} {pick(self.last_names)}",
            pick(self.phones),
            self.text(self.random.randrange(80, 400)) if self.random.random() < 0.7 else "",
            self.text(self.random.randrange(20, 160)) if self.random.random() < 0.5 else "",
        ]

    def soap_note(self, target_bytes: int = 350) -> dict[str, str]:
        """The four SOAP sections, each about `target_bytes` long."""
        return {name: self.text(target_bytes) for name in SOAP_FIELDS}


def write_clients_csv(path: Path, count: int, seed: int) -> CsvStats:
    """A CSV export of `count` fake clients; returns its size and mean plaintext per row."""
    data = PracticeData(seed)
    plaintext = 0
    fields = 0
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_HEADER)
        for number in range(1, count + 1):
            row = data.client_row(number)
            plaintext += sum(len(value.encode()) for value in row)
            fields += sum(1 for value in row if value)
            writer.writerow(row)
    return CsvStats(
        path=path,
        rows=count,
        file_bytes=path.stat().st_size,
        plaintext_bytes_per_row=plaintext / count if count else 0.0,
        fields_per_row=fields / count if count else 0.0,
    )
