"""What a board is made of: its squares, card decks and cards, and the board itself (colour groups, the jail
square, the nearest square of a kind), with the vocabularies a board file is written in (square kinds, card
effects). A board is immutable; :mod:`rules.board.parse` builds one from its JSON data."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import BoardError, gettext_noop
from rules.roles import MONOPOLIST

BOARD_SIZE = 40

SQUARE_KINDS = {
    "start",
    "street",
    "railroad",
    "utility",
    "tax",
    "card",
    "jail",
    "parking",
    "go_to_jail",
    "foundation",  # Anti-Monopoly Foundation: a monopolist pays, a competitor rolls one die for a grant
}
PROPERTY_KINDS = {"street", "railroad", "utility"}

#: The card effect vocabulary: kind -> required fields (and their meaning in the engine).
EFFECT_FIELDS: dict[str, tuple[str, ...]] = {
    "collect": ("amount",),  # the bank pays the player
    "pay": ("amount",),  # the player pays the bank
    "move_to": ("square",),  # advance to a square; salary when passing Start
    "move_back": ("steps",),  # go back N squares; no salary
    "nearest": ("square_kind",),  # advance to the nearest railroad / utility (optional rent multipliers)
    "go_to_jail": (),  # straight to the jail square, no salary (Anti-Monopoly: Price War / Prison by role)
    "go_to_price_war": (),  # Anti-Monopoly, a Competitor card: the same square as go_to_jail
    "go_to_prison": (),  # Anti-Monopoly, a Monopolist card: the same square as go_to_jail
    "jail_card": (),  # "Get out of jail free", kept until used or sold
    "repairs": ("per_house", "per_hotel"),
    "pay_each_player": ("amount",),
    "collect_from_each_player": ("amount",),
}


@dataclass(frozen=True, slots=True)
class Square:
    index: int
    name: str
    kind: str
    group: str | None = None
    price: int = 0
    house_cost: int = 0
    rents: tuple[int, ...] = ()
    multipliers: tuple[int, ...] = ()
    mortgage: int = 0
    unmortgage: int | None = None  # printed unmortgage amount, when the title deed prints one
    amount: int = 0  # tax
    deck: str | None = None
    # Anti-Monopoly (roles): the monopolist's rent ladder (street: single, city monopolised, 1–3 houses,
    # apartment; transport: by number owned) and utility multipliers; ``rents`` / ``multipliers`` are the
    # competitor's. Empty: the same for both roles.
    monopolist_rents: tuple[int, ...] = ()
    monopolist_multipliers: tuple[int, ...] = ()
    role_decks: tuple[
        tuple[str, str], ...
    ] = ()  # (role, deck id): a card square drawing from the role's deck
    percent_choice: bool = False  # income tax: the fixed amount or the role's percentage of assets
    monopolist_pays: int = 0  # foundation: what a monopolist pays
    die_grants: tuple[int, ...] = ()  # foundation: what a competitor gets for each face of one die (1–6)
    # may be owned (a street, a railroad, a utility): set from ``kind``, asked at every landing
    is_property: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "is_property", self.kind in PROPERTY_KINDS)

    def deck_for(self, role: str | None) -> str | None:
        """The deck a player of ``role`` draws from on this card square."""
        for r, deck in self.role_decks:
            if r == role:
                return deck
        return self.deck

    def rent_ladder(self, role: str | None) -> tuple[int, ...]:
        return self.monopolist_rents if role == MONOPOLIST and self.monopolist_rents else self.rents

    def multipliers_for(self, role: str | None) -> tuple[int, ...]:
        if role == MONOPOLIST and self.monopolist_multipliers:
            return self.monopolist_multipliers
        return self.multipliers


@dataclass(frozen=True, slots=True)
class Card:
    deck: str
    id: str
    text: str
    effect: dict
    copies: int = 1
    ref: str = field(init=False, repr=False, compare=False)  # "deck:id", as the record writes it

    def __post_init__(self):
        object.__setattr__(self, "ref", f"{self.deck}:{self.id}")


@dataclass(frozen=True, slots=True)
class Deck:
    id: str
    name: str
    cards: tuple[Card, ...] | None  # None: deck known by name only; record cards by effect
    by_id: dict[str, Card] = field(init=False, repr=False, compare=False)  # the cards by their id

    def __post_init__(self):
        by_id = {}
        for c in self.cards or ():
            by_id.setdefault(c.id, c)  # the first of a repeated id, as a search from the top finds it
        object.__setattr__(self, "by_id", by_id)

    def card(self, card_id: str) -> Card | None:
        return self.by_id.get(card_id)


@dataclass(frozen=True, slots=True)
class Board:
    id: str
    name: str
    language: str
    squares: tuple[Square, ...]
    decks: dict[str, Deck]
    groups: dict[str, tuple[int, ...]] = field(default_factory=dict)
    jail: int = 10
    members: tuple[tuple[int, ...], ...] = ()  # per square index: the squares of its group (or itself)
    # the colour groups of streets, in board order (where houses may be built)
    street_groups: tuple[tuple[int, ...], ...] = field(init=False, repr=False)

    def __post_init__(self):
        if not self.members:
            members = tuple(
                self.groups.get(sq.group, (sq.index,)) if sq.group else (sq.index,) for sq in self.squares
            )
            object.__setattr__(self, "members", members)
        streets = sorted({self.members[sq.index] for sq in self.squares if sq.kind == "street"})
        object.__setattr__(self, "street_groups", tuple(streets))

    def __hash__(self):
        return hash(self.id)

    def __eq__(self, other):
        return isinstance(other, Board) and other.id == self.id

    def square(self, index: int) -> Square:
        return self.squares[index]

    def group_of(self, index: int) -> tuple[int, ...]:
        return self.members[index]

    @property
    def properties(self) -> tuple[Square, ...]:
        return tuple(s for s in self.squares if s.is_property)

    def nearest(self, start: int, kind: str) -> int:
        for step in range(1, BOARD_SIZE + 1):
            i = (start + step) % BOARD_SIZE
            if self.squares[i].kind == kind:
                return i
        raise BoardError(
            "board.no_such_kind", gettext_noop("The board has no square of kind {kind}."), kind=kind
        )
