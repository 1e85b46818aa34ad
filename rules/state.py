"""The state of one game: players, holdings, the bank's buildings, the turn and what is pending.

:func:`rules.apply` changes a clone of the state it is given (cheap: a few dozen small objects, whatever the
length of the game), or the state itself when the caller owns it (``in_place=True``: a replay, the console
that loads the state per request). States compare equal by value, so a state rebuilt from the record can be
checked against one updated event by event.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.board import Board
from rules.variants import Variant


@dataclass(slots=True)
class PlayerState:
    id: str
    name: str
    cash: int
    role: str | None = None
    position: int = 0
    in_jail: bool = False
    jail_turns: int = 0  # turns begun in jail (the turn he was sent there is not one)
    jail_cards: list[str] = field(default_factory=list)  # deck ids (or card refs) of held "get out" cards
    bankrupt: bool = False
    bankrupt_order: int = 0  # 1 for the first player to go bankrupt, …
    debt_to: str | None = None  # creditor while cash < 0 (a player id or "bank")
    dealt: int = 0  # title deeds dealt at the start
    # while cash < 0: what each payee was credited and has not received in banknotes (rules.banknotes)
    unpaid: dict[str, int] = field(default_factory=dict)

    def clone(self) -> PlayerState:
        """A copy sharing nothing that changes in place (a slot by slot copy: half the cost of a call of
        the dataclass's ``__init__``; a field missing here is an unset slot, an error at its first use)."""
        c = _new_player(PlayerState)
        c.id = self.id
        c.name = self.name
        c.cash = self.cash
        c.role = self.role
        c.position = self.position
        c.in_jail = self.in_jail
        c.jail_turns = self.jail_turns
        c.jail_cards = self.jail_cards.copy()
        c.bankrupt = self.bankrupt
        c.bankrupt_order = self.bankrupt_order
        c.debt_to = self.debt_to
        c.dealt = self.dealt
        c.unpaid = self.unpaid.copy()
        return c

    @property
    def active(self) -> bool:
        return not self.bankrupt


class Holding:
    """An owned square. Immutable: a change replaces it (``holdings[sq] = h.but(level=2)``).

    A class with slots rather than a NamedTuple: its fields are read at every landing, rent and legality
    probe, and Python 3.11 reads a slot at a third of the cost of a NamedTuple's field (it specialises slot
    reads, not the tuple's field descriptors). It compares, hashes, unpacks and prints as the NamedTuple it
    was (``Holding(owner='A', level=0, mortgaged=False)``); its fields are set once, by ``_set_*`` below
    (the slots' own setters, which bypass the ``__setattr__`` that keeps it immutable)."""

    __slots__ = ("owner", "level", "mortgaged")
    owner: str
    level: int  # 0..houses_per_hotel houses; houses_per_hotel + 1 is the hotel
    mortgaged: bool

    def __init__(self, owner: str, level: int = 0, mortgaged: bool = False):
        _set_owner(self, owner)
        _set_level(self, level)
        _set_mortgaged(self, mortgaged)

    def but(
        self, *, owner: str | None = None, level: int | None = None, mortgaged: bool | None = None
    ) -> Holding:
        """A copy with the fields given changed (None: kept)."""
        c = _new_holding(Holding)  # slot by slot, without __init__'s frame
        _set_owner(c, self.owner if owner is None else owner)
        _set_level(c, self.level if level is None else level)
        _set_mortgaged(c, self.mortgaged if mortgaged is None else mortgaged)
        return c

    def __setattr__(self, name, value):
        raise AttributeError(f"a Holding is immutable: make another (.but({name}=…)), not set .{name}")

    def __delattr__(self, name):
        raise AttributeError(f"a Holding is immutable: .{name} cannot be deleted")

    def _fields(self) -> tuple[str, int, bool]:
        return (self.owner, self.level, self.mortgaged)

    def __eq__(self, other):
        if other.__class__ is not Holding:
            return NotImplemented
        return self.owner == other.owner and self.level == other.level and self.mortgaged == other.mortgaged

    def __hash__(self):
        return hash(self._fields())

    def __iter__(self):  # owner, level, mortgaged = h; list(h) (rules.snapshot writes a holding so)
        return iter(self._fields())

    def __repr__(self):
        return f"Holding(owner={self.owner!r}, level={self.level!r}, mortgaged={self.mortgaged!r})"

    def __reduce__(self):  # copy and pickle by the constructor (the slots' state would meet __setattr__)
        return (Holding, self._fields())


_set_owner = Holding.owner.__set__
_set_level = Holding.level.__set__
_set_mortgaged = Holding.mortgaged.__set__
_new_holding = Holding.__new__


# What is pending (a decision, a rent, a jail exit) is a small value: replaced, never changed in place. Not
# ``frozen``: a frozen dataclass is four times as slow to make, and one is made at almost every landing.
@dataclass(slots=True)
class BuyDecision:
    player: str
    square: int


@dataclass(slots=True)
class CardDraw:
    player: str
    deck: str


@dataclass(slots=True)
class TaxChoice:
    """Anti-Monopoly income tax: the player chooses the fixed amount or his role's percentage of assets."""

    player: str
    square: int
    percent: int | None = None  # the percentage valued at the landing (None: valued when the choice is made)


@dataclass(slots=True)
class FoundationRoll:
    """Anti-Monopoly Foundation: a competitor rolls one die for a grant."""

    player: str
    square: int


Decision = BuyDecision | CardDraw | TaxChoice | FoundationRoll


@dataclass(slots=True)
class RentDue:
    payer: str
    owner: str
    square: int
    amount: int
    times: int = 0  # a utility's rent as a multiple of a throw still to be made (Anti-Monopoly rule 20)


@dataclass(slots=True)
class JailExit:
    """A prisoner's roll that frees him once he has paid the fine it imposed (seed 002: "pay 50 … before
    you can move your chip"): the token moves by these dice when his cash is back to zero or more."""

    player: str
    dice: tuple[int, int]
    doubles_count: bool  # the dice count as a roll of the turn (doubles, roll again): a roll after waiting


@dataclass(slots=True)
class GameState:
    board: Board
    variant: Variant
    players: list[PlayerState]
    holdings: dict[int, Holding] = field(default_factory=dict)
    houses: int = 32
    hotels: int = 12
    round: int = 1  # the round in play (1 before the first roll)
    turn: int | None = None  # seat index of the player whose turn it is (or was last)
    rolls: int = 0  # rolls in the current turn
    doubles: int = 0  # doubles in a row in the current turn
    roll_again: bool = False  # the current player must roll again (doubles)
    last_dice: tuple[int, int] | None = None
    decision: Decision | None = None  # blocks the next roll
    auctions: tuple[int, ...] = ()  # squares to auction after a decline (blocks the next roll)
    bank_sale: tuple[
        int, ...
    ] = ()  # squares of a player bankrupt to the bank: auctionable until the next roll
    rents: tuple[RentDue, ...] = ()  # claimable rents (lapse at the next roll)
    fee_paid: tuple[int, ...] = ()  # mortgaged squares received with the 10 % paid, until the receiver rolls
    # owned squares in the order their owners acquired them (the last, last): Anti-Monopoly's "third street"
    acquired: tuple[int, ...] = ()
    jail_exit: JailExit | None = None  # a prisoner's move waiting for his fine to be paid
    final_step: str | None = None  # Anti-Monopoly two-hour game after the last round: "dealings", "tour"
    final_rolls: dict[int, int] = field(default_factory=dict)  # utility square -> dice total (final_roll)
    time_up: bool = False
    stopped: bool = False  # the organisers stopped the game (a ``time_up`` with ``now``), its clock or not
    finished: bool = False
    end_reason: str | None = None
    bankruptcies: int = 0
    events: int = 0  # events applied
    by_id: dict[str, PlayerState] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        self.by_id = {p.id: p for p in self.players}

    @classmethod
    def new(cls, board: Board, variant: Variant, players: list[tuple[str, str, str | None]]) -> GameState:
        return cls(
            board=board,
            variant=variant,
            players=[PlayerState(pid, name, variant.starting_cash, role) for pid, name, role in players],
            houses=variant.bank_houses,
            hotels=variant.bank_hotels,
        )

    def clone(self) -> GameState:
        """A copy sharing nothing that changes in place (the console applies one event per request to a
        clone). Written out slot by slot, a third of the cost of a loop over the fields; a field missing
        here is an unset slot, an error at its first use (tests/test_rules_state.py compares every field)."""
        c = _new_state(GameState)
        c.board = self.board
        c.variant = self.variant
        c.players = players = [p.clone() for p in self.players]
        c.holdings = self.holdings.copy()
        c.houses = self.houses
        c.hotels = self.hotels
        c.round = self.round
        c.turn = self.turn
        c.rolls = self.rolls
        c.doubles = self.doubles
        c.roll_again = self.roll_again
        c.last_dice = self.last_dice
        c.decision = self.decision  # the pending values are replaced, never changed in place
        c.auctions = self.auctions
        c.bank_sale = self.bank_sale
        c.rents = self.rents
        c.fee_paid = self.fee_paid
        c.acquired = self.acquired
        c.jail_exit = self.jail_exit
        c.final_step = self.final_step
        c.final_rolls = self.final_rolls.copy()
        c.time_up = self.time_up
        c.stopped = self.stopped
        c.finished = self.finished
        c.end_reason = self.end_reason
        c.bankruptcies = self.bankruptcies
        c.events = self.events
        c.by_id = {p.id: p for p in players}
        return c

    def acquire(self, square: int) -> None:
        """``square`` has a new owner: it is now the last acquired (``acquired``)."""
        self.acquired = (*(q for q in self.acquired if q != square), square)

    # -- look-ups -------------------------------------------------------------------------------------
    def player(self, player_id: str) -> PlayerState:
        return self.by_id[player_id]

    @property
    def active_players(self) -> list[PlayerState]:
        return [p for p in self.players if not p.bankrupt]

    @property
    def current(self) -> PlayerState | None:
        return None if self.turn is None else self.players[self.turn]

    def hotel_level(self, owner: str) -> int:
        """The level of the hotel (apartment) on a street of ``owner`` (Anti-Monopoly: by his role)."""
        return self.variant.hotel_level_for(self.by_id[owner].role)

    def owner_of(self, square: int) -> str | None:
        h = self.holdings.get(square)
        return h.owner if h else None

    def owned_by(self, player_id: str) -> list[int]:
        return sorted(sq for sq, h in self.holdings.items() if h.owner == player_id)

    def debtors(self) -> list[PlayerState]:
        return [p for p in self.players if not p.bankrupt and p.cash < 0]

    def held_jail_cards(self) -> set[str]:
        return {c for p in self.players for c in p.jail_cards}


_new_player = PlayerState.__new__
_new_state = GameState.__new__
