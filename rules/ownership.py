"""Who owns what, and the checks shared by the events about owned squares: the amount a referee typed,
ownership, buildings on a square or its group, and the fee on receiving a mortgaged square.

Checks return a :class:`~rules.errors.Refusal` (or ``None`` when allowed); the handlers raise it.
"""

from __future__ import annotations

from rules.errors import Refusal, gettext_noop, refusal
from rules.messages import Message
from rules.roles import is_monopolist
from rules.state import GameState, PlayerState
from rules.transaction import Tx
from rules.variants import ceil_percent


def group_owned_by(s: GameState, square: int, owner: str) -> bool:
    holdings = s.holdings
    for m in s.board.members[square]:
        h = holdings.get(m)
        if h is None or h.owner != owner:
            return False
    return True


def group_mortgaged(s: GameState, square: int) -> bool:
    holdings = s.holdings
    for m in s.board.members[square]:
        h = holdings.get(m)
        if h is not None and h.mortgaged:
            return True
    return False


def monopolised(s: GameState, owner: str, square: int) -> bool:
    """Anti-Monopoly rules 10 and 12: ``owner`` has monopolised ``square``'s city (its group): he owns two of
    its streets, neither of them mortgaged (with three owned, any two unmortgaged)."""
    holdings = s.holdings
    unmortgaged = 0
    for m in s.board.members[square]:
        h = holdings.get(m)
        if h is not None and h.owner == owner and not h.mortgaged:
            unmortgaged += 1
    return unmortgaged >= 2


def monopoly_buildings_refusal(s: GameState, p: PlayerState, square: int, code: str) -> Refusal | None:
    """Anti-Monopoly rule 12 (and 10, 23): a monopolist keeps no houses in a city he no longer monopolises —
    so a street he needs for it is not mortgaged (``code`` mortgage.…) or traded away (trade.…) while he has
    buildings in that city."""
    roles = s.variant.roles  # tested first: without roles, no call (at every mortgage or trade probed)
    if not (roles and is_monopolist(roles, p.role)) or s.board.squares[square].kind != "street":
        return None
    own = s.holdings.get(square)
    if own is None or own.mortgaged:  # not one of the streets that monopolise the city now
        return None
    members = s.board.members[square]
    others = [
        m
        for m in members
        if m != square and (h := s.holdings.get(m)) is not None and h.owner == p.id and not h.mortgaged
    ]
    if len(others) >= 2:  # the city stays monopolised without this street
        return None
    built = [m for m in members if (h := s.holdings.get(m)) and h.owner == p.id and h.level]
    if not built:
        return None
    return refusal(
        code,
        gettext_noop(
            "{square} monopolises its city for {player}: first sell the buildings in the city ({squares})."
        ),
        square=s.board.squares[square].name,
        player=p.name,
        squares=", ".join(s.board.squares[m].name for m in built),
    )


def owned_in_set(s: GameState, square: int, owner: str) -> int:
    """How many squares of ``square``'s set (railroads, utilities) ``owner`` holds, per the variant
    (RULES.md §1: mortgaged ones count, option ``sets_count_mortgaged``)."""
    count_mortgaged = s.variant.sets_count_mortgaged
    holdings = s.holdings
    n = 0
    for m in s.board.members[square]:  # a loop, not a generator: asked at every railroad's rent
        h = holdings.get(m)
        if h is not None and h.owner == owner and (count_mortgaged or not h.mortgaged):
            n += 1
    return n


def amount_refusal(ev: dict, expected: int, what: Message) -> Refusal | None:
    """An event may carry the amount the referee saw; it must agree with the rules."""
    given = ev.get("amount")
    if given is None or given == expected:
        return None
    return refusal(
        "amount.mismatch",
        gettext_noop("The {what} is {expected}, not {given}."),
        what=what,
        expected=expected,
        given=given,
    )


def ownership_refusal(s: GameState, p: PlayerState, square: int, *, street: bool = False) -> Refusal | None:
    """``p`` owns ``square`` (a street, if ``street``)."""
    h = s.holdings.get(square)
    if h is not None and h.owner == p.id and (not street or s.board.squares[square].kind == "street"):
        return None
    sq = s.board.squares[square]
    if not sq.is_property:
        return refusal("square.not_property", gettext_noop("{square} cannot be owned."), square=sq.name)
    if street and sq.kind != "street":
        return refusal(
            "build.not_street",
            gettext_noop("{square} is not a street: nothing is built there."),
            square=sq.name,
        )
    return refusal(
        "square.not_owner", gettext_noop("{player} does not own {square}."), player=p.name, square=sq.name
    )


def buildings_refusal(s: GameState, square: int, scope: str, code: str, what: Message) -> Refusal | None:
    """No buildings on ``square`` (scope ``square``) or on its whole colour group (scope ``group``)."""
    squares = s.board.members[square] if scope == "group" else (square,)
    holdings = s.holdings
    for m in squares:
        h = holdings.get(m)
        if h is not None and h.level:
            break
    else:
        return None
    built = [m for m in squares if (h := holdings.get(m)) and h.level]
    return refusal(
        code,
        gettext_noop("{what}: first sell the buildings on {squares}."),
        what=what,
        squares=", ".join(s.board.squares[m].name for m in built),
    )


def transfer_fee(tx: Tx, receiver: str, square: int) -> None:
    """Classic rules: who receives a mortgaged square pays 10 % of the loan at once (a cost)."""
    pct = tx.s.variant.mortgaged_transfer_fee_percent
    if pct:
        fee = ceil_percent(tx.s.board.squares[square].mortgage, pct)
        tx.exchange("transfer_fee", receiver, -fee, 0, square)
        tx.s.fee_paid = (*tx.s.fee_paid, square)
        tx.note(
            gettext_noop("{player} pays {fee} interest on the mortgaged {square}."),
            player=tx.name(receiver),
            fee=fee,
            square=tx.square_name(square),
        )
