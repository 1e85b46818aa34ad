"""``screen(state, ledger, counts)``: the console's view model (this package's docstring says what and why).

Built from the engine's own answer to "what is legal now" (``rules.legal``) and its own checks, so the
screen offers only what the engine accepts; assembled from one builder per part: where the game stands,
the players' cards, what happens now, the clocks, the trade.
"""

from __future__ import annotations

from collections.abc import Callable

from rules import final_steps, rent
from rules.banknotes import banknotes
from rules.cash_counts import CashCounts
from rules.legal import Legal, PlayerOptions, legal_actions
from rules.movements import BANK
from rules.scoring import ranking, score
from rules.state import GameState
from rules.time_limits import ended_by_stop
from rules.turns import in_own_turn
from rules.valuation import net_worths
from tournament.console.view_model.building import group_builds, street_builds
from tournament.console.view_model.cards import card_offer
from tournament.console.view_model.raising import raising_choices, rent_way_out
from tournament.console.view_model.words import said


def screen(
    state: GameState, ledger: dict | None = None, counts: dict | None = None, say: Callable = said
) -> dict:
    """What the console shows and offers in ``state``. ``ledger``: each player's income and cost so far
    (``{id: [income, cost]}``, the game's ledger totals); ``counts``: the game's cash counts as it keeps them
    (``rules.cash_counts.CashCounts.to_data``; None: no count yet); ``say``: an engine's message in the
    referee's words (the phone's ``words.said``, the server's ``tournament.games.messages.message_text``)."""
    legal = legal_actions(state)
    # Who has the move: the next roller once the current turn is over, else the player whose turn it is.
    mover = legal.roll or (state.current.id if state.current else None)
    pair = None if state.finished or state.final_step else trade_pair(state, mover)
    return {
        "board": state.board.id,
        "game": _standing(state, mover),
        "players": _players(state, legal, mover, pair, ledger or {}, last_counts(counts)),
        "now": _now(state, legal, say),
        "clocks": _clocks(state, legal),
        "trade": pair,
        "bank": {"houses": state.houses, "hotels": state.hotels},
    }


def _standing(state: GameState, mover: str | None) -> dict:
    """Where the game stands: its round (and limit), who has the move, over (and why), the time."""
    v = state.variant
    return {
        "round": state.round,
        "max_rounds": v.max_rounds,
        "last_round": bool(v.max_rounds and state.round >= v.max_rounds and not state.finished),
        "mover": None if state.finished else mover,
        "finished": state.finished,
        "end_reason": state.end_reason,
        "time_up": state.time_up,
        "stopped": state.stopped,  # by the director: what the time's words say while it finishes
        "ended_by_stop": ended_by_stop(state),  # what the game over says (its end reason: "time")
        "final_step": state.final_step,
        "time_limit_minutes": v.time_limit_minutes,
        "roles": bool(v.roles),
        # what ranks the players at the end (RULES.md §4): net worth, cash, or cash and one rent a property
        "score": _score_kind(state),
    }


def _score_kind(state: GameState) -> str:
    v = state.variant
    if v.roles and v.ending == "two_hour":
        return "cash"
    if v.roles and v.ending == "game_b":
        return "rule_25"
    return "net_worth"


def last_counts(data: dict | None) -> dict:
    """Each counted player's last cash count: the move it was (``seq``), what was counted and expected, the
    count before it (``previous``), whether nothing changed his banknotes since (``current``) and it is the
    game's last move (``latest``), and where they differ the moves since the count before that changed what
    he should hold, the latest first (``moves``: ``{"seq", "amount"}``), ``earlier`` the number left out."""
    if not data:
        return {}
    counts = CashCounts.from_data(data)
    return {
        pid: {
            "seq": c.event,
            "counted": c.counted,
            "expected": c.expected,
            "previous": c.previous,
            "current": not counts.changed_since_last_count(pid),
            "latest": c.event == counts.at,
            "moves": [{"seq": x.event, "amount": x.amount} for x in reversed(c.changes)],
            "earlier": c.earlier,
        }
        for pid, c in counts.last.items()
    }


def trade_pair(state: GameState, mover: str | None) -> list[str] | None:
    """The two players a trade starts with: the player whose turn it is (else ``mover``, the next to roll,
    else the first still in) and the next one after him in seat order; None when fewer than two are still
    in. A deed tapped opens the trade between its owner and the first of them (the second, his own)."""
    active = [p.id for p in state.active_players]
    if len(active) < 2:
        return None
    first = next((who for who in (state.current and state.current.id, mover) if who in active), active[0])
    return [first, active[(active.index(first) + 1) % len(active)]]


def _players(state: GameState, legal: Legal, mover, pair, ledger: dict, counts: dict) -> list[dict]:
    """The players' cards, in the order of play."""
    ranks = ranking(state) if state.finished else {}
    notes, worths = banknotes(state), net_worths(state)
    return [
        _player_card(
            state, p, legal.players.get(p.id), mover, pair, ledger, counts, ranks, notes[p.id], worths[p.id]
        )
        for p in state.players
    ]


def _player_card(state: GameState, p, options, mover, pair, ledger, counts, ranks, notes, worth) -> dict:
    """One player's card: his cash (what he owes or is owed, the banknotes he should hold, his last count),
    where he is, his deeds, his figures, what he may do with what he owns."""
    income, cost = ledger.get(p.id, (0, 0))
    return {
        "id": p.id,
        "name": p.name,
        "role": p.role,
        "cash": p.cash,
        "owes": [[None if to == BANK else to, amount] for to, amount in notes.owes_to],
        "owed": [[debtor, amount] for debtor, amount in notes.owed],
        "banknotes": notes.expected,
        "count": counts.get(p.id),
        "position": p.position,
        "in_jail": p.in_jail,
        "jail_turns": p.jail_turns,
        "jail_cards": len(p.jail_cards),
        "bankrupt": p.bankrupt,
        "deeds": _deeds(state, p.id, options, pair),
        "top": state.hotel_level(p.id),  # his top building level (the hotel; Anti-Monopoly's apartment)
        "net_worth": worth,
        "score": score(state, p.id),
        "income": income,
        "cost": cost,
        "rank": ranks.get(p.id),
        "turn": mover == p.id and not state.finished,
        "may": _may(state, p.id, options),
        # his builds open in his turn when he can build (the players are below what happens now: it pushes
        # nothing away)
        "build_open": bool(options and options.build) and in_own_turn(state, p),
    }


def _deeds(state: GameState, pid: str, options: PlayerOptions | None, pair) -> list[dict]:
    """A player's title deeds with their buildings; ``trade``: its owner may trade it now (a tap opens the
    trade with it)."""
    tradable = set(options.tradable) if options and pair else ()
    return [
        {
            "square": sq,
            "level": (h := state.holdings[sq]).level,
            "mortgaged": h.mortgaged,
            "trade": sq in tradable,
        }
        for sq in state.owned_by(pid)
    ]


def _may(state: GameState, pid: str, o: PlayerOptions | None) -> dict | None:
    """What a player still in may do now with what he owns: build (a street's counts, a level on each of a
    group), sell buildings, mortgage, lift a mortgage; whether the rules let him go bankrupt now."""
    if o is None:
        return None
    squares = state.board.squares
    return {
        "build": street_builds(state, pid, o),
        "build_each": group_builds(state, pid, o),
        "sell": [{"square": sq, "count": n} for sq, n in o.sell_building.items()],
        "mortgage": [{"square": sq, "loan": squares[sq].mortgage} for sq in o.mortgage],
        "unmortgage": [{"square": sq, "amount": amount} for sq, amount in o.unmortgage.items()],
        "trade": list(o.tradable),
        "bankrupt": o.bankrupt,
    }


def _now(state: GameState, legal: Legal, say: Callable) -> dict:
    """What is pending, each with what it offers: the roll (or why nobody may roll), a purchase or the
    auctions, a card, a tax, the Foundation, the final steps, the rents and debts, the deeds still to deal."""
    return {
        "roll": _roll(state, legal),
        "blocked_by": legal.blocked_by and say(legal.blocked_by),  # why nobody may roll, in words
        "buy": legal.buy,
        "auctions": [{**a, "price": state.board.squares[a["square"]].price} for a in legal.auctions],
        "card": card_offer(state, legal.card) if legal.card else None,
        "tax": legal.tax,
        "foundation": legal.foundation,
        "final": _final(state, legal),
        "rents": [{**r, "short": rent_way_out(state, r)} for r in legal.rents],
        "rent_lapses_at": state.variant.rent_lapses_at,
        "debts": [
            {
                **d,
                "to": None if d["to"] == BANK else d["to"],
                "choices": raising_choices(state, d["player"], legal.players.get(d["player"])),
                "can_go_bankrupt": legal.players[d["player"]].bankrupt,
            }
            for d in legal.debts
        ],
        "deals": legal.deals,
        "free_deeds": [s.index for s in state.board.properties if s.index not in state.holdings]
        if legal.deals
        else [],
    }


def _roll(state: GameState, legal: Legal) -> dict | None:
    """The dice pad: who rolls, again or from jail (and how he may get out: the fine, a card), and whether
    this roll ends the pending rents (the pad warns, offering to claim them first); None when no one rolls
    now."""
    roller = legal.roll
    if not roller:
        return None
    options = legal.players[roller]
    return {
        "player": roller,
        "again": legal.roll_again,
        "in_jail": state.player(roller).in_jail,
        "jail_fine": state.variant.jail_fine if options.jail_fine else None,
        "jail_card": options.jail_card,
        "rents_lapse": bool(rent.lapsing(state, new_turn=not legal.roll_again)),
    }


def _final(state: GameState, legal: Legal) -> dict | None:
    """The Anti-Monopoly final steps: what each keeps, the utilities to value, what the tour pays."""
    if not legal.final_step and not legal.final_rolls:
        return None
    out = {"step": legal.final_step, "rolls": legal.final_rolls, "keeps": [], "tour": []}
    if legal.final_step == "dealings":
        out["keeps"] = [
            {"player": pid, "cash": state.player(pid).cash, "kept": kept}
            for pid, kept in final_steps.kept_cash(state).items()
        ]
    elif legal.final_step == "tour" and not legal.final_rolls:
        out["tour"] = [
            {"square": sq, "owner": owner, "amount": amount}
            for sq, owner, amount in final_steps.tour_payments(state)
        ]
    return out


def _clocks(state: GameState, legal: Legal) -> dict:
    """The time limits: whose move can time out (and the limit), whether the game's time may be called."""
    return {
        "timeout": legal.timeout,
        "move_time_limit": state.variant.move_time_limit,
        "time_up": legal.time_up,
    }
