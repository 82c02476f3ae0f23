"""The client list's order and name matching as the code before the name cache computed them,
from plaintext: what the cached index must reproduce exactly."""

from __future__ import annotations

import unicodedata
import uuid
from operator import itemgetter

# Case, accents, shared spellings, composed letters and empty names: every tie-breaker runs.
FIRST_NAMES = ["Ada", "ada", "Zoë", "Zoe", "Łukasz", "Émile", "emile", "Bob", "Jean-Luc", "Ǆemal"]
LAST_NAMES = ["Lovelace", "lovelace", "Ängström", "Angstrom", "de Vries", "De Vries", "Nowak", "Ø"]


def fold(text: str) -> str:
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def reference_order(
    names: list[tuple[uuid.UUID, str, str, bool]], q: str | None, include_archived: bool
) -> list[uuid.UUID]:
    """(id, first, last, archived) in list order, kept when "first last" contains `q`."""
    needle = None if q is None else fold(q.strip())
    keyed = []
    for client_id, first_name, last_name, archived in names:
        if archived and not include_archived:
            continue
        first, last = fold(first_name), fold(last_name)
        if needle is None or needle in f"{first} {last}":
            keyed.append(((last, first, last_name, first_name, str(client_id)), client_id))
    keyed.sort(key=itemgetter(0))
    return [client_id for _, client_id in keyed]
