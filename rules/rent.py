"""The rent rule, whole: how much (RULES.md §1 rent rows), when it falls due (landing on another player's
unmortgaged property), when it lapses (not claimed before the next player's roll — or any next roll, with
the option ``rent_lapses_at: "next_roll"``) and claiming it (the ``rent`` event)."""

from __future__ import annotations

from rules.errors import RuleError, gettext_noop
from rules.messages import msg
from rules.ownership import amount_refusal, group_mortgaged, group_owned_by, owned_in_set
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


def needs_dice(s: GameState, player_id: str, square: int) -> bool:
    """Landing on ``square`` costs a rent valued by a throw of the dice (another player's utility)."""
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
        tx.note(gettext_noop("{square} is mortgaged: no rent."), square=tx.square_name(square))
        return
    amount = rent_for(s, square, dice_total, rent_multiplier, utility_multiplier)
    s.rents = (*s.rents, RentDue(p.id, h.owner, square, amount))
    if tx.narrate:
        tx.note(
            gettext_noop("{owner} may claim rent {amount} from {player}."),
            owner=s.by_id[h.owner].name,
            amount=amount,
            player=p.name,
        )


def lapse(tx: Tx, new_turn: bool) -> None:
    """A roll is about to be made: rents not claimed before it lapse (RULES.md §1 'rent must be claimed')."""
    s = tx.s
    if not s.rents or not (new_turn or s.variant.rent_lapses_at == "next_roll"):
        return
    for r in s.rents:
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
    due = [r for r in s.rents if r.payer == p.id and square in (None, r.square)]
    if not due:
        raise RuleError(
            "rent.none",
            gettext_noop(
                "{player} owes no rent now: rent is claimed before the next player rolls, or it lapses."
            ),
            player=p.name,
        )
    r = due[-1]
    bad = amount_refusal(ev, r.amount, msg(gettext_noop("rent")))
    if bad is not None:
        raise bad.error()
    s.rents = tuple(x for x in s.rents if x is not r)
    tx.transfer("rent", p.id, r.owner, r.amount, r.square)
    if tx.narrate:
        tx.note(
            gettext_noop("{player} pays rent {amount} to {owner}."),
            player=p.name,
            amount=r.amount,
            owner=tx.name(r.owner),
        )
