"""A player's builds as the console offers them, one tap each: several levels on one street (``street``:
each count the engine takes in one ``build`` event now, from one up to the hotel — the apartment), and a
level on each street of a colour group (``each``: one batch of ``build`` events, all or nothing).

A street's counts are those the engine's own checks accept now (``rules.buildings.build_refusal``: even
building, the bank's stock, the top level; ``rules.transaction.cash_refusal``: a voluntary spend is covered),
each costing what the ``build`` event takes.

A group's batch is found by trying the engine's own ``build`` events on copies of the state, the streets'
lowest levels first (the even-building order), so the button never offers what the engine refuses and its
cost is what the engine takes. A street the engine refuses for itself (mortgaged, at its top, a monopolist's
third street) is left out; where the cash or the bank's stock does not reach every street, no batch at all:
"on each" must mean each.
"""

from __future__ import annotations

from rules import RulesError, apply
from rules.buildings import build_refusal
from rules.legal import PlayerOptions
from rules.state import GameState
from rules.transaction import cash_refusal

#: Refusals meaning the batch as a whole is out of reach now (not that one street cannot take a level).
SHORT_OF = frozenset({"money.insufficient", "bank.no_houses", "bank.no_hotels"})


def street_builds(state: GameState, player_id: str, options: PlayerOptions) -> list[dict]:
    """A row for each street where ``player_id`` may build a level now (``options.build``, in its order):
    ``square``, ``level`` (what stands on it) and ``counts``: each number of levels the engine takes in one
    ``build`` event now, ``{"count", "cost", "top"}`` (``top``: the levels reach the hotel)."""
    if not options.build:
        return []
    player = state.by_id[player_id]
    top = state.hotel_level(player_id)
    rows = []
    for sq in options.build:
        square, level = state.board.squares[sq], state.holdings[sq].level
        counts = []
        for count in range(1, top - level + 1):
            cost = square.house_cost * count
            if build_refusal(state, player, sq, count) or cash_refusal(state, player_id, cost, square.name):
                continue  # not offered: each count asked on its own, a few cheap calls a street
            counts.append({"count": count, "cost": cost, "top": level + count >= top})
        if counts:
            rows.append({"square": sq, "level": level, "counts": counts})
    return rows


def group_builds(state: GameState, player_id: str, options: PlayerOptions) -> list[dict]:
    """For each colour group where ``player_id`` may build now, one level on every street of it that can
    take one, if that is at least two streets and the whole batch is legal now: ``squares`` (in the order
    entered), ``hotels`` (how many of them the batch takes to the top level) and ``cost``."""
    if not options.build:
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
    return {"squares": squares, "hotels": hotels, "cost": cost}
