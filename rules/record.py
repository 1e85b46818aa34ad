"""The game record (GAME_RECORD.md): reading a record and checking the shape of each event.

Shape problems (a wrong type, an unknown player, a square out of range, dice of 0 or 7) are
:class:`RecordError`; what the rules forbid is left to the engine (:class:`RuleError`).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field

from rules.board import BOARD_SIZE, Board, get_board
from rules.errors import BoardError, RecordError, VariantError, gettext_noop
from rules.fit import why_board_does_not_fit
from rules.roles import COMPETITOR, ROLES
from rules.variants import Variant, make_variant

FORMAT = "monopoly-game-record/1"
MAX_PLAYERS = 8


@dataclass
class Record:
    variant_id: str
    board_id: str
    players: list[dict]
    options: dict
    events: list
    variant: Variant = field(repr=False, default=None)
    board: Board = field(repr=False, default=None)

    def as_dict(self) -> dict:
        return {
            "format": FORMAT,
            "variant": self.variant_id,
            "board": self.board_id,
            "players": self.players,
            "options": self.options,
            "events": self.events,
        }


def _bad(code: str, template: str, **params) -> RecordError:
    return RecordError(code, template, **params)


def load_record_file(path) -> Record:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        raise _bad(
            "record.unreadable", gettext_noop("The record cannot be read: {error}."), error=str(e)
        ) from None
    except json.JSONDecodeError as e:
        raise _bad(
            "record.not_json", gettext_noop("The record is not valid JSON: {error}."), error=str(e)
        ) from None
    except RecursionError:
        raise _bad(
            "record.not_json",
            gettext_noop("The record is not valid JSON: {error}."),
            error="nested too deeply",
        ) from None
    except ValueError as e:  # an integer longer than Python converts (4300 digits)
        raise _bad(
            "record.not_json", gettext_noop("The record is not valid JSON: {error}."), error=str(e)
        ) from None
    return parse_record(data)


def parse_record(data, *, check_fit: bool = True) -> Record:
    """Check the record's header (format, variant, board, players, options); events are checked one by one.

    ``check_fit=False`` accepts a variant on a board that does not fit it (``rules.fit``): a game stored
    before that check existed still replays; whatever is made anew (a game, an import, ``replay``) is
    checked."""
    if not isinstance(data, dict):
        raise _bad("record.not_object", gettext_noop("A game record is a JSON object."))
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise _bad(
            "record.format",
            gettext_noop("Unknown record format {format}; expected {expected}."),
            format=fmt,
            expected=FORMAT,
        )
    variant_id, board_id = data.get("variant"), data.get("board")
    if not isinstance(variant_id, str):
        raise _bad("record.variant", gettext_noop("The record must name its variant."))
    if not isinstance(board_id, str):
        raise _bad("record.board", gettext_noop("The record must name its board."))
    options = data.get("options") or {}
    try:
        variant = make_variant(variant_id, options)
        board = get_board(board_id)
    except (VariantError, BoardError) as e:
        raise RecordError(e.code, e.template, **e.params) from None
    misfit = why_board_does_not_fit(variant, board) if check_fit else None
    if misfit is not None:
        raise RecordError(misfit.code, misfit.template, **misfit.params)
    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS:
        raise _bad("record.players", gettext_noop("A game has 2 to {max} players."), max=MAX_PLAYERS)
    seen = set()
    for i, p in enumerate(players):
        if not isinstance(p, dict) or not isinstance(p.get("id"), str) or not p["id"].strip():
            raise _bad("record.player_id", gettext_noop("Player {n} has no id."), n=i + 1)
        if p["id"] in seen or p["id"] == "bank":
            raise _bad(
                "record.player_id", gettext_noop("Player id {id} is used twice or reserved."), id=p["id"]
            )
        seen.add(p["id"])
        if "name" in p and not isinstance(p["name"], str):
            raise _bad("record.player_name", gettext_noop("Player {id}: the name must be text."), id=p["id"])
        if p.get("role") is not None and p["role"] not in ROLES:
            raise _bad(
                "record.player_role",
                gettext_noop("Player {id}: role must be competitor or monopolist."),
                id=p["id"],
            )
    if variant.roles:
        check_roles([p.get("role") for p in players])
    events = data.get("events", [])
    if not isinstance(events, list):
        raise _bad("record.events", gettext_noop("The record's events must be a list."))
    return Record(variant_id, board_id, players, options, events, variant, board)


def check_roles(roles: list[str | None]) -> None:
    """Anti-Monopoly rule 4: every player is a competitor or a monopolist, the numbers equal or differing by
    one (5 players: 3 + 2 is legal, 4 + 1 is not)."""
    if any(r not in ROLES for r in roles):
        raise _bad(
            "record.roles_missing", gettext_noop("Every player needs a role: competitor or monopolist.")
        )
    competitors = roles.count(COMPETITOR)
    monopolists = len(roles) - competitors
    if abs(competitors - monopolists) > 1:
        raise _bad(
            "record.roles_unbalanced",
            gettext_noop(
                "{competitors} competitors and {monopolists} monopolists: the numbers must be equal or "
                "differ by one."
            ),
            competitors=competitors,
            monopolists=monopolists,
        )


# -- events ---------------------------------------------------------------------------------------------
def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _player(ev, key, players, *, nullable=False):
    v = ev.get(key)
    if isinstance(v, str) and v in players:
        return v
    if v is None and nullable:
        return None
    raise _bad(
        "event.unknown_player",
        gettext_noop("'{field}' must be one of the players ({ids}), not {value}."),
        field=key,
        ids=", ".join(players),
        value=json.dumps(v, ensure_ascii=False),
    )


def _square(ev, key, *, required=True):
    v = ev.get(key)
    if v.__class__ is int and 0 <= v < BOARD_SIZE:  # the common case first
        return v
    if v is None and not required:
        return None
    if not _is_int(v) or not 0 <= v < BOARD_SIZE:
        raise _bad(
            "event.bad_square",
            gettext_noop("'{field}' must be a square index 0–39, not {value}."),
            field=key,
            value=json.dumps(v),
        )
    return v


def _amount(ev, key, *, required=True, minimum=0):
    v = ev.get(key)
    if v is None and not required:
        return None
    if not _is_int(v) or v < minimum:
        raise _bad(
            "event.bad_amount",
            gettext_noop("'{field}' must be a whole number ≥ {min}, not {value}."),
            field=key,
            min=minimum,
            value=json.dumps(v),
        )
    return v


def _dice(ev, key="dice", *, required=True):
    v = ev.get(key)
    if type(v) is list and len(v) == 2:
        d1, d2 = v
        if type(d1) is int and type(d2) is int and 1 <= d1 <= 6 and 1 <= d2 <= 6:
            return (d1, d2)
    if v is None and not required:
        return None
    if not isinstance(v, list) or len(v) != 2 or not all(_is_int(d) and 1 <= d <= 6 for d in v):
        raise _bad(
            "event.bad_dice",
            gettext_noop("'{field}' must be two dice, each 1–6, not {value}."),
            field=key,
            value=json.dumps(v),
        )
    return (v[0], v[1])


def _squares(ev, key):
    v = ev.get(key, [])
    if not isinstance(v, list):
        raise _bad("event.bad_squares", gettext_noop("'{field}' must be a list of squares."), field=key)
    # a square of the common shape as it is (an int 0–39), else read by _square, which says what is wrong
    out = [x if x.__class__ is int and 0 <= x < BOARD_SIZE else _square({"s": x}, "s") for x in v]
    if len(set(out)) != len(out):
        raise _bad("event.bad_squares", gettext_noop("'{field}' names a square twice."), field=key)
    return out


TRADE_SIDE = ("squares", "cash", "jail_cards")


def _side(ev, key):
    v = ev.get(key, {})
    if not isinstance(v, dict) or not v.keys() <= set(TRADE_SIDE):
        raise _bad(
            "event.bad_trade",
            gettext_noop("'{field}' must be an object {{squares, cash, jail_cards}}."),
            field=key,
        )
    cards = v.get("jail_cards", 0)
    if isinstance(cards, list):
        cards = len(cards)
    elif not (cards.__class__ is int and cards >= 0):  # else a count of the common shape, as it is
        cards = _amount({"n": cards}, "n")
    return {
        "squares": _squares(v, "squares"),
        "cash": _amount(v, "cash", required=False) or 0,
        "jail_cards": cards,
    }


def parse_event(raw, players: Collection[str]) -> dict:
    """A checked, normalised copy of one event (defaults filled in)."""
    if raw.__class__ is not dict and not isinstance(raw, dict):
        raise _bad("event.not_object", gettext_noop("An event is a JSON object."))
    t = raw.get("type")
    # the most common events read in one step, inline (a call less an event): a roll of a known player with
    # two dice, each 1–6; a rent of a known player on a square 0–39, with no dice and no amount. Any other
    # shape is read as any event is, below, which says what is wrong.
    if t == "roll":
        player, dice = raw.get("player"), raw.get("dice")
        if (
            len(raw) == 3
            and player.__class__ is str
            and player in players
            and dice.__class__ is list
            and len(dice) == 2
        ):
            d1, d2 = dice
            if d1.__class__ is int and d2.__class__ is int and 0 < d1 < 7 and 0 < d2 < 7:
                return {"type": "roll", "player": player, "dice": (d1, d2)}
    elif t == "rent":
        player, square = raw.get("player"), raw.get("square")
        if (
            len(raw) == 3
            and player.__class__ is str
            and player in players
            and square.__class__ is int
            and 0 <= square < BOARD_SIZE
        ):
            return {"type": "rent", "player": player, "square": square, "dice": None}
    fill = _FIELDS.get(t) if isinstance(t, str) else None
    if fill is None:
        raise _bad("event.unknown_type", gettext_noop("Unknown event type {type}."), type=json.dumps(t))
    allowed = _ALLOWED[t]
    for name in raw:
        if name not in allowed:  # a price, a multiplier or a sum the rules compute otherwise
            raise _bad(
                "event.unknown_field",
                gettext_noop("A {type} event has no field {field}."),
                type=t,
                field=json.dumps(str(name), ensure_ascii=False),
            )
    if t in WITHOUT_PLAYER:
        ev = {"type": t}
    else:
        v = raw.get("player")  # the common case inline: a known player's id
        ev = {
            "type": t,
            "player": v if v.__class__ is str and v in players else _player(raw, "player", players),
        }
    if fill is not _nothing:
        fill(raw, ev, players)
    if t in AMOUNT_CHECKED and "amount" in raw:
        ev["amount"] = _amount(raw, "amount")
    return ev


# -- the fields of each type of event, checked and copied into the normalised event ----------------------
def _nothing(raw, ev, players) -> None:
    return None


def _roll_fields(raw, ev, players) -> None:  # a roll not of the common shape (parse_event)
    ev["dice"] = _dice(raw)


def _deal_fields(raw, ev, players) -> None:
    ev["squares"] = _squares(raw, "squares")
    if not ev["squares"]:
        raise _bad("event.bad_squares", gettext_noop("A deal names at least one square."))


def _auction_fields(raw, ev, players) -> None:
    ev["square"] = _square(raw, "square")
    ev["winner"] = _player(raw, "winner", players, nullable=True)
    ev["price"] = _amount(raw, "price", required=ev["winner"] is not None) or 0


def _rent_fields(raw, ev, players) -> None:
    ev["square"] = _square(raw, "square", required=False)
    ev["dice"] = None if raw.get("dice") is None else _dice(raw)


def _card_fields(raw, ev, players) -> None:
    card, effect = raw.get("card"), raw.get("effect")
    if (card is None) == (effect is None):
        raise _bad("event.card", gettext_noop("A card event names either the card or its effect."))
    if card is not None:
        if not isinstance(card, str) or ":" not in card:
            raise _bad(
                "event.card",
                gettext_noop("'card' is written deck:card-id, not {value}."),
                value=json.dumps(card),
            )
        ev["card"] = card
    else:
        ev["effect"] = effect
    ev["dice"] = None if raw.get("dice") is None else _dice(raw)


def _building_fields(raw, ev, players) -> None:
    ev["square"] = _square(raw, "square")
    ev["count"] = _amount(raw, "count", required=False, minimum=1) or 1
    if ev["type"] == "build" and raw.get("price") is not None:
        ev["price"] = _amount(raw, "price")  # won at the bank's auction of scarce buildings


def _square_fields(raw, ev, players) -> None:
    ev["square"] = _square(raw, "square")


def _trade_fields(raw, ev, players) -> None:
    ev["with"] = _player(raw, "with", players)
    ev["give"] = _side(raw, "give")
    ev["get"] = _side(raw, "get")


def _final_roll_fields(raw, ev, players) -> None:
    ev["square"] = _square(raw, "square")
    ev["dice"] = _dice(raw)


def _income_tax_fields(raw, ev, players) -> None:
    choice = raw.get("choice")
    if choice not in ("fixed", "percent"):
        raise _bad(
            "event.bad_choice",
            gettext_noop('\'choice\' must be "fixed" or "percent", not {value}.'),
            value=json.dumps(choice),
        )
    ev["choice"] = choice


def _foundation_fields(raw, ev, players) -> None:
    die = raw.get("die")
    if not _is_int(die) or not 1 <= die <= 6:
        raise _bad(
            "event.bad_die",
            gettext_noop("'die' must be one die, 1–6, not {value}."),
            value=json.dumps(die),
        )
    ev["die"] = die


#: The most banknotes a cash count may find (GAME_RECORD.md ``cash_count``).
COUNTED_MAX = 100_000


def _cash_count_fields(raw, ev, players) -> None:
    ev["counted"] = _amount(raw, "counted")
    if ev["counted"] > COUNTED_MAX:
        raise _bad(
            "event.bad_counted",
            gettext_noop("'counted' must be a whole number 0–{max}, not {value}."),
            max=COUNTED_MAX,
            value=ev["counted"],
        )


def _time_up_fields(raw, ev, players) -> None:
    if "now" not in raw:
        return
    if not isinstance(raw["now"], bool):
        raise _bad(
            "event.bad_now",
            gettext_noop("'now' must be true or false, not {value}."),
            value=json.dumps(raw["now"]),
        )
    if raw["now"]:
        ev["now"] = True


#: Each event type of the record (GAME_RECORD.md), in the record's order, and how its own fields are read.
_FIELDS = {
    "deal": _deal_fields,
    "roll": _roll_fields,
    "buy": _nothing,
    "decline": _nothing,
    "auction": _auction_fields,
    "rent": _rent_fields,
    "card": _card_fields,
    "build": _building_fields,
    "sell_building": _building_fields,
    "mortgage": _square_fields,
    "unmortgage": _square_fields,
    "trade": _trade_fields,
    "jail_fine": _nothing,
    "jail_card": _nothing,
    "timeout": _nothing,
    "bankrupt": _nothing,
    "time_up": _time_up_fields,
    "final_roll": _final_roll_fields,
    "income_tax": _income_tax_fields,
    "foundation": _foundation_fields,
    "final_keep": _nothing,
    "final_tour": _nothing,
    "cash_count": _cash_count_fields,
}


EVENT_TYPES = tuple(_FIELDS)
WITHOUT_PLAYER = frozenset(("time_up", "auction", "final_keep", "final_tour"))
AMOUNT_CHECKED = frozenset(("buy", "rent", "build", "sell_building", "mortgage", "unmortgage", "income_tax"))
#: The fields each type's events carry besides ``type`` and ``player`` (and ``amount`` where the engine checks
#: a sum): GAME_RECORD.md's table. An event with any other is refused, naming it.
OWN_FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("squares",),
    "roll": ("dice",),
    "auction": ("square", "winner", "price"),
    "rent": ("square", "dice"),
    "card": ("card", "effect", "dice"),
    "build": ("square", "count", "price"),
    "sell_building": ("square", "count"),
    "mortgage": ("square",),
    "unmortgage": ("square",),
    "trade": ("with", "give", "get"),
    "time_up": ("now",),
    "final_roll": ("square", "dice"),
    "income_tax": ("choice",),
    "foundation": ("die",),
    "cash_count": ("counted",),
}
_ALLOWED = {
    t: frozenset(
        ("type",)
        + (() if t in WITHOUT_PLAYER else ("player",))
        + OWN_FIELDS.get(t, ())
        + (("amount",) if t in AMOUNT_CHECKED else ())
    )
    for t in _FIELDS
}
