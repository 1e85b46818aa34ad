"""Rent and book values: pure functions of a state (RULES.md §1 rent rows, §2 equity, §3 net worth)."""

from __future__ import annotations

from typing import NamedTuple

from rules.state import GameState


def group_owned_by(s: GameState, square: int, owner: str) -> bool:
    return all(s.owner_of(m) == owner for m in s.board.group_of(square))


def group_mortgaged(s: GameState, square: int) -> bool:
    return any(s.holdings[m].mortgaged for m in s.board.group_of(square) if m in s.holdings)


def owned_in_set(s: GameState, square: int, owner: str) -> int:
    """How many squares of ``square``'s set (railroads, utilities) ``owner`` holds, per the variant."""
    count_mortgaged = s.variant.sets_count_mortgaged
    return sum(
        1
        for m in s.board.group_of(square)
        if (h := s.holdings.get(m)) and h.owner == owner and (count_mortgaged or not h.mortgaged)
    )


def rent_for(
    s: GameState,
    square: int,
    dice_total: int | None = None,
    rent_multiplier: int = 1,
    utility_multiplier: int | None = None,
) -> int:
    """The rent the owner of ``square`` may claim from a player landing there (0 when mortgaged)."""
    sq = s.board.square(square)
    h = s.holdings[square]
    if h.mortgaged:
        return 0
    v = s.variant
    if sq.kind == "street":
        if h.level == 0:
            base = sq.rents[0]
            if (
                v.double_rent_full_group
                and group_owned_by(s, square, h.owner)
                and not group_mortgaged(s, square)
            ):
                base *= 2
        elif h.level >= v.hotel_level:
            base = sq.rents[5]
        else:
            base = sq.rents[h.level]
    elif sq.kind == "railroad":
        base = sq.rents[max(1, owned_in_set(s, square, h.owner)) - 1]
    else:  # utility
        if dice_total is None:
            raise ValueError("utility rent needs the dice")
        mult = utility_multiplier or sq.multipliers[max(1, owned_in_set(s, square, h.owner)) - 1]
        base = mult * dice_total
    return base * rent_multiplier


def holding_value(s: GameState, square: int) -> int:
    """Book value of an owned square (RULES.md §2): printed price − outstanding loan + buildings at cost."""
    sq = s.board.square(square)
    h = s.holdings[square]
    return sq.price - (sq.mortgage if h.mortgaged else 0) + h.level * sq.house_cost


def property_value(s: GameState, square: int, mortgaged: bool) -> int:
    """Book value of an unbuilt square: its price, less the loan when mortgaged."""
    sq = s.board.square(square)
    return sq.price - (sq.mortgage if mortgaged else 0)


def net_worth(s: GameState, player_id: str) -> int:
    """RULES.md §3: cash + properties (mortgaged: price − loan, i.e. half) + buildings at purchase price."""
    p = s.player(player_id)
    return p.cash + sum(holding_value(s, sq) for sq, h in s.holdings.items() if h.owner == player_id)


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
    hotel = s.variant.hotel_level
    for h in s.holdings.values():
        if h.owner == player_id and h.level:
            if h.level >= hotel:
                hotels += 1
            else:
                houses += h.level
    return houses, hotels
