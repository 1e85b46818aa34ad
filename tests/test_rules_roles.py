"""The roles of Anti-Monopoly as rules/roles.py spells them: the same words as the shipped board files' role
decks, and a role that counts only in a game with roles."""

from __future__ import annotations

import json

import pytest

from rules.board import BOARDS_DIR
from rules.roles import COMPETITOR, MONOPOLIST, ROLES, is_monopolist
from tests.support import Table


def test_the_role_decks_of_the_shipped_boards_are_named_by_the_roles():
    named = set()
    for path in sorted(BOARDS_DIR.glob("*.json")):
        for square in json.loads(path.read_text(encoding="utf-8"))["squares"]:
            if square.get("role_decks"):
                assert set(square["role_decks"]) == set(ROLES), path.name
                named.add(path.name)
    assert named  # at least one Anti-Monopoly board is shipped


@pytest.mark.parametrize(
    ("variant", "board", "role", "monopolist"),
    [
        ("anti-monopoly", "anti-monopoly-us", MONOPOLIST, True),
        ("anti-monopoly", "anti-monopoly-us", COMPETITOR, False),
        ("classic", "classic-us", MONOPOLIST, False),  # a role counts only in a game with roles
    ],
)
def test_is_monopolist(variant, board, role, monopolist):
    t = Table(variant, board, players=("A", "B"), roles=(role, COMPETITOR))
    s = t.state
    assert is_monopolist(s.variant.roles, s.by_id["A"].role) is monopolist
