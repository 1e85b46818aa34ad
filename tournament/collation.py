"""Sorting names as people expect: Polish alphabetical order (Ł after L, not after Z), case ignored; other
letters after the Polish ones, by their code, and spaces, digits and punctuation first (so "Anna" comes
before "Anna Maria" and "Łukasz" between "Lucyna" and "Marek")."""

from functools import lru_cache

ALPHABET = "aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż"
_ORDER = {c: i for i, c in enumerate(ALPHABET)}


def _rank(c: str) -> int:
    if c in _ORDER:
        return _ORDER[c]
    if c.isalpha():
        return len(ALPHABET) + ord(c)
    return ord(c) - 0x110000  # a space, a digit, punctuation: before every letter


@lru_cache(maxsize=65_536)
def name_key(text: str) -> tuple[int, ...]:
    """A sort key: ``sorted(names, key=name_key)``. Kept for the names met lately: the standings of a
    tournament of a thousand sort the same names at every reload of every phone."""
    return tuple(_rank(c) for c in text.casefold())


def by_rank_then_name(rows):
    """Standings rows (with ``rank`` and ``participant.name``) best first, those sharing a rank by name."""
    return sorted(rows, key=lambda row: (row.rank, name_key(row.participant.name)))
