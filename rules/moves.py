"""Events that move tokens or pass turns: roll, card, jail exits, timeout, time_up."""

from __future__ import annotations

from rules.board import BOARD_SIZE, Card, validate_effect
from rules.errors import BoardError, RecordError, RuleError, gettext_noop
from rules.messages import msg
from rules.movements import BANK
from rules.state import BuyDecision, CardDraw, PlayerState, RentDue
from rules.transaction import Tx
from rules.turns import begin_turn, blocking_error, next_roller
from rules.valuation import buildings_count, rent_for


# -- roll ---------------------------------------------------------------------------------------------
def roll(tx: Tx, ev: dict) -> None:
    s = tx.s
    seat = next_roller(s)
    err = blocking_error(s)
    if err:
        raise err
    p = s.player(ev["player"])
    if seat is None or s.players[seat].id != p.id:
        expected = s.players[seat]
        again = seat == s.turn and s.roll_again
        raise RuleError(
            "roll.not_your_turn",
            gettext_noop("{expected} must roll again (doubles), not {player}.")
            if again
            else gettext_noop("It is {expected}'s turn to roll, not {player}'s."),
            expected=expected.name,
            player=p.name,
        )
    new_turn = not (seat == s.turn and s.roll_again)
    if new_turn or s.variant.rent_lapses_at == "next_roll":
        for r in s.rents:
            tx.note(
                gettext_noop("Rent {amount} for {square} lapses: not claimed."),
                amount=r.amount,
                square=tx.square_name(r.square),
            )
        s.rents = ()
    if new_turn:
        begin_turn(s, seat)
    s.roll_again = False
    s.fee_paid = ()
    if s.bank_sale:
        tx.note(
            gettext_noop("Not auctioned: {squares} stay with the bank."),
            squares=", ".join(s.board.square(m).name for m in s.bank_sale),
        )
        s.bank_sale = ()
    d1, d2 = ev["dice"]
    s.rolls += 1
    s.last_dice = (d1, d2)
    tx.note(gettext_noop("{player} rolls {d1}+{d2}."), player=p.name, d1=d1, d2=d2)
    if p.in_jail:
        _jail_roll(tx, p, d1, d2)
    else:
        _free_roll(tx, p, d1, d2)


def _free_roll(tx: Tx, p: PlayerState, d1: int, d2: int) -> None:
    s, v = tx.s, tx.s.variant
    double = d1 == d2
    if double:
        s.doubles += 1
        if v.doubles_to_jail and s.doubles >= v.doubles_to_jail:
            tx.note(gettext_noop("{n} doubles in a row: {player} goes to jail."), n=s.doubles, player=p.name)
            send_to_jail(tx, p)
            return
    advance(tx, p, d1 + d2)
    _maybe_roll_again(tx, p, double)


def _maybe_roll_again(tx: Tx, p: PlayerState, double: bool) -> None:
    s, v = tx.s, tx.s.variant
    if (
        double
        and not p.in_jail
        and not p.bankrupt
        and (v.max_rolls_per_turn is None or s.rolls < v.max_rolls_per_turn)
    ):
        s.roll_again = True


def _jail_roll(tx: Tx, p: PlayerState, d1: int, d2: int) -> None:
    s, v = tx.s, tx.s.variant
    n = p.jail_turns
    double = d1 == d2
    if n > v.jail_tries and v.jail_release in ("free_after_tries", "fine_after_tries"):
        if v.jail_release == "fine_after_tries":
            tx.transfer("jail_fine", p.id, BANK, v.jail_fine)
            tx.note(
                gettext_noop("{player} pays the fine {fine} and leaves jail."),
                player=p.name,
                fine=v.jail_fine,
            )
        else:
            tx.note(gettext_noop("{player} has waited his turns and leaves jail free."), player=p.name)
        release(p)
        _free_roll(tx, p, d1, d2)
        return
    if double:
        tx.note(gettext_noop("{player} throws a double and leaves jail."), player=p.name)
        release(p)
        if v.jail_doubles_roll_again:
            s.doubles = 1
        advance(tx, p, d1 + d2)
        _maybe_roll_again(tx, p, v.jail_doubles_roll_again)
        return
    if v.jail_release == "fine_on_last_try" and n >= v.jail_tries:
        tx.transfer("jail_fine", p.id, BANK, v.jail_fine)
        tx.note(
            gettext_noop("Third try failed: {player} pays the fine {fine} and moves."),
            player=p.name,
            fine=v.jail_fine,
        )
        release(p)
        advance(tx, p, d1 + d2)
        return
    tx.note(
        gettext_noop("{player} stays in jail (try {n} of {tries})."), player=p.name, n=n, tries=v.jail_tries
    )


def release(p: PlayerState) -> None:
    p.in_jail = False
    p.jail_turns = 0


def send_to_jail(tx: Tx, p: PlayerState) -> None:
    s = tx.s
    p.position = s.board.jail
    p.in_jail = True
    p.jail_turns = 0
    if s.turn is not None and s.players[s.turn].id == p.id:
        s.roll_again = False
        s.doubles = 0
    tx.note(gettext_noop("{player} goes to jail."), player=p.name)


# -- movement and landing -----------------------------------------------------------------------------
def pay_salary(tx: Tx, p: PlayerState) -> None:
    tx.transfer("salary", BANK, p.id, tx.s.variant.salary, 0)
    tx.note(
        gettext_noop("{player} passes Start: salary {amount}."), player=p.name, amount=tx.s.variant.salary
    )


def advance(tx: Tx, p: PlayerState, steps: int, **landing) -> None:
    target = p.position + steps
    if target >= BOARD_SIZE:
        pay_salary(tx, p)
    p.position = target % BOARD_SIZE
    land(tx, p, **landing)


def move_to(tx: Tx, p: PlayerState, target: int, salary: bool = True, **landing) -> None:
    if target < p.position and salary:
        pay_salary(tx, p)
    p.position = target
    land(tx, p, **landing)


def land(
    tx: Tx,
    p: PlayerState,
    dice_total: int | None = None,
    rent_multiplier: int = 1,
    utility_multiplier: int | None = None,
    by_card: bool = False,
) -> None:
    s = tx.s
    sq = s.board.square(p.position)
    tx.note(gettext_noop("{player} lands on {square}."), player=p.name, square=sq.name)
    if sq.kind == "go_to_jail":
        send_to_jail(tx, p)
    elif sq.kind == "tax":
        tx.transfer("tax", p.id, BANK, sq.amount, sq.index)
        tx.note(gettext_noop("{player} pays tax {amount}."), player=p.name, amount=sq.amount)
    elif sq.kind == "card":
        s.decision = CardDraw(p.id, sq.deck)
    elif sq.is_property:
        h = s.holdings.get(sq.index)
        if h is None:
            s.decision = BuyDecision(p.id, sq.index)
        elif h.owner == p.id:
            pass
        elif h.mortgaged:
            tx.note(gettext_noop("{square} is mortgaged: no rent."), square=sq.name)
        else:
            if sq.kind == "utility":
                if dice_total is None and not by_card:
                    dice_total = sum(s.last_dice)
                if dice_total is None:
                    raise RuleError(
                        "card.dice_needed",
                        gettext_noop("{square} is owned: record the dice {player} throws for the rent."),
                        square=sq.name,
                        player=p.name,
                    )
            amount = rent_for(s, sq.index, dice_total, rent_multiplier, utility_multiplier)
            owner = s.player(h.owner)
            s.rents = (*s.rents, RentDue(p.id, owner.id, sq.index, amount))
            tx.note(
                gettext_noop("{owner} may claim rent {amount} from {player}."),
                owner=owner.name,
                amount=amount,
                player=p.name,
            )


# -- cards --------------------------------------------------------------------------------------------
def card(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.player(ev["player"])
    d = s.decision
    if not isinstance(d, CardDraw) or d.player != p.id:
        raise RuleError("card.not_pending", gettext_noop("{player} has no card to draw now."), player=p.name)
    deck = s.board.decks[d.deck]
    ref = ev.get("card")
    if ref is not None:
        deck_id, _, card_id = ref.partition(":")
        if deck_id != deck.id:
            raise RuleError(
                "card.wrong_deck",
                gettext_noop("{player} draws from {deck}, not from {other}."),
                player=p.name,
                deck=deck.name,
                other=deck_id,
            )
        if deck.cards is None:
            raise RuleError(
                "card.unlisted_deck",
                gettext_noop(
                    "The cards of {deck} are not listed for this board: record the card by its effect."
                ),
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
        effect, detail = c.effect, c.ref
    else:
        try:
            effect = validate_effect(ev.get("effect"), "card effect")
        except BoardError as e:
            raise RecordError(e.code, e.template, **e.params) from None
        detail = f"{deck.id}:effect"
        c = Card(deck.id, "", "", effect)
    s.decision = None
    tx.note(gettext_noop("{player} draws a card: {text}"), player=p.name, text=c.text or _describe(effect))
    _card_effect(tx, p, effect, detail, ev.get("dice"))


def _describe(effect: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in effect.items())


def _card_effect(tx: Tx, p: PlayerState, e: dict, detail: str, dice) -> None:
    s = tx.s
    kind = e["kind"]
    dice_total = sum(dice) if dice else None
    if kind == "collect":
        tx.transfer("card", BANK, p.id, e["amount"], detail=detail)
    elif kind == "pay":
        tx.transfer("card", p.id, BANK, e["amount"], detail=detail)
    elif kind == "move_to":
        move_to(tx, p, e["square"], e.get("salary", True), dice_total=dice_total, by_card=True)
    elif kind == "move_back":
        p.position = (p.position - e["steps"]) % BOARD_SIZE
        land(tx, p, dice_total=dice_total, by_card=True)
    elif kind == "nearest":
        target = s.board.nearest(p.position, e["square_kind"])
        move_to(
            tx,
            p,
            target,
            True,
            dice_total=dice_total,
            rent_multiplier=e.get("rent_multiplier", 1),
            utility_multiplier=e.get("utility_multiplier"),
            by_card=True,
        )
    elif kind == "go_to_jail":
        send_to_jail(tx, p)
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
            if q.id != p.id and not q.bankrupt:
                tx.transfer("card", p.id, q.id, e["amount"], detail=detail)
    elif kind == "collect_from_each_player":
        for q in s.players:
            if q.id != p.id and not q.bankrupt:
                tx.transfer("card", q.id, p.id, e["amount"], detail=detail)


# -- jail exits, timeout, time_up -----------------------------------------------------------------------
def _in_jail(s, ev) -> PlayerState:
    p = s.player(ev["player"])
    if not p.in_jail:
        raise RuleError("jail.not_in_jail", gettext_noop("{player} is not in jail."), player=p.name)
    return p


def jail_fine(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = _in_jail(s, ev)
    tx.require_cash(p.id, s.variant.jail_fine, msg(gettext_noop("the jail fine")))
    tx.transfer("jail_fine", p.id, BANK, s.variant.jail_fine)
    release(p)
    tx.note(
        gettext_noop("{player} pays the fine {fine} and leaves jail."),
        player=p.name,
        fine=s.variant.jail_fine,
    )


def jail_card(tx: Tx, ev: dict) -> None:
    p = _in_jail(tx.s, ev)
    if not p.jail_cards:
        raise RuleError(
            "jail.no_card", gettext_noop("{player} has no 'Get out of jail free' card."), player=p.name
        )
    p.jail_cards.pop(0)
    release(p)
    tx.note(gettext_noop("{player} uses a 'Get out of jail free' card."), player=p.name)


def timeout(tx: Tx, ev: dict) -> None:
    s, v = tx.s, tx.s.variant
    p = s.player(ev["player"])
    if not v.move_time_limit:
        raise RuleError("timeout.no_limit", gettext_noop("This game has no time limit per move."))
    current = s.current
    if current is not None and current.id == p.id:
        if isinstance(s.decision, BuyDecision) and s.decision.player == p.id:
            tx.note(
                gettext_noop("Time is up: {square} stays with the bank, no auction."),
                square=tx.square_name(s.decision.square),
            )
            s.decision = None
        if isinstance(s.decision, CardDraw):  # a card drawn must be carried out; auctions and debts wait
            raise blocking_error(s)
        s.roll_again = False
    else:
        seat = next_roller(s)
        if seat is None or s.players[seat].id != p.id:
            raise RuleError(
                "timeout.not_your_move",
                gettext_noop("It is not {player}'s move."),
                player=p.name,
            )
        err = blocking_error(s)
        if err:
            raise err
        s.rents = ()
        begin_turn(s, seat)
    tx.note(
        gettext_noop("{player}'s time ({seconds} s) is up: the turn passes."),
        player=p.name,
        seconds=v.move_time_limit,
    )


def time_up(tx: Tx, ev: dict) -> None:
    s, v = tx.s, tx.s.variant
    if not (v.timed_end or v.time_limit_minutes):
        raise RuleError("time_up.not_timed", gettext_noop("This game has no time limit."))
    if s.time_up:
        raise RuleError("time_up.twice", gettext_noop("The time limit has already been reached."))
    s.time_up = True
    if v.finish_round_on_time:
        tx.note(gettext_noop("Time is up: the round in play is finished, then the game ends."))
    else:
        tx.note(gettext_noop("Time is up: the game ends."))
