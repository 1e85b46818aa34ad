"""Money movements: what one event did to each party's cash and holdings.

A :class:`Movement` is one transaction (a rent, an auction, a trade, …). Each :class:`Leg` says, for one
party, how much cash it received (negative: paid) and by how much the book value of its holdings changed
(RULES.md §2: printed prices of properties, purchase prices of buildings, minus outstanding mortgage loans).
The bank is a party too, so the cash of every movement sums to zero. The ledger (``ledger/``) reads
``cash + assets`` of a player's leg as the transaction's income (positive) or cost (negative).
"""

from __future__ import annotations

from typing import NamedTuple

BANK = "bank"


class Leg(NamedTuple):
    party: str  # a player id, or BANK
    cash: int  # received (+) or paid (−)
    assets: int = 0  # change of the book value of the party's holdings

    @property
    def equity(self) -> int:
        return self.cash + self.assets


class Movement(NamedTuple):
    kind: str  # salary, rent, tax, purchase, deal, auction, build, sell_building, mortgage, …
    legs: tuple[Leg, ...]
    square: int | None = None
    detail: str = ""  # e.g. the card reference, the counterparty

    def leg(self, party: str) -> Leg | None:
        for leg in self.legs:
            if leg.party == party:
                return leg
        return None

    def as_dict(self) -> dict:
        d = {
            "kind": self.kind,
            "legs": [{"party": g.party, "cash": g.cash, "assets": g.assets} for g in self.legs],
        }
        if self.square is not None:
            d["square"] = self.square
        if self.detail:
            d["detail"] = self.detail
        return d
