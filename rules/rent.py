"""The rent rule, whole: how much (RULES.md §1 rent rows; Anti-Monopoly by the owner's role), when it falls
due (landing on another player's unmortgaged property; not to a monopolist in Prison), when it lapses (not
claimed before the next player's roll — or any next roll, with the option ``rent_lapses_at: "next_roll"``) and
claiming it (the ``rent`` event; with ``dice`` where a utility's rent is a fresh throw)."""

from __future__ import annotations

from rules.errors import RuleError, gettext_noop
from rules.messages import msg
from rules.ownership import amount_refusal, group_mortgaged, group_owned_by, monopolised, owned_in_set
from rules.roles import MONOPOLIST
from rules.state import GameState, PlayerState, RentDue
from rules.transaction import Tx


def rent_for(
    s: GameState,
    square: int,
    dice_total: int | None = None,
    rent_multiplier: int = 1,
    utility_multiplier: int | None = None,
) -> int:
    """The rent the owner of ``square`` may claim from a player landing there (0 when mortgaged)."""
    sq = s.board.squares[square]
    h = s.holdings[square]
    if h.mortgaged:
        return 0
    v = s.variant
    role = s.by_id[h.owner].role if v.roles else None
    if sq.kind == "street":
        if role == MONOPOLIST:  # single, city monopolised, 1–3 houses, apartment
            ladder = sq.rent_ladder(role)
            if h.level == 0:
                base = ladder[1] if monopolised(s, h.owner, square) else ladder[0]
            elif h.level >= v.hotel_level_for(role):
                base = ladder[5]
            else:
                base = ladder[1 + h.level]
        elif h.level == 0:
            base = sq.rents[0]
            if (
                v.double_rent_full_group
                and group_owned_by(s, square, h.owner)
                and not group_mortgaged(s, square)
            ):
                base *= 2
        elif h.level >= v.hotel_level_for(role):
            base = sq.rents[5]
        else:
            base = sq.rents[h.level]
    elif sq.kind == "railroad":
        base = sq.rent_ladder(role)[max(1, owned_in_set(s, square, h.owner)) - 1]
    else:  # utility
        if dice_total is None:
            raise ValueError("utility rent needs the dice")
        base = utility_multiplier_for(s, square, utility_multiplier) * dice_total
    return base * rent_multiplier


def utility_multiplier_for(s: GameState, square: int, card_multiplier: int | None = None) -> int:
    """How many times the dice a utility's rent is: the card's multiplier, else by the number owned."""
    if card_multiplier:
        return card_multiplier
    h = s.holdings[square]
    role = s.by_id[h.owner].role if s.variant.roles else None
    return s.board.squares[square].multipliers_for(role)[max(1, owned_in_set(s, square, h.owner)) - 1]


def collects_rent(s: GameState, owner: str) -> bool:
    """Anti-Monopoly rule 15: a monopolist in Prison collects no rent."""
    if s.variant.monopolists_in_prison_collect_rent or not s.variant.roles:
        return True
    o = s.by_id[owner]
    return not (o.role == MONOPOLIST and o.in_jail)


def counted_at_the_end(s: GameState, owner: str) -> bool:
    """The end's count — the two-hour game's step C, Game B's rule 25 — pays ``owner`` the rents of his
    properties by the usual rules: not to a monopolist in Prison (rule 15: "monopolists do not collect rents
    … normally due them"), unless the option ``prison_rule_in_final_count`` is off."""
    return not s.variant.prison_rule_in_final_count or collects_rent(s, owner)


def needs_dice(s: GameState, player_id: str, square: int) -> bool:
    """Landing on ``square`` (by a card) costs a rent valued by the roll that moved the token, which the
    card event must then carry: another player's utility — unless the rent is a fresh throw, recorded with
    the rent itself (Anti-Monopoly rule 20)."""
    if s.variant.utility_rent_fresh_throw:
        return False
    h = s.holdings.get(square)
    return (
        h is not None
        and h.owner != player_id
        and not h.mortgaged
        and s.board.squares[square].kind == "utility"
    )


def fall_due(
    tx: Tx,
    p: PlayerState,
    square: int,
    dice_total: int,
    rent_multiplier: int = 1,
    utility_multiplier: int | None = None,
) -> None:
    """``p`` has landed on another player's property: the owner may now claim its rent."""
    s = tx.s
    h = s.holdings[square]
    if h.mortgaged:
        if tx.narrate:
            tx.note(gettext_noop("{square} is mortgaged: no rent."), square=tx.square_name(square))
        return
    if s.variant.roles and not collects_rent(s, h.owner):
        tx.note(gettext_noop("{owner} is in Prison: no rent."), owner=s.by_id[h.owner].name)
        return
    if s.variant.utility_rent_fresh_throw and s.board.squares[square].kind == "utility":
        times = utility_multiplier_for(s, square, utility_multiplier) * rent_multiplier
        s.rents = (*s.rents, RentDue(p.id, h.owner, square, 0, times))
        tx.note(
            gettext_noop("{owner} may claim rent from {player}: {times} times the dice {player} throws."),
            owner=s.by_id[h.owner].name,
            player=p.name,
            times=times,
        )
        return
    amount = rent_for(s, square, dice_total, rent_multiplier, utility_multiplier)
    # RentDue(p.id, h.owner, square, amount), slot by slot: without its __init__'s frame, at every rent
    # falling due (a field missing here would be an unset slot, an error at its first use)
    due = _new_rent(RentDue)
    due.payer = p.id
    due.owner = h.owner
    due.square = square
    due.amount = amount
    due.times = 0
    s.rents = (*s.rents, due)
    if tx.narrate:
        tx.note(
            gettext_noop("{owner} may claim rent {amount} from {player}."),
            owner=s.by_id[h.owner].name,
            amount=amount,
            player=p.name,
        )


def lapsing(s: GameState, new_turn: bool) -> tuple[RentDue, ...]:
    """The pending rents a roll about to be made ends (``new_turn``: not the same player's roll again after
    a double): all of them at a new turn, or at any roll with ``rent_lapses_at: "next_roll"``; else none."""
    return s.rents if new_turn or s.variant.rent_lapses_at == "next_roll" else ()


def lapse(tx: Tx, new_turn: bool) -> None:
    """A roll is about to be made (``new_turn``: the next player's, or a turn that ends otherwise — a
    timeout, the two-hour game's final steps): rents not claimed before it lapse (RULES.md §1 'rent must be
    claimed')."""
    s = tx.s
    if not lapsing(s, new_turn):
        return
    for r in s.rents if tx.narrate else ():
        tx.note(
            gettext_noop("Rent {amount} for {square} lapses: not claimed."),
            amount=r.amount,
            square=tx.square_name(r.square),
        )
    s.rents = ()


def rent(tx: Tx, ev: dict) -> None:
    """The owner claims a pending rent (the latest one of the payer, or the one on ``square``)."""
    s = tx.s
    p = s.by_id[ev["player"]]
    square = ev.get("square")
    rents = s.rents
    r = rents[-1] if rents else None  # the latest pending rent, most often the one claimed: looked at inline
    if r is not None and (r.payer != p.id or (square is not None and square != r.square)):
        r = _latest_due(rents, p.id, square)
    if r is None:
        raise RuleError(
            "rent.none",
            gettext_noop(
                "{player} owes no rent now: rent is claimed before the next player rolls, or it lapses."
            ),
            player=p.name,
        )
    amount = r.amount
    if r.times:  # a utility's rent, valued by a fresh throw of the dice
        dice = ev.get("dice")
        if dice is None:
            raise RuleError(
                "rent.dice_needed",
                gettext_noop(
                    "The rent for {square} is {times} times a throw: record the dice {player} throws."
                ),
                square=tx.square_name(r.square),
                times=r.times,
                player=p.name,
            )
        amount = r.times * (dice[0] + dice[1])
    if "amount" in ev:  # the amount the referee saw, when he typed it
        bad = amount_refusal(ev, amount, msg(gettext_noop("rent")))
        if bad is not None:
            raise bad.error()
    s.rents = () if len(rents) == 1 else tuple([x for x in rents if x is not r])
    tx.transfer("rent", p.id, r.owner, amount, r.square)
    if tx.narrate:
        tx.note(
            gettext_noop("{player} pays rent {amount} to {owner}."),
            player=p.name,
            amount=amount,
            owner=tx.name(r.owner),
        )


def _latest_due(rents: tuple[RentDue, ...], payer: str, square: int | None) -> RentDue | None:
    """The latest pending rent of ``payer`` (on ``square``, if given), or None."""
    for r in reversed(rents):
        if r.payer == payer and (square is None or square == r.square):
            return r
    return None


_new_rent = RentDue.__new__
