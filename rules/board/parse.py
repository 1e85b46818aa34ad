"""Reading a board from its JSON data (a shipped file, an organiser's upload), validated: each square and
each card is checked, and a problem is a message naming the square (or card) and the field, so that a whole
file can be corrected at once. Card effects are checked here too (:func:`validate_effect`: a card recorded by
its effect, on a deck whose texts are not listed)."""

from __future__ import annotations

import json
from pathlib import Path

from rules.board.types import (
    BOARD_SIZE,
    EFFECT_FIELDS,
    PROPERTY_KINDS,
    SQUARE_KINDS,
    Board,
    Card,
    Deck,
    Square,
)
from rules.errors import BoardError, gettext_noop
from rules.messages import Message, msg
from rules.roles import ROLES

ECHO_LENGTH = 40  # how much of a bad value (or a long name) a message repeats
#: No number on a board comes near (a price, a rent, a tax, a card's amount, copies of a card): a bigger one
#: is a typing error, and would be carried into every game played on the board.
MAX_BOARD_NUMBER = 1_000_000


def _echo(value) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= ECHO_LENGTH else text[: ECHO_LENGTH - 1] + "…"


def _shown(value) -> str:
    """A bad value as a message repeats it: Python's spelling (``'abc'``, ``60.5``, ``None``), cut short."""
    return _echo(repr(value))


def _err(where, field_name: str, problem) -> BoardError:
    """``where`` and ``problem`` are messages (translated on the Django side) or plain data (a board id)."""
    return BoardError(
        "board.invalid",
        gettext_noop("Board file: {where}, field '{field}': {problem}."),
        where=where,
        field=field_name,
        problem=problem,
    )


def _missing() -> Message:
    return msg(gettext_noop("missing"))


def _square_where(i: int, s) -> Message:
    name = s.get("name") if isinstance(s, dict) else None
    if name:
        return msg(gettext_noop("square {index} ({name})"), index=i, name=_echo(str(name)))
    return msg(gettext_noop("square {index}"), index=i)


def _too_large(v: int) -> Message:
    return msg(
        gettext_noop("must be at most {maximum}, got {value}"), maximum=MAX_BOARD_NUMBER, value=_shown(v)
    )


def _int(data: dict, key: str, where, *, required: bool = True, minimum: int = 0) -> int:
    if key not in data or data[key] is None:
        if required:
            raise _err(where, key, _missing())
        return 0
    v = data[key]
    if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
        raise _err(
            where,
            key,
            msg(
                gettext_noop("must be a whole number ≥ {minimum}, got {value}"),
                minimum=minimum,
                value=_shown(v),
            ),
        )
    if v > MAX_BOARD_NUMBER:
        raise _err(where, key, _too_large(v))
    return v


def _int_list(data: dict, key: str, where, length: int | None) -> tuple[int, ...]:
    v = data.get(key)
    if not isinstance(v, list):
        raise _err(where, key, msg(gettext_noop("must be a list of whole numbers ≥ 0")))
    for position, x in enumerate(v):
        if not isinstance(x, int) or isinstance(x, bool) or x < 0:
            raise _err(
                where,
                key,
                msg(
                    gettext_noop("value {position} must be a whole number ≥ 0, got {value}"),
                    position=position,
                    value=_shown(x),
                ),
            )
        if x > MAX_BOARD_NUMBER:
            raise _err(where, key, _too_large(x))
    if length is not None and len(v) != length:
        raise _err(
            where,
            key,
            msg(gettext_noop("must have {count} values, has {actual}"), count=length, actual=len(v)),
        )
    return tuple(v)


def validate_effect(effect, where, board_size: int = BOARD_SIZE) -> dict:
    """Check a card effect against the vocabulary; return it. Raises BoardError naming the field."""
    if not isinstance(effect, dict):
        raise _err(where, "effect", msg(gettext_noop("must be an object")))
    kind = effect.get("kind")
    if not isinstance(kind, str) or kind not in EFFECT_FIELDS:
        raise _err(
            where,
            "effect.kind",
            msg(
                gettext_noop("unknown effect {kind}; one of {kinds}"),
                kind=_shown(kind),
                kinds=", ".join(EFFECT_FIELDS),
            ),
        )
    for f in EFFECT_FIELDS[kind]:
        if f not in effect:
            raise _err(where, f"effect.{f}", _missing())
    for f in ("amount", "steps", "per_house", "per_hotel", "rent_multiplier", "utility_multiplier"):
        if f in effect:
            _int(
                effect, f, where, minimum=1 if f in ("steps", "rent_multiplier", "utility_multiplier") else 0
            )
    if kind == "move_to":
        sq = effect["square"]
        if not isinstance(sq, int) or isinstance(sq, bool) or not 0 <= sq < board_size:
            raise _err(
                where,
                "effect.square",
                msg(gettext_noop("must be a square index 0–{last}"), last=board_size - 1),
            )
    if kind == "nearest" and effect["square_kind"] not in ("railroad", "utility"):
        raise _err(where, "effect.square_kind", msg(gettext_noop("must be 'railroad' or 'utility'")))
    if "salary" in effect and not isinstance(effect["salary"], bool):
        raise _err(where, "effect.salary", msg(gettext_noop("must be true or false")))
    return effect


def _square(i: int, s, data: dict) -> Square:
    """One square of the board's data, or BoardError naming the square and the field."""
    where = _square_where(i, s)
    if not isinstance(s, dict):
        raise _err(where, "(square)", msg(gettext_noop("must be an object")))
    if s.get("index", i) != i:
        raise _err(
            where,
            "index",
            msg(gettext_noop("is {value}, expected {index}"), value=_shown(s.get("index")), index=i),
        )
    name = s.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _err(where, "name", _missing())
    kind = s.get("kind")
    if not isinstance(kind, str) or kind not in SQUARE_KINDS:
        raise _err(
            where,
            "kind",
            msg(
                gettext_noop("unknown kind {kind}; one of {kinds}"),
                kind=_shown(kind),
                kinds=", ".join(sorted(SQUARE_KINDS)),
            ),
        )
    kw: dict = {"index": i, "name": name, "kind": kind}
    if kind in PROPERTY_KINDS:
        kw["price"] = _int(s, "price", where, minimum=1)
        kw["mortgage"] = _int(s, "mortgage", where, minimum=1)
        if kw["mortgage"] > kw["price"]:
            raise _err(where, "mortgage", msg(gettext_noop("is more than the price")))
        if s.get("unmortgage") is not None:
            kw["unmortgage"] = _int(s, "unmortgage", where, minimum=kw["mortgage"])
        group = s.get("group")
        if not isinstance(group, str) or not group:
            raise _err(where, "group", _missing())
        kw["group"] = group
    if kind == "street":
        kw["house_cost"] = _int(s, "house_cost", where, minimum=1)
        kw["rents"] = _int_list(s, "rents", where, 6)
        if s.get("monopolist_rents") is not None:
            kw["monopolist_rents"] = _int_list(s, "monopolist_rents", where, 6)
    elif kind == "railroad":
        kw["rents"] = _int_list(s, "rents", where, None)
        if not kw["rents"]:
            raise _err(where, "rents", msg(gettext_noop("must not be empty")))
        if s.get("monopolist_rents") is not None:
            kw["monopolist_rents"] = _int_list(s, "monopolist_rents", where, len(kw["rents"]))
    elif kind == "utility":
        kw["multipliers"] = _int_list(s, "multipliers", where, None)
        if not kw["multipliers"]:
            raise _err(where, "multipliers", msg(gettext_noop("must not be empty")))
        if s.get("monopolist_multipliers") is not None:
            kw["monopolist_multipliers"] = _int_list(
                s, "monopolist_multipliers", where, len(kw["multipliers"])
            )
    elif kind == "tax":
        kw["amount"] = _int(s, "amount", where, minimum=1)
        kw["percent_choice"] = s.get("percent_choice") is True
    elif kind == "card":
        decks = data.get("decks")
        decks = decks if isinstance(decks, dict) else {}
        deck = s.get("deck")
        if not isinstance(deck, str) or deck not in decks:
            raise _err(where, "deck", msg(gettext_noop("unknown deck {deck}"), deck=_shown(deck)))
        kw["deck"] = deck
        role_decks = s.get("role_decks")
        if role_decks is not None:
            if not isinstance(role_decks, dict) or set(role_decks) != set(ROLES):
                raise _err(
                    where,
                    "role_decks",
                    msg(gettext_noop("must name a deck for each role ({roles})"), roles=", ".join(ROLES)),
                )
            for role, d in role_decks.items():
                if not isinstance(d, str) or d not in decks:
                    raise _err(
                        where, f"role_decks.{role}", msg(gettext_noop("unknown deck {deck}"), deck=_shown(d))
                    )
            kw["role_decks"] = tuple(sorted(role_decks.items()))
    elif kind == "foundation":
        kw["monopolist_pays"] = _int(s, "monopolist_pays", where, minimum=0)
        kw["die_grants"] = _int_list(s, "die_grants", where, 6)
    return Square(**kw)


def _check_squares(board_id: str, squares: list[Square]) -> None:
    """What the squares must be together: one Start (square 0) and one jail; groups of one kind, with a
    rent (multiplier) for each number owned."""
    kinds = [s.kind for s in squares]
    for needed in ("start", "jail"):
        if kinds.count(needed) != 1:
            raise _err(
                board_id, "squares", msg(gettext_noop("needs exactly one '{kind}' square"), kind=needed)
            )
    if squares[0].kind != "start":
        raise _err(_square_where(0, {"name": squares[0].name}), "kind", msg(gettext_noop("must be 'start'")))
    for g, members in _groups(squares).items():
        gkinds = {squares[m].kind for m in members}
        if len(gkinds) != 1:
            raise _err(
                msg(gettext_noop("group {group}"), group=_echo(g)),
                "kind",
                msg(gettext_noop("mixes street, railroad and utility squares")),
            )
        for m in members:
            where = _square_where(m, {"name": squares[m].name})
            if "railroad" in gkinds and len(squares[m].rents) < len(members):
                raise _err(
                    where,
                    "rents",
                    msg(gettext_noop("needs a rent for each of the {count} railroads"), count=len(members)),
                )
            if "utility" in gkinds and len(squares[m].multipliers) < len(members):
                raise _err(
                    where,
                    "multipliers",
                    msg(gettext_noop("needs one for each of the {count} utilities"), count=len(members)),
                )


def _groups(squares) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {}
    for s in squares:
        if s.group:
            groups.setdefault(s.group, []).append(s.index)
    return groups


def _deck(deck_id, d, problems: list[BoardError]) -> Deck | None:
    """One deck and its cards; each bad card is a problem of its own."""
    where = msg(gettext_noop("deck {deck}"), deck=_echo(str(deck_id)))
    if not isinstance(d, dict) or not isinstance(d.get("name"), str):
        problems.append(_err(where, "name", _missing()))
        return None
    if d.get("cards") is None:
        return Deck(deck_id, d["name"], None)
    if not isinstance(d["cards"], list):
        problems.append(_err(where, "cards", msg(gettext_noop("must be a list or null"))))
        return None
    cards, seen, bad = [], set(), False
    for k, c in enumerate(d["cards"]):
        try:
            if not isinstance(c, dict) or not isinstance(c.get("id"), str) or not c["id"]:
                where_card = msg(gettext_noop("deck {deck}, card {card}"), deck=_echo(str(deck_id)), card=k)
                raise _err(where_card, "id", _missing())
            where_card = msg(
                gettext_noop("deck {deck}, card {card}"), deck=_echo(str(deck_id)), card=_echo(c["id"])
            )
            if c["id"] in seen:
                raise _err(where_card, "id", msg(gettext_noop("is not unique")))
            seen.add(c["id"])
            if not isinstance(c.get("text"), str):
                raise _err(where_card, "text", _missing())
            effect = validate_effect(c.get("effect"), where_card)
            copies = _int(c, "copies", where_card, required=False, minimum=1) or 1
        except BoardError as e:
            problems.append(e)
            bad = True
            continue
        cards.append(Card(deck_id, c["id"], c["text"], effect, copies))
    return None if bad else Deck(deck_id, d["name"], tuple(cards))


def parse_board(data: dict) -> Board:
    """Build a Board from its JSON data, validating every square and card.

    Raises BoardError for the first problem; its ``problems`` lists every problem found (each square and
    each card is checked, a bad one does not hide the next), so a whole file can be corrected at once.
    """
    if not isinstance(data, dict):
        raise _err(msg(gettext_noop("the board")), "(root)", msg(gettext_noop("must be an object")))
    board_id = data.get("id")
    if not isinstance(board_id, str) or not board_id:
        raise _err(msg(gettext_noop("the board")), "id", _missing())
    problems: list[BoardError] = []
    raw = data.get("squares")
    squares: list[Square] = []
    if not isinstance(raw, list) or len(raw) != BOARD_SIZE:
        problems.append(
            _err(board_id, "squares", msg(gettext_noop("must list {count} squares"), count=BOARD_SIZE))
        )
    else:
        for i, s in enumerate(raw):
            try:
                squares.append(_square(i, s, data))
            except BoardError as e:
                problems.append(e)
        if not problems:
            try:
                _check_squares(board_id, squares)
            except BoardError as e:
                problems.append(e)
    raw_decks = data.get("decks")
    if raw_decks is not None and not isinstance(raw_decks, dict):
        problems.append(_err(board_id, "decks", msg(gettext_noop("must be an object"))))
        raw_decks = None
    decks = {}
    for deck_id, d in (raw_decks or {}).items():
        deck = _deck(deck_id, d, problems)
        if deck is not None:
            decks[deck_id] = deck
    for key in ("name", "language"):
        if data.get(key) is not None and not isinstance(data[key], str):
            problems.append(_err(board_id, key, msg(gettext_noop("must be text"))))
    if problems:
        first = problems[0]
        first.problems = tuple(problems)
        raise first
    return Board(
        id=board_id,
        name=str(data.get("name") or board_id),
        language=str(data.get("language") or "en"),
        squares=tuple(squares),
        decks=decks,
        groups={g: tuple(m) for g, m in _groups(squares).items()},
        jail=[s.kind for s in squares].index("jail"),
    )


def load_board_file(path: str | Path) -> Board:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _err(
            path.name, "(file)", msg(gettext_noop("cannot be read as JSON: {error}"), error=str(e))
        ) from None
    return parse_board(data)


def wrong_id(board_id: str, found_id: str) -> BoardError:
    """The data given for ``board_id`` describes another board (its own id is ``found_id``)."""
    return _err(
        board_id,
        "id",
        msg(gettext_noop("is {value}, expected {index}"), value=_shown(found_id), index=board_id),
    )
