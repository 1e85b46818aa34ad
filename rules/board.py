"""Boards as data: squares, colour groups and card decks, loaded from JSON files and validated.

A board file lists 40 squares (index 0 is Start, counted in the direction of play) and the card decks.
A deck whose ``cards`` is ``null`` is known by name only (e.g. the Polish edition, whose card texts are not
public): its cards are recorded by their effect.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from rules.errors import BoardError, gettext_noop

BOARDS_DIR = Path(__file__).with_name("boards")
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
ROLES = ("competitor", "monopolist")
PROPERTY_KINDS = {"street", "railroad", "utility"}

#: The card effect vocabulary: kind -> required fields (and their meaning in the engine).
EFFECT_FIELDS: dict[str, tuple[str, ...]] = {
    "collect": ("amount",),  # the bank pays the player
    "pay": ("amount",),  # the player pays the bank
    "move_to": ("square",),  # advance to a square; salary when passing Start
    "move_back": ("steps",),  # go back N squares; no salary
    "nearest": ("square_kind",),  # advance to the nearest railroad / utility (optional rent multipliers)
    "go_to_jail": (),
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

    @property
    def is_property(self) -> bool:
        return self.kind in PROPERTY_KINDS

    def deck_for(self, role: str | None) -> str | None:
        """The deck a player of ``role`` draws from on this card square."""
        for r, deck in self.role_decks:
            if r == role:
                return deck
        return self.deck

    def rent_ladder(self, role: str | None) -> tuple[int, ...]:
        return self.monopolist_rents if role == "monopolist" and self.monopolist_rents else self.rents

    def multipliers_for(self, role: str | None) -> tuple[int, ...]:
        if role == "monopolist" and self.monopolist_multipliers:
            return self.monopolist_multipliers
        return self.multipliers


@dataclass(frozen=True, slots=True)
class Card:
    deck: str
    id: str
    text: str
    effect: dict
    copies: int = 1

    @property
    def ref(self) -> str:
        return f"{self.deck}:{self.id}"


@dataclass(frozen=True, slots=True)
class Deck:
    id: str
    name: str
    cards: tuple[Card, ...] | None  # None: deck known by name only; record cards by effect

    def card(self, card_id: str) -> Card | None:
        for c in self.cards or ():
            if c.id == card_id:
                return c
        return None


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    language: str
    squares: tuple[Square, ...]
    decks: dict[str, Deck]
    groups: dict[str, tuple[int, ...]] = field(default_factory=dict)
    jail: int = 10
    members: tuple[tuple[int, ...], ...] = ()  # per square index: the squares of its group (or itself)

    def __post_init__(self):
        if not self.members:
            members = tuple(
                self.groups.get(sq.group, (sq.index,)) if sq.group else (sq.index,) for sq in self.squares
            )
            object.__setattr__(self, "members", members)

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


def _err(where: str, field_name: str, problem: str) -> BoardError:
    return BoardError(
        "board.invalid",
        gettext_noop("Board file: {where}, field '{field}': {problem}."),
        where=where,
        field=field_name,
        problem=problem,
    )


def _int(data: dict, key: str, where: str, *, required: bool = True, minimum: int = 0) -> int:
    if key not in data or data[key] is None:
        if required:
            raise _err(where, key, "missing")
        return 0
    v = data[key]
    if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
        raise _err(where, key, f"must be a whole number ≥ {minimum}, got {v!r}")
    return v


def _int_list(data: dict, key: str, where: str, length: int | None) -> tuple[int, ...]:
    v = data.get(key)
    if not isinstance(v, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v
    ):
        raise _err(where, key, "must be a list of whole numbers ≥ 0")
    if length is not None and len(v) != length:
        raise _err(where, key, f"must have {length} values, has {len(v)}")
    return tuple(v)


def validate_effect(effect, where: str, board_size: int = BOARD_SIZE) -> dict:
    """Check a card effect against the vocabulary; return it. Raises BoardError naming the field."""
    if not isinstance(effect, dict):
        raise _err(where, "effect", "must be an object")
    kind = effect.get("kind")
    if kind not in EFFECT_FIELDS:
        raise _err(where, "effect.kind", f"unknown effect {kind!r}; one of {', '.join(EFFECT_FIELDS)}")
    for f in EFFECT_FIELDS[kind]:
        if f not in effect:
            raise _err(where, f"effect.{f}", "missing")
    for f in ("amount", "steps", "per_house", "per_hotel", "rent_multiplier", "utility_multiplier"):
        if f in effect:
            _int(
                effect, f, where, minimum=1 if f in ("steps", "rent_multiplier", "utility_multiplier") else 0
            )
    if kind == "move_to":
        sq = effect["square"]
        if not isinstance(sq, int) or isinstance(sq, bool) or not 0 <= sq < board_size:
            raise _err(where, "effect.square", f"must be a square index 0–{board_size - 1}")
    if kind == "nearest" and effect["square_kind"] not in ("railroad", "utility"):
        raise _err(where, "effect.square_kind", "must be 'railroad' or 'utility'")
    return effect


def parse_board(data: dict) -> Board:
    """Build a Board from its JSON data, validating every square and card."""
    if not isinstance(data, dict):
        raise _err("board", "(root)", "must be an object")
    board_id = data.get("id")
    if not isinstance(board_id, str) or not board_id:
        raise _err("board", "id", "missing")
    raw = data.get("squares")
    if not isinstance(raw, list) or len(raw) != BOARD_SIZE:
        raise _err(board_id, "squares", f"must list {BOARD_SIZE} squares")
    squares = []
    for i, s in enumerate(raw):
        where = f"square {i}" + (f" ({s.get('name')})" if isinstance(s, dict) and s.get("name") else "")
        if not isinstance(s, dict):
            raise _err(where, "(square)", "must be an object")
        if s.get("index", i) != i:
            raise _err(where, "index", f"is {s.get('index')!r}, expected {i}")
        name = s.get("name")
        if not isinstance(name, str) or not name.strip():
            raise _err(where, "name", "missing")
        kind = s.get("kind")
        if kind not in SQUARE_KINDS:
            raise _err(where, "kind", f"unknown kind {kind!r}")
        kw: dict = {"index": i, "name": name, "kind": kind}
        if kind in PROPERTY_KINDS:
            kw["price"] = _int(s, "price", where, minimum=1)
            kw["mortgage"] = _int(s, "mortgage", where, minimum=1)
            if kw["mortgage"] > kw["price"]:
                raise _err(where, "mortgage", "is more than the price")
            if s.get("unmortgage") is not None:
                kw["unmortgage"] = _int(s, "unmortgage", where, minimum=kw["mortgage"])
            group = s.get("group")
            if not isinstance(group, str) or not group:
                raise _err(where, "group", "missing")
            kw["group"] = group
        if kind == "street":
            kw["house_cost"] = _int(s, "house_cost", where, minimum=1)
            kw["rents"] = _int_list(s, "rents", where, 6)
            if s.get("monopolist_rents") is not None:
                kw["monopolist_rents"] = _int_list(s, "monopolist_rents", where, 6)
        elif kind == "railroad":
            kw["rents"] = _int_list(s, "rents", where, None)
            if not kw["rents"]:
                raise _err(where, "rents", "must not be empty")
            if s.get("monopolist_rents") is not None:
                kw["monopolist_rents"] = _int_list(s, "monopolist_rents", where, len(kw["rents"]))
        elif kind == "utility":
            kw["multipliers"] = _int_list(s, "multipliers", where, None)
            if not kw["multipliers"]:
                raise _err(where, "multipliers", "must not be empty")
            if s.get("monopolist_multipliers") is not None:
                kw["monopolist_multipliers"] = _int_list(
                    s, "monopolist_multipliers", where, len(kw["multipliers"])
                )
        elif kind == "tax":
            kw["amount"] = _int(s, "amount", where, minimum=1)
            kw["percent_choice"] = s.get("percent_choice") is True
        elif kind == "card":
            decks = data.get("decks") or {}
            deck = s.get("deck")
            if not isinstance(deck, str) or deck not in decks:
                raise _err(where, "deck", f"unknown deck {deck!r}")
            kw["deck"] = deck
            role_decks = s.get("role_decks")
            if role_decks is not None:
                if not isinstance(role_decks, dict) or set(role_decks) != set(ROLES):
                    raise _err(where, "role_decks", f"must name a deck for each role ({', '.join(ROLES)})")
                for role, d in role_decks.items():
                    if d not in decks:
                        raise _err(where, f"role_decks.{role}", f"unknown deck {d!r}")
                kw["role_decks"] = tuple(sorted(role_decks.items()))
        elif kind == "foundation":
            kw["monopolist_pays"] = _int(s, "monopolist_pays", where, minimum=0)
            kw["die_grants"] = _int_list(s, "die_grants", where, 6)
        squares.append(Square(**kw))

    kinds = [s.kind for s in squares]
    for needed in ("start", "jail"):
        if kinds.count(needed) != 1:
            raise _err(board_id, "squares", f"needs exactly one '{needed}' square")
    if squares[0].kind != "start":
        raise _err("square 0", "kind", "must be 'start'")

    groups: dict[str, list[int]] = {}
    for s in squares:
        if s.group:
            groups.setdefault(s.group, []).append(s.index)
    for g, members in groups.items():
        gkinds = {squares[m].kind for m in members}
        if len(gkinds) != 1:
            raise _err(f"group {g}", "kind", "mixes street, railroad and utility squares")
        if "railroad" in gkinds:
            for m in members:
                if len(squares[m].rents) < len(members):
                    raise _err(
                        f"square {m}", "rents", f"needs a rent for each of the {len(members)} railroads"
                    )
        if "utility" in gkinds:
            for m in members:
                if len(squares[m].multipliers) < len(members):
                    raise _err(
                        f"square {m}", "multipliers", f"needs one for each of the {len(members)} utilities"
                    )

    decks = {}
    for deck_id, d in (data.get("decks") or {}).items():
        where = f"deck {deck_id}"
        if not isinstance(d, dict) or not isinstance(d.get("name"), str):
            raise _err(where, "name", "missing")
        cards = None
        if d.get("cards") is not None:
            if not isinstance(d["cards"], list):
                raise _err(where, "cards", "must be a list or null")
            cards, seen = [], set()
            for k, c in enumerate(d["cards"]):
                cw = f"{where}, card {k}"
                if not isinstance(c, dict) or not isinstance(c.get("id"), str) or not c["id"]:
                    raise _err(cw, "id", "missing")
                cw = f"{where}, card {c['id']}"
                if c["id"] in seen:
                    raise _err(cw, "id", "is not unique")
                seen.add(c["id"])
                if not isinstance(c.get("text"), str):
                    raise _err(cw, "text", "missing")
                effect = validate_effect(c.get("effect"), cw)
                copies = _int(c, "copies", cw, required=False, minimum=1) or 1
                cards.append(Card(deck_id, c["id"], c["text"], effect, copies))
            cards = tuple(cards)
        decks[deck_id] = Deck(deck_id, d["name"], cards)

    return Board(
        id=board_id,
        name=str(data.get("name") or board_id),
        language=str(data.get("language") or "en"),
        squares=tuple(squares),
        decks=decks,
        groups={g: tuple(m) for g, m in groups.items()},
        jail=kinds.index("jail"),
    )


def load_board_file(path: str | Path) -> Board:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _err(path.name, "(file)", f"cannot be read as JSON: {e}") from None
    return parse_board(data)


def available_boards() -> list[str]:
    return sorted(p.stem for p in BOARDS_DIR.glob("*.json"))


@cache
def get_board(board_id: str) -> Board:
    """A shipped board edition by id (``classic-us``, ``classic-pl``); cached, boards are immutable."""
    if board_id not in available_boards():
        raise BoardError(
            "board.unknown",
            gettext_noop("Unknown board {board}; known boards: {known}."),
            board=board_id,
            known=", ".join(available_boards()),
        )
    return load_board_file(BOARDS_DIR / f"{board_id}.json")
