"""Helpers for rules tests: a table that applies events one by one and checks the books after each (Table; one
of Anti-Monopoly, its players named by their roles: anti_monopoly_table)."""

from __future__ import annotations

import pytest

from ledger import Ledger
from rules import RulesError, apply, get_board, make_variant, new_game
from rules.movements import BANK
from rules.state import Holding
from rules.valuation import net_worth


def check_books(state, ledger, movements_cash):
    """Ledger identity (RULES.md §2) for every player still in; every cash change is in a movement."""
    for p in state.players:
        if not p.bankrupt:
            assert net_worth(state, p.id) == ledger.equity(p.id), f"identity broken for {p.id}"
        assert p.cash == state.variant.starting_cash + movements_cash[p.id], (
            f"cash not in movements for {p.id}"
        )


class Table:
    def __init__(
        self, variant="classic", board="classic-us", players=("A", "B", "C"), options=None, roles=None
    ):
        """``roles``: one per player (Anti-Monopoly), in seat order."""
        roles = roles or [None] * len(players)
        self.state = new_game(
            get_board(board),
            make_variant(variant, options),
            [(p, p, r) for p, r in zip(players, roles, strict=True)],
        )
        self.ledger = Ledger(players, self.state.variant.starting_cash)
        self.cash_moves = dict.fromkeys(players, 0)
        self.index = 0
        self.outcomes = []

    def __call__(self, type, **fields):
        out = apply(self.state, {"type": type, **fields})
        for m in out.movements:
            assert sum(g.cash for g in m.legs) == 0
            for g in m.legs:
                if g.party != BANK:
                    self.cash_moves[g.party] += g.cash
        self.ledger.post(self.index, out.movements)
        self.index += 1
        self.state = out.state
        self.outcomes.append(out)
        check_books(self.state, self.ledger, self.cash_moves)
        return out

    def roll(self, player, d1, d2):
        return self("roll", player=player, dice=[d1, d2])

    def fails(self, code, type, **fields):
        before = self.state.clone()
        with pytest.raises(RulesError) as e:
            apply(self.state, {"type": type, **fields})
        assert e.value.code == code, e.value.message
        assert self.state == before, "a refused event changed the state"
        return e.value

    # -- direct set-up for rule tests (bypasses the ledger: use before any event) ----------------------
    def give(self, player, *squares, level=0, mortgaged=False):
        hotel = self.state.hotel_level(player)
        for sq in squares:
            self.state.holdings[sq] = Holding(player, level, mortgaged)
            if level >= hotel:
                self.state.hotels -= 1
                self.state.houses -= level - hotel + 0  # a hotel stands alone
            else:
                self.state.houses -= level
            price = self.state.board.square(sq).price
            # keep the books: as if bought at the printed price with cash from nowhere
            self.ledger._income[player] += (
                price
                - (self.state.board.square(sq).mortgage if mortgaged else 0)
                + level * self.state.board.square(sq).house_cost
            )
        return self

    def set_cash(self, player, amount):
        """Set a player's cash as if the difference had been an income or a cost."""
        p = self.state.player(player)
        delta = amount - p.cash
        p.cash = amount
        self.cash_moves[player] += delta
        if delta > 0:
            self.ledger._income[player] += delta
        else:
            self.ledger._cost[player] -= delta
        return self

    def place(self, player, square):
        self.state.player(player).position = square
        return self

    def p(self, pid):
        return self.state.player(pid)

    def cash(self, pid):
        return self.state.player(pid).cash


def role_of(pid: str) -> str:
    """The Anti-Monopoly role of a player named by it: ``C``, ``C1``… a competitor, ``M``, ``M1``… a
    monopolist."""
    return {"C": "competitor", "M": "monopolist"}[pid[0]]


def anti_monopoly_table(players=("C", "M"), **options) -> Table:
    """A Table of Anti-Monopoly on the US board, its players named by their roles (role_of)."""
    return Table(
        "anti-monopoly",
        "anti-monopoly-us",
        players=players,
        options=options or None,
        roles=[role_of(p) for p in players],
    )
