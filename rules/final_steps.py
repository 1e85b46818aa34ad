"""The end of an Anti-Monopoly game, step by step, each an event of the record (RULES.md §4):

- the two-hour game: when the time is up the round in play is finished; then (A) players deal with the bank
  only — build, sell buildings, mortgage, lift mortgages; (B) ``final_keep``: competitors keep 10 % of their
  cash, monopolists 20 %, the rest goes to the bank; (C) ``final_roll`` for each owned unmortgaged utility,
  then ``final_tour``: the treasurer goes round the board once and pays each owner the rent of each owned
  property (a monopolist in Prison nothing: he collects no rent, rule 15); (D) most cash wins
  (:mod:`rules.scoring`);
- Game B (rule 25): once the game is over (the other role all bankrupt, or a round or time limit),
  ``final_roll`` values each utility of the players still in.
"""

from __future__ import annotations

from rules import rent, turns
from rules.errors import RuleError, gettext_noop
from rules.movements import BANK
from rules.roles import MONOPOLIST
from rules.state import GameState
from rules.transaction import Tx

#: What may happen in each final step of the two-hour game.
ALLOWED = {
    "dealings": ("build", "sell_building", "mortgage", "unmortgage", "rent", "bankrupt", "final_keep"),
    "tour": ("final_roll", "final_tour"),
}


def begin(s: GameState) -> None:
    """The last round is over (the time is up, or the round limit is reached): the final steps begin (A)."""
    s.final_step = "dealings"
    s.roll_again = False


#: The final steps' refusals, said after what ended the play: the director's stop, the time, or the rounds.
DEALINGS = {
    "stopped": gettext_noop(
        "The director stopped the game: players deal only with the bank (build, sell buildings, mortgage, "
        "lift mortgages) until each keeps their share of cash."
    ),
    "time": gettext_noop(
        "The time is up: players deal only with the bank (build, sell buildings, mortgage, lift "
        "mortgages) until each keeps their share of cash."
    ),
    "rounds": gettext_noop(
        "The last round is over: players deal only with the bank (build, sell buildings, mortgage, lift "
        "mortgages) until each keeps their share of cash."
    ),
}
TOUR = {
    "stopped": gettext_noop(
        "The director stopped the game: the treasurer's tour is next (first the final roll for each utility)."
    ),
    "time": gettext_noop(
        "The time is up: the treasurer's tour is next (first the final roll for each utility)."
    ),
    "rounds": gettext_noop(
        "The last round is over: the treasurer's tour is next (first the final roll for each utility)."
    ),
}


def refusal_of(s: GameState, event_type: str) -> RuleError | None:
    """Why ``event_type`` cannot happen during the final steps (None: it may)."""
    if event_type in ALLOWED[s.final_step]:
        return None
    ended = "stopped" if s.stopped else "time" if s.time_up else "rounds"
    if s.final_step == "dealings":
        return RuleError("final.dealings", DEALINGS[ended])
    return RuleError("final.tour", TOUR[ended])


def keep_share(s: GameState, role: str | None) -> int:
    v = s.variant
    return v.final_keep_percent_monopolist if role == MONOPOLIST else v.final_keep_percent_competitor


def kept_cash(s: GameState) -> dict[str, int]:
    """Step B: what each player still in keeps (his role's share of his cash, rounded down)."""
    return {p.id: p.cash * keep_share(s, p.role) // 100 for p in s.active_players}


def tour_payments(s: GameState) -> list[tuple[int, str, int]]:
    """Step C: (square, owner, rent) for each owned unmortgaged property, in board order (utilities valued
    by their final roll: call once none is missing); a monopolist in Prison is paid nothing."""
    return [
        (sq, h.owner, rent.rent_for(s, sq, s.final_rolls.get(sq)))
        for sq, h in sorted(s.holdings.items())
        if not h.mortgaged and rent.counted_at_the_end(s, h.owner)
    ]


def unpaid_in_prison(s: GameState) -> list[str]:
    """The owners of unmortgaged properties whom the end's count pays nothing (monopolists in Prison)."""
    owners = {h.owner for h in s.holdings.values() if not h.mortgaged}
    return [p.id for p in s.players if p.id in owners and not rent.counted_at_the_end(s, p.id)]


def final_keep(tx: Tx, ev: dict) -> None:
    """Step B: each player keeps their role's share of their cash (rounded down); the rest goes to the bank.
    A rent not claimed by now lapses (the console warns of it first)."""
    s = tx.s
    if s.final_step != "dealings":
        raise RuleError("final.not_now", gettext_noop("The final steps have not begun."))
    for p in s.active_players:
        if p.cash < 0:
            raise turns.blocking(s).error()
    rent.lapse(tx, new_turn=True)  # a rent not claimed by now is not claimed
    for pid, kept in kept_cash(s).items():
        p = s.by_id[pid]
        tx.note(
            gettext_noop("{player} keeps {percent} percent of their cash: {kept}."),
            player=p.name,
            percent=keep_share(s, p.role),
            kept=kept,
        )
        tx.transfer("final_keep", pid, BANK, p.cash - kept)
    s.final_step = "tour"


def utilities_to_roll(s: GameState) -> list[int]:
    """Owned unmortgaged utilities without a final roll yet (not a monopolist's in Prison: worth nothing)."""
    return [
        sq
        for sq, h in sorted(s.holdings.items())
        if not h.mortgaged
        and s.board.squares[sq].kind == "utility"
        and sq not in s.final_rolls
        and rent.counted_at_the_end(s, h.owner)
    ]


def final_roll(tx: Tx, ev: dict) -> None:
    """The owner of a utility throws the dice that value it (rule 25, step C)."""
    s = tx.s
    p = s.by_id[ev["player"]]
    square = ev["square"]
    if not (s.final_step == "tour" or (s.finished and s.variant.ending == "game_b")):
        raise RuleError(
            "final_roll.not_now",
            gettext_noop(
                "A final roll values a utility at the end of the game only (Game B, two-hour game)."
            ),
        )
    h = s.holdings.get(square)
    sq = s.board.squares[square]
    if sq.kind != "utility" or h is None or h.owner != p.id or h.mortgaged:
        raise RuleError(
            "final_roll.not_utility",
            gettext_noop("{player} has no unmortgaged utility on {square} to value."),
            player=p.name,
            square=sq.name,
        )
    if not rent.counted_at_the_end(s, p.id):
        raise RuleError("final_roll.in_prison", gettext_noop("{owner} is in Prison: no rent."), owner=p.name)
    if square in s.final_rolls:
        raise RuleError("final_roll.twice", gettext_noop("{square} has been valued already."), square=sq.name)
    d1, d2 = ev["dice"]
    s.final_rolls[square] = d1 + d2
    tx.note(
        gettext_noop("{player} rolls {d1}+{d2} for {square}."), player=p.name, d1=d1, d2=d2, square=sq.name
    )


def final_tour(tx: Tx, ev: dict) -> None:
    """Step C: the bank pays each owner one rent per owned unmortgaged property; then the game is over."""
    s = tx.s
    if s.final_step != "tour":
        raise RuleError(
            "final.not_now",
            gettext_noop("The treasurer's tour comes after each player keeps their share of cash."),
        )
    missing = utilities_to_roll(s)
    if missing:
        raise RuleError(
            "final_tour.rolls_missing",
            gettext_noop("First the final roll for {squares}."),
            squares=", ".join(s.board.squares[m].name for m in missing),
        )
    for sq, owner, amount in tour_payments(s):
        tx.transfer("final_tour", BANK, owner, amount, sq)
    tx.note(gettext_noop("The treasurer's tour: each owner is paid one rent per property."))
    for owner in unpaid_in_prison(s):
        tx.note(gettext_noop("{owner} is in Prison: no rent."), owner=s.by_id[owner].name)
    s.final_step = None
    turns.finish(s, "time" if s.time_up else "rounds")
