"""Book values: pure functions of a state (RULES.md §2 equity, §3 net worth); the rent is in
:mod:`rules.rent`."""

from __future__ import annotations

from typing import NamedTuple

from rules.state import GameState


def holding_value(s: GameState, square: int) -> int:
    """Book value of an owned square (RULES.md §2): printed price − outstanding loan + buildings at cost."""
    sq = s.board.square(square)
    h = s.holdings[square]
    return sq.price - (sq.mortgage if h.mortgaged else 0) + h.level * sq.house_cost


def property_value(s: GameState, square: int, mortgaged: bool) -> int:
    """Book value of an unbuilt square: its price, less the loan when mortgaged."""
    sq = s.board.square(square)
    return sq.price - (sq.mortgage if mortgaged else 0)


def net_worths(s: GameState) -> dict[str, int]:
    """Every player's net worth by id (RULES.md §3): cash + properties (mortgaged: price − loan, i.e. half) +
    buildings at purchase price; the holdings read once for all of them."""
    worth = {p.id: p.cash for p in s.players}
    for sq, h in s.holdings.items():
        worth[h.owner] += holding_value(s, sq)
    return worth


def net_worth(s: GameState, player_id: str) -> int:
    """One player's :func:`net_worths`."""
    s.player(player_id)  # (an unknown id refused as the state refuses it)
    return net_worths(s)[player_id]


class NetWorth(NamedTuple):
    """The parts of a net worth as a score sheet shows them (RULES.md §3); ``total`` is ``net_worth``."""

    cash: int
    properties: int  # printed price of the unmortgaged properties
    mortgaged: int  # the mortgaged ones at half (price − loan)
    buildings: int  # at purchase price, a hotel with the houses it replaced

    @property
    def total(self) -> int:
        return self.cash + self.properties + self.mortgaged + self.buildings


def net_worth_parts(s: GameState, player_id: str) -> NetWorth:
    properties = mortgaged = buildings = 0
    for sq, h in s.holdings.items():
        if h.owner != player_id:
            continue
        if h.mortgaged:
            mortgaged += property_value(s, sq, True)
        else:
            properties += property_value(s, sq, False)
        buildings += holding_value(s, sq) - property_value(s, sq, h.mortgaged)
    return NetWorth(s.player(player_id).cash, properties, mortgaged, buildings)


def liquidation_cash(s: GameState, player_id: str) -> int:
    """Cash the player could raise from the bank alone: sell every building, mortgage every square."""
    p = s.player(player_id)
    total = p.cash
    for sq, h in s.holdings.items():
        if h.owner != player_id:
            continue
        square = s.board.square(sq)
        total += h.level * (square.house_cost // 2)
        if not h.mortgaged:
            total += square.mortgage
    return total


def buildings_count(s: GameState, player_id: str) -> tuple[int, int]:
    """(houses, hotels) the player has on the board."""
    houses = hotels = 0
    hotel = s.hotel_level(player_id)
    for h in s.holdings.values():
        if h.owner == player_id and h.level:
            if h.level >= hotel:
                hotels += 1
            else:
                houses += h.level
    return houses, hotels
