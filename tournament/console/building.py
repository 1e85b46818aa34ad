"""The build section's one-tap builds in words: several levels on one street (``street_builds``: "+2 · 200",
"hotel · 500", each one ``build`` event with its ``count``), and a house (or the hotel, at its step) on each
street of a colour group the player can build on, entered as one batch of ``build`` events
(``group_builds``; ``actions.build_each_events``, all or nothing: ``moves.submit_all``). What is offered and
what it costs is the view model's (``tournament.console.view_model.building``, which asks the engine).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.board import BOARD_SIZE
from rules.legal import PlayerOptions
from rules.state import GameState
from tournament.boards.words import board_word
from tournament.console.view_model import building

#: The most squares a group's button may post (a colour group is at most the whole board).
MAX_BATCH = BOARD_SIZE


def street_builds(state: GameState, player_id: str, options: PlayerOptions | None) -> list[dict]:
    """A row for each street where ``player_id`` may build a level now (the view model's
    ``building.street_builds``, in words): ``index``, ``name``, ``group``, ``houses`` (what stands on it:
    "⌂⌂") and ``counts``, each number of levels the engine takes in one ``build`` event now: ``count``,
    ``value`` (the button's ``do``: "build:9", "build:9:3"), ``top`` (the levels reach the hotel), ``label``
    ("+3", or the hotel's name at the top) and ``cost``."""
    if options is None:
        return []
    rows = []
    for row in building.street_builds(state, player_id, options):
        sq = row["square"]
        square = state.board.square(sq)
        counts = [
            {
                **c,
                "value": f"build:{sq}" if c["count"] == 1 else f"build:{sq}:{c['count']}",
                "label": top_level_word(state) if c["top"] else f"+{c['count']}",
            }
            for c in row["counts"]
        ]
        rows.append(
            {
                "index": sq,
                "name": board_word(square.name),
                "group": square.group,
                "houses": "⌂" * row["level"],
                "counts": counts,
            }
        )
    return rows


def top_level_word(state: GameState) -> str:
    """The top building level's name (the hotel; Anti-Monopoly's apartment), wherever the console says it."""
    return _("apartment") if state.variant.roles else _("hotel")


def group_builds(state: GameState, player_id: str, options: PlayerOptions | None) -> list[dict]:
    """For each colour group where ``player_id`` may build now, the batch of one level on every street of it
    that can take one (the view model's ``building.group_builds``, in words): ``value`` (the squares in the
    order entered, as the button posts them: "6,8,9"), ``squares``, ``group`` (its colour), ``label`` and
    ``cost``."""
    if options is None:
        return []
    return [
        {
            "value": ",".join(map(str, batch["squares"])),
            "squares": batch["squares"],
            "group": state.board.square(batch["squares"][0]).group,
            "label": _label(state, batch["squares"], batch["hotels"], batch["cost"]),
            "cost": batch["cost"],
        }
        for batch in building.group_builds(state, player_id, options)
    ]


def _label(state: GameState, squares: list[int], hotels: int, cost: int) -> str:
    names = ", ".join(board_word(state.board.square(sq).name) for sq in squares)
    words = {"squares": names, "cost": cost}
    apartment = state.variant.roles
    if hotels == 0:
        return _("A house on each: %(squares)s (%(cost)s)") % words
    if hotels == len(squares) and apartment:
        return _("An apartment on each: %(squares)s (%(cost)s)") % words
    if hotels == len(squares):
        return _("A hotel on each: %(squares)s (%(cost)s)") % words
    if apartment:
        return _("A house or an apartment on each: %(squares)s (%(cost)s)") % words
    return _("A house or a hotel on each: %(squares)s (%(cost)s)") % words
