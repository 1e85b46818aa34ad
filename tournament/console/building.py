"""The build section's one-tap builds: several levels on one street (``street_builds``: "+2 · 200",
"hotel · 500", each one ``build`` event with its ``count``), and a house (or the hotel, at its step) on each
street of a colour group the player can build on, entered as one batch of ``build`` events
(``group_builds``; ``actions.build_each_events``, all or nothing: ``moves.submit_all``).

A street's counts are those the engine's own checks accept now (``rules.buildings.build_refusal``: even
building, the bank's stock, the top level; ``rules.transaction.cash_refusal``: a voluntary spend is covered),
each costing what the ``build`` event takes: the levels at the street's printed house cost.

The batch is found by trying the engine's own ``build`` events on copies of the state, the streets' lowest
levels first (the even-building order), so the button never offers what the engine refuses and its cost is
what the engine takes. A street the engine refuses for itself (mortgaged, at its top, a monopolist's third
street) is left out; where the cash or the bank's stock does not reach every street, no button at all:
"on each" must mean each.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules import RulesError, apply
from rules.board import BOARD_SIZE
from rules.buildings import build_refusal
from rules.legal import PlayerOptions
from rules.state import GameState
from rules.transaction import cash_refusal
from tournament.boards.words import board_word

#: The most squares a group's button may post (a colour group is at most the whole board).
MAX_BATCH = BOARD_SIZE
#: Refusals meaning the batch as a whole is out of reach now (not that one street cannot take a level).
SHORT_OF = frozenset({"money.insufficient", "bank.no_houses", "bank.no_hotels"})


def street_builds(state: GameState, player_id: str, options: PlayerOptions | None) -> list[dict]:
    """A row for each street where ``player_id`` may build a level now (``options.build``, in its order):
    ``index``, ``name``, ``group``, ``houses`` (what stands on it: "⌂⌂") and ``counts``, each number of levels
    the engine takes in one ``build`` event now, from one up to the hotel (the apartment): ``count``,
    ``value`` (the button's ``do``: "build:9", "build:9:3"), ``top`` (the levels reach the hotel), ``label``
    ("+3", or the hotel's name at the top) and ``cost``."""
    if options is None or not options.build:
        return []
    player = state.by_id[player_id]
    top = state.hotel_level(player_id)
    rows = []
    for sq in options.build:
        square, level = state.board.square(sq), state.holdings[sq].level
        counts = []
        for count in range(1, top - level + 1):
            cost = square.house_cost * count
            if build_refusal(state, player, sq, count) or cash_refusal(state, player_id, cost, square.name):
                continue  # not offered: each count asked on its own, a few cheap calls a street
            counts.append(
                {
                    "count": count,
                    "value": f"build:{sq}" if count == 1 else f"build:{sq}:{count}",
                    "top": level + count >= top,
                    "label": top_level_word(state) if level + count >= top else f"+{count}",
                    "cost": cost,
                }
            )
        if counts:
            rows.append(
                {
                    "index": sq,
                    "name": board_word(square.name),
                    "group": square.group,
                    "houses": "⌂" * level,
                    "counts": counts,
                }
            )
    return rows


def top_level_word(state: GameState) -> str:
    """The top building level's name (the hotel; Anti-Monopoly's apartment), wherever the console says it."""
    return _("apartment") if state.variant.roles else _("hotel")


def group_builds(state: GameState, player_id: str, options: PlayerOptions | None) -> list[dict]:
    """For each colour group where ``player_id`` may build now, the batch of one level on every street of it
    that can take one, if that is at least two streets and the whole batch is legal now: ``value`` (the
    squares in the order entered, as the button posts them: "6,8,9"), ``squares``, ``group`` (its colour),
    ``label`` and ``cost``."""
    if options is None or not options.build:
        return []
    board, seen, out = state.board, set(), []
    for square in options.build:
        group = board.group_of(square)
        if group in seen:
            continue
        seen.add(group)
        batch = _batch(state, player_id, group)
        if batch is not None and len(batch["squares"]) > 1:
            out.append(batch)
    return out


def _batch(state: GameState, player_id: str, group: tuple[int, ...]) -> dict | None:
    """One level on each of the player's streets of ``group`` that can take one, the lowest first; None when
    the cash or the bank's stock falls short of any of them."""
    holdings = state.holdings
    mine = sorted(
        (h.level, sq) for sq in group if (h := holdings.get(sq)) is not None and h.owner == player_id
    )
    after, squares, hotels = state, [], 0
    for _level, sq in mine:
        try:
            outcome = apply(after, {"type": "build", "player": player_id, "square": sq}, narrate=False)
        except RulesError as e:
            if e.code in SHORT_OF:
                return None
            continue  # this street cannot take a level (mortgaged, at its top, ...): not one of "each"
        after = outcome.state
        squares.append(sq)
        hotels += after.holdings[sq].level >= after.hotel_level(player_id)
    cost = state.player(player_id).cash - after.player(player_id).cash
    return {
        "value": ",".join(map(str, squares)),
        "squares": squares,
        "group": state.board.square(group[0]).group,
        "label": _label(state, squares, hotels, cost),
        "cost": cost,
    }


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
