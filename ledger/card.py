"""Each participant's card of operations (004 "Załącznik nr 2"): one line per transaction, with its income
or cost as RULES.md §2 defines them — a transaction's income or cost is its change of the player's equity.

    equity = starting cash + Σ income − Σ cost
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rules.movements import BANK, Leg, Movement


def income_and_cost(leg: Leg) -> tuple[int, int]:
    """A transaction's income and cost for one party: its change of equity, split by sign (RULES.md §2)."""
    delta = leg.equity
    return max(delta, 0), max(-delta, 0)


def postings(movements: Iterable[Movement]) -> Iterator[tuple[Movement, Leg, int, int]]:
    """Each player's leg of some movements (the bank left out), with its income and cost."""
    for m in movements:
        for leg in m.legs:
            if leg.party != BANK:
                yield m, leg, *income_and_cost(leg)


def totals(movements: Iterable[Movement]) -> dict[str, tuple[int, int]]:
    """Income and cost per player of some movements: what :meth:`Ledger.post` adds to each card."""
    out: dict[str, tuple[int, int]] = {}
    for _m, leg, income, cost in postings(movements):
        before = out.get(leg.party, (0, 0))
        out[leg.party] = (before[0] + income, before[1] + cost)
    return out


def add_totals(figures: dict[str, list[int]], movements: Iterable[Movement]) -> None:
    """Add some movements' income and cost to running totals (``{player id: [income, cost]}``, a game's
    ledger as the server stores it and the referee's phone keeps it)."""
    for party, (income, cost) in totals(movements).items():
        before = figures.setdefault(party, [0, 0])
        before[0] += income
        before[1] += cost


@dataclass(slots=True)  # a value, never changed; not frozen: one is made per posting, four times as fast
class Line:
    event: int  # index of the event in the record
    kind: str  # the movement's kind: rent, auction, trade, …
    square: int | None
    detail: str
    cash: int  # cash received (+) / paid (−)
    assets: int  # change of book value of holdings
    income: int
    cost: int


class Ledger:
    def __init__(self, player_ids: Iterable[str], starting_cash: int):
        self.starting_cash = starting_cash
        self._lines: dict[str, list[Line]] = {pid: [] for pid in player_ids}
        self._income = dict.fromkeys(self._lines, 0)
        self._cost = dict.fromkeys(self._lines, 0)

    def post(self, event_index: int, movements: Iterable[Movement]) -> None:
        for m, leg, income, cost in postings(movements):
            party = leg.party
            self._lines[party].append(
                Line(event_index, m.kind, m.square, m.detail, leg.cash, leg.assets, income, cost)
            )
            self._income[party] += income
            self._cost[party] += cost

    @property
    def players(self) -> list[str]:
        return list(self._lines)

    def lines(self, player_id: str) -> list[Line]:
        return list(self._lines[player_id])

    def income(self, player_id: str) -> int:
        return self._income[player_id]

    def cost(self, player_id: str) -> int:
        return self._cost[player_id]

    def totals(self) -> dict[str, list[int]]:
        """Each player's ``[income, cost]`` so far, by id: what a game keeps of its ledger (Game.ledger)."""
        return {pid: [self._income[pid], self._cost[pid]] for pid in self._lines}

    def equity(self, player_id: str) -> int:
        """starting cash + income − cost: equals the net worth of every player still in the game."""
        return self.starting_cash + self._income[player_id] - self._cost[player_id]
