"""Chance / Community Chest cards (Szansa / Kasa Społeczna): drawing the pending card, by its reference in
the board data or by its effect (GAME_RECORD.md "Card effects"), and carrying the effect out."""

from __future__ import annotations

from rules import tokens
from rules.board import BOARD_SIZE, EFFECT_FIELDS, Board, Card, get_board, validate_effect
from rules.errors import BoardError, RecordError, RuleError, gettext_noop
from rules.movements import BANK
from rules.rent import needs_dice
from rules.state import CardDraw, GameState, PlayerState
from rules.transaction import Tx
from rules.valuation import buildings_count

#: What the classic "advance to the nearest railroad / utility" cards print: twice the rent, ten times the
#: dice. The console offers these; a card that says otherwise is recorded with its own multipliers.
NEAREST_MULTIPLIERS: dict[str, dict[str, int]] = {
    "railroad": {"rent_multiplier": 2},
    "utility": {"utility_multiplier": 10},
}


#: The fields a card's effect written out may carry besides its kind's own (EFFECT_FIELDS); no other.
OPTIONAL_EFFECT_FIELDS: dict[str, tuple[str, ...]] = {
    "move_to": ("salary",),
    "nearest": ("rent_multiplier", "utility_multiplier"),
}
#: How far a card's effect written out may go (GAME_RECORD.md "Card effects": bounded as real cards are): the
#: multipliers a card prints; amounts up to the variant's ``card_amount_max``, repairs up to the board's
#: building prices, steps within the board.
RENT_MULTIPLIERS = (1, 2)
UTILITY_MULTIPLIERS = (10,)


#: Effect kinds written on Anti-Monopoly's role decks only (a game with roles).
ROLE_EFFECTS = ("go_to_price_war", "go_to_prison")


def effect_kinds(roles: bool) -> list[str]:
    """The effect vocabulary a card of this game may use, in GAME_RECORD.md's order."""
    return [k for k in EFFECT_FIELDS if roles or k not in ROLE_EFFECTS]


#: The board whose cards' effects are offered, one tap each, for a deck whose texts a board does not list (the
#: Polish decks' texts are not published; that edition's amounts equal the US ones).
CLASSIC_CARDS_BOARD = "classic-us"


def classic_effects() -> list[dict]:
    """Each effect the classic cards print, once: by kind in GAME_RECORD.md's order, then by its values."""
    decks = get_board(CLASSIC_CARDS_BOARD).decks.values()
    return _in_order(c.effect for deck in decks for c in deck.cards or ())


def deck_effects(board: Board, deck_id: str) -> list[dict] | None:
    """Each effect a deck of this kind prints, once, in ``classic_effects``' order: the classic deck of the
    same id's (Chance for Szansa, Community Chest for Kasa Społeczna), placed on ``board`` by square index.
    None for a deck the classic board has not (Anti-Monopoly's role decks), and for a board whose squares are
    not the classic board's kinds in the classic places (an edition of another layout: square 24 there is
    not the classic card's)."""
    classic = get_board(CLASSIC_CARDS_BOARD)
    deck = classic.decks.get(deck_id)
    if deck is None or [sq.kind for sq in board.squares] != [sq.kind for sq in classic.squares]:
        return None
    return _in_order(c.effect for c in deck.cards or ())


def _in_order(effects) -> list[dict]:
    unique: list[dict] = []
    for e in effects:
        if e not in unique:
            unique.append(e)
    kinds = list(EFFECT_FIELDS)
    return sorted(unique, key=lambda e: (kinds.index(e["kind"]), [e[f] for f in EFFECT_FIELDS[e["kind"]]]))


def needs_dice_for(s: GameState, player_id: str, effect: dict) -> bool:
    """The card would send the token to another player's utility: the dice thrown for the rent go with it."""
    target = destination(s, s.by_id[player_id], effect)
    return target is not None and needs_dice(s, player_id, target)


def _pending_draw(s: GameState, p: PlayerState) -> CardDraw:
    d = s.decision
    if not isinstance(d, CardDraw) or d.player != p.id:
        raise RuleError("card.not_pending", gettext_noop("{player} has no card to draw now."), player=p.name)
    return d


def _listed_card(s: GameState, deck, ref: str) -> Card:
    deck_id, _, card_id = ref.partition(":")
    if deck_id != deck.id:
        raise RuleError(
            "card.wrong_deck",
            gettext_noop("{player} draws from {deck}, not from {other}."),
            player=s.by_id[s.decision.player].name,
            deck=deck.name,
            other=deck_id,
        )
    if deck.cards is None:
        raise RuleError(
            "card.unlisted_deck",
            gettext_noop("The cards of {deck} are not listed for this board: record the card by its effect."),
            deck=deck.name,
        )
    c = deck.card(card_id)
    if c is None:
        raise RuleError(
            "card.unknown", gettext_noop("{deck} has no card {card}."), deck=deck.name, card=card_id
        )
    if c.effect["kind"] == "jail_card" and c.ref in s.held_jail_cards():
        raise RuleError(
            "card.held",
            gettext_noop("The card {card} is held by a player: it cannot be drawn."),
            card=c.text,
        )
    return c


def check_bounds(s: GameState, effect: dict) -> None:
    """A card's effect written out is one a real card could print (GAME_RECORD.md "Card effects"): only its
    kind's fields, every amount 1–``card_amount_max``, a railroad's rent at most doubled, a utility's ten
    times the dice, repairs at most the board's building price, steps within the board. Else RecordError,
    naming the field."""
    kind = effect["kind"]
    allowed = {"kind", *EFFECT_FIELDS[kind], *OPTIONAL_EFFECT_FIELDS.get(kind, ())}
    for field in effect:
        if field not in allowed:
            raise RecordError(
                "card.effect_field",
                gettext_noop("A card's effect '{kind}' has no field '{field}'."),
                kind=kind,
                field=str(field),
            )
    building = max(sq.house_cost for sq in s.board.squares)
    bounds = {
        "amount": (1, s.variant.card_amount_max),
        "per_house": (1, building),
        "per_hotel": (1, building),
        "steps": (1, BOARD_SIZE - 1),
    }
    for field, (low, high) in bounds.items():
        value = effect.get(field)
        if value is not None and not low <= value <= high:
            raise RecordError(
                "card.effect_bound",
                gettext_noop("A card's '{field}' is {low}–{high}, not {value}."),
                field=field,
                low=low,
                high=high,
                value=value,
            )
    multipliers = {"rent_multiplier": RENT_MULTIPLIERS, "utility_multiplier": UTILITY_MULTIPLIERS}
    for field, allowed_values in multipliers.items():
        value = effect.get(field)
        if value is not None and value not in allowed_values:
            raise RecordError(
                "card.effect_multiplier",
                gettext_noop("A card's '{field}' is {values}, not {value}."),
                field=field,
                values=" / ".join(map(str, allowed_values)),
                value=value,
            )


def destination(s: GameState, p: PlayerState, effect: dict) -> int | None:
    """The square a card moves the token to (None: the card does not move it)."""
    kind = effect["kind"]
    if kind == "move_to":
        return effect["square"]
    if kind == "move_back":
        return (p.position - effect["steps"]) % BOARD_SIZE
    if kind == "nearest":
        return s.board.nearest(p.position, effect["square_kind"])
    return None


def card(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.by_id[ev["player"]]
    d = _pending_draw(s, p)
    deck = s.board.decks[d.deck]
    ref = ev.get("card")
    if ref is not None:
        c = _listed_card(s, deck, ref)
        effect, detail = c.effect, c.ref
    else:
        if deck.cards is not None:
            raise RuleError(
                "card.listed_deck",
                gettext_noop(
                    "The cards of {deck} are listed for this board: record the card drawn, not an effect."
                ),
                deck=deck.name,
            )
        try:
            effect = validate_effect(ev.get("effect"), "card effect")
        except BoardError as e:
            raise RecordError(e.code, e.template, **e.params) from None
        check_bounds(s, effect)
        if effect["kind"] == "jail_card" and deck.id in s.held_jail_cards():
            raise RuleError(
                "card.held",
                gettext_noop(
                    "The 'Get out of jail free' card of {deck} is held by a player: it cannot be drawn."
                ),
                deck=deck.name,
            )
        detail = f"{deck.id}:effect"
        c = Card(deck.id, "", "", effect)
    dice = ev.get("dice")
    target = destination(s, p, effect)
    if target is not None and dice is None and needs_dice(s, p.id, target):
        raise RuleError(
            "card.dice_needed",
            gettext_noop("{square} is owned: record the dice {player} throws for the rent."),
            square=s.board.squares[target].name,
            player=p.name,
        )
    s.decision = None
    if tx.narrate and c.text:
        tx.note(gettext_noop("{player} draws a card: {text}"), player=p.name, text=c.text)
    elif tx.narrate:
        narrate_effect(tx, p, effect, deck.name)
    carry_out(tx, p, effect, detail, sum(dice) if dice else None)


#: A card recorded by its effect, told in words: one sentence per kind, the deck's name in brackets.
EFFECT_NOTES = {
    "collect": gettext_noop("{player} collects {amount} from the bank ({deck})."),
    "pay": gettext_noop("{player} pays {amount} to the bank ({deck})."),
    "move_to": gettext_noop("{player} advances to {square} ({deck})."),
    "move_back": gettext_noop("{player} goes back {steps} squares ({deck})."),
    "go_to_jail": gettext_noop("{player} draws 'Go to jail' ({deck})."),
    "go_to_price_war": gettext_noop("{player} draws 'Go to Price War' ({deck})."),
    "go_to_prison": gettext_noop("{player} draws 'Go to Prison' ({deck})."),
    "jail_card": gettext_noop("{player} keeps a 'Get out of jail free' card ({deck})."),
    "repairs": gettext_noop("{player} pays {per_house} per house and {per_hotel} per hotel ({deck})."),
    "pay_each_player": gettext_noop("{player} pays {amount} to each player ({deck})."),
    "collect_from_each_player": gettext_noop("{player} collects {amount} from each player ({deck})."),
}
NEAREST_NOTES = {
    "railroad": gettext_noop("{player} advances to the nearest railroad ({deck})."),
    "utility": gettext_noop("{player} advances to the nearest utility ({deck})."),
}


def narrate_effect(tx: Tx, p: PlayerState, effect: dict, deck: str) -> None:
    """What a card recorded by its effect does, in words ("Anna pays 50 to the bank (Szansa)."); where it
    moves the token to, what it pays on the way and the repairs' sum follow in their own notes."""
    kind = effect["kind"]
    if kind == "nearest":
        tx.note(NEAREST_NOTES[effect["square_kind"]], player=p.name, deck=deck)
        owner = tx.s.owner_of(destination(tx.s, p, effect))
        if owner is not None and owner != p.id:  # what the card does to the rent
            if effect.get("rent_multiplier", 1) != 1:
                tx.note(gettext_noop("The card: {times} × the rent."), times=effect["rent_multiplier"])
            if effect.get("utility_multiplier"):
                tx.note(gettext_noop("The card: {times} × the dice."), times=effect["utility_multiplier"])
        return
    values = {k: v for k, v in effect.items() if k not in ("kind", "salary")}
    if kind == "move_to":
        values["square"] = tx.square_name(effect["square"])
        if not effect.get("salary", True):
            tx.note(
                gettext_noop("{player} advances to {square}, no salary on the way ({deck})."),
                player=p.name,
                deck=deck,
                **values,
            )
            return
    tx.note(EFFECT_NOTES[kind], player=p.name, deck=deck, **values)


def carry_out(tx: Tx, p: PlayerState, e: dict, detail: str, dice_total: int | None) -> None:
    s = tx.s
    kind = e["kind"]
    if kind == "collect":
        tx.transfer("card", BANK, p.id, e["amount"], detail=detail)
    elif kind == "pay":
        tx.transfer("card", p.id, BANK, e["amount"], detail=detail)
    elif kind == "move_to":
        tokens.move_to(tx, p, e["square"], e.get("salary", True), dice_total=dice_total)
    elif kind == "move_back":
        p.position = destination(s, p, e)
        tokens.land(tx, p, dice_total=dice_total)
    elif kind == "nearest":
        tokens.move_to(
            tx,
            p,
            destination(s, p, e),
            True,
            dice_total=dice_total,
            rent_multiplier=e.get("rent_multiplier", 1),
            utility_multiplier=e.get("utility_multiplier"),
        )
    elif kind in ("go_to_jail", "go_to_price_war", "go_to_prison"):
        tokens.send_to_jail(tx, p)
    elif kind == "jail_card":
        p.jail_cards.append(detail if not detail.endswith(":effect") else detail.partition(":")[0])
    elif kind == "repairs":
        houses, hotels = buildings_count(s, p.id)
        amount = houses * e["per_house"] + hotels * e["per_hotel"]
        tx.transfer("card", p.id, BANK, amount, detail=detail)
        tx.note(
            gettext_noop("Repairs: {houses} houses, {hotels} hotels: {amount}."),
            houses=houses,
            hotels=hotels,
            amount=amount,
        )
    elif kind == "pay_each_player":
        for q in s.players:
            if q is not p and not q.bankrupt:
                tx.transfer("card", p.id, q.id, e["amount"], detail=detail)
    elif kind == "collect_from_each_player":
        for q in s.players:
            if q is not p and not q.bankrupt:
                tx.transfer("card", q.id, p.id, e["amount"], detail=detail)
