"""What the console shows for a game: turn, round, players, bank, what is pending and what is allowed now.

Built from the state and the engine's own answer to "what is legal now" (``rules.legal``), so the screen
offers only what the engine accepts.
"""

from __future__ import annotations

import uuid

from django.core.paginator import Paginator
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules import final_steps, rent
from rules.board import Board
from rules.legal import legal_actions
from rules.messages import from_data
from rules.scoring import ranking, score
from rules.state import GameState
from rules.turns import in_own_turn
from rules.valuation import net_worth
from tournament.boards.words import board_word, square_name
from tournament.console.building import group_builds, street_builds, top_level_word
from tournament.console.card_panel import card_panel
from tournament.console.cash_line import cash_lines
from tournament.console.deed_trade import deed_trade, deed_trade_form, default_pair
from tournament.console.kept import NOTHING, Kept
from tournament.console.raising import raising_choices, rent_way_out, sale_label
from tournament.games.messages import message_text
from tournament.games.recording import batch_start, is_closed
from tournament.labels import end_reason_text, role_label, score_label
from tournament.models import Game, GameEvent

LOG_LENGTH = 12
MOVES_PER_PAGE = 100  # the page of all moves: a game of 10⁶ voided moves is still a page of a hundred
#: The trade form's two sides: the field prefix, the select naming whose side it is, the legend.
TRADE_SIDES = (
    ("give", "player", gettext_lazy("The first player gives")),
    ("get", "with", gettext_lazy("and gets")),
)


def _final(state: GameState, legal, names: dict) -> dict | None:
    """The Anti-Monopoly final steps: what each keeps, the utilities to value, what the tour pays."""
    board = state.board
    rolls = [
        {**r, "player_name": names[r["player"]], "square_name": square_name(board, r["square"])}
        for r in legal.final_rolls
    ]
    if not legal.final_step and not rolls:
        return None
    out = {"step": legal.final_step, "rolls": rolls, "keeps": [], "tour": []}
    if legal.final_step == "dealings":
        out["keeps"] = [
            {"name": names[pid], "cash": state.player(pid).cash, "kept": kept}
            for pid, kept in final_steps.kept_cash(state).items()
        ]
    elif legal.final_step == "tour" and not rolls:
        out["tour"] = [
            {"square": square_name(board, sq), "owner": names[owner], "amount": amount}
            for sq, owner, amount in final_steps.tour_payments(state)
        ]
    return out


def level_label(state: GameState, level: int, owner: str) -> str:
    if level >= state.hotel_level(owner):
        return top_level_word(state)
    return "" if level == 0 else "⌂" * level


def square_label(board: Board, index: int) -> dict:
    sq = board.square(index)
    return {
        "index": index,
        "name": board_word(sq.name),
        "group": sq.group or sq.kind,
        "price": sq.price,
        "house_cost": sq.house_cost,
    }


def build_panel(
    game: Game,
    state: GameState,
    *,
    error: str | None = None,
    notice: str | None = None,
    kept: Kept = NOTHING,
    trade: str | None = None,
) -> dict:
    """What the console shows; ``kept``: the typing of a refused form, given back (no JavaScript);
    ``trade``: the square of a deed tapped without JavaScript (``?trade=``), its trade form filled in."""
    board, v = state.board, state.variant
    legal = legal_actions(state)
    names = {p.id: p.name for p in state.players}
    ranks = ranking(state) if state.finished else {}
    # Who has the move: the next roller once the current turn is over, else the player whose turn it is.
    mover = legal.roll or (state.current.id if state.current else None)
    cash = cash_lines(game, state, names)
    # who the trade form starts with (None: no trade now): the player whose turn it is and the next one; a
    # deed its owner may trade opens the form filled in (deed_trade)
    pair = None if state.finished or state.final_step else default_pair(state, mover)
    if trade and pair and kept is NOTHING:
        kept = deed_trade_form(state, trade, pair, legal)
    players = []
    for p in state.players:
        props = []
        hotel = state.hotel_level(p.id)
        options = legal.players.get(p.id)
        tradable = set(options.tradable) if options and pair else ()
        for sq in state.owned_by(p.id):
            h = state.holdings[sq]
            props.append(
                {
                    **square_label(board, sq),
                    "level": h.level,
                    "hotel": h.level >= hotel,
                    "houses": 0 if h.level >= hotel else h.level,
                    "buildings": level_label(state, h.level, p.id),
                    "mortgaged": h.mortgaged,
                    "trade": deed_trade(p.id, sq, pair) if sq in tradable else None,
                }
            )
        income, cost = game.ledger.get(p.id, [0, 0])
        players.append(
            {
                "id": p.id,
                "name": p.name,
                "cash": p.cash,
                **cash[p.id],
                "counted_typed": kept.value("counted", "", action="cash_count", player=p.id),
                "position": square_name(board, p.position),
                "in_jail": p.in_jail,
                "jail_turns": p.jail_turns,
                "jail_cards": len(p.jail_cards),
                "bankrupt": p.bankrupt,
                "properties": props,
                "net_worth": net_worth(state, p.id),
                "role": p.role or "",
                "role_label": role_label(p.role or ""),
                "score": score(state, p.id),
                "income": income,
                "cost": cost,
                "rank": ranks.get(p.id),
                "is_turn": mover == p.id and not state.finished,
                "options": _player_options(state, options),
                "build_each": group_builds(state, p.id, options),
                "build_levels": street_builds(state, p.id, options),
                # his "Build, sell, mortgage" open in his turn when he can build (the players are below what
                # happens now: it pushes nothing away)
                "build_open": bool(options and options.build) and in_own_turn(state, p),
            }
        )
    roller = legal.roll
    card = card_panel(state, legal.card, names, kept) if legal.card else None
    return {
        "game": game,
        "version": game.version,
        "client_key": uuid.uuid4().hex,
        "error": error,
        "notice": notice,
        "finished": state.finished,
        "end_reason": state.end_reason,
        "end_reason_text": end_reason_text(state.end_reason),
        "round": state.round,
        "max_rounds": v.max_rounds,
        "last_round": bool(v.max_rounds and state.round >= v.max_rounds and not state.finished),
        "time_up": state.time_up,
        "current": names.get(mover),
        "players": players,
        "active": [p for p in players if not p["bankrupt"]],
        "trade_sides": [
            {
                "side": side,
                "select": select,
                "legend": legend,
                "squares": kept.numbers(f"{side}_squares", action="trade"),
                "cash": kept.value(f"{side}_cash", "", action="trade"),
                "jail_cards": kept.value(f"{side}_jail_cards", "", action="trade"),
            }
            for side, select, legend in TRADE_SIDES
        ],
        "trade_kept": kept.form(action="trade"),
        "trade_pair": pair,
        "bank": {"houses": state.houses, "hotels": state.hotels},
        "roll": {
            "player": roller,
            "player_name": names[roller],
            "again": legal.roll_again,
            "in_jail": state.player(roller).in_jail,
            "jail_fine": legal.players[roller].jail_fine,
            "jail_card": legal.players[roller].jail_card,
            "fine": v.jail_fine,
            # the pending rents this roll ends (the pad warns, offering to claim them first)
            "rents_lapse": bool(rent.lapsing(state, new_turn=not legal.roll_again)),
        }
        if roller
        else None,
        "blocked_by": legal.blocked_by,
        "buy": {
            **legal.buy,
            "player_name": names[legal.buy["player"]],
            "square": square_label(board, legal.buy["square"]),
            "bid": kept.value("price", legal.buy["auction"], action="decline", square=legal.buy["square"]),
        }
        if legal.buy
        else None,
        "auctions": [
            {
                **a,
                "square": square_label(board, a["square"]),
                "bid": kept.value("price", a["opening_bid"], action="auction", square=a["square"]),
            }
            for a in legal.auctions
        ],
        "card": card,
        "tax": {**legal.tax, "player_name": names[legal.tax["player"]]} if legal.tax else None,
        "foundation": {**legal.foundation, "player_name": names[legal.foundation["player"]]}
        if legal.foundation
        else None,
        "final": _final(state, legal, names),
        "score_label": score_label(state),
        "roles": v.roles,
        "rents": [
            {
                **r,
                "payer_name": names[r["payer"]],
                "owner_name": names[r["owner"]],
                "square_name": square_name(board, r["square"]),
                # a rent the payer's cash does not cover: his way out, offered on the rent's card
                "short": rent_way_out(state, r),
                "ticked": kept.ticked(
                    "raise", action="rent", then="raise", player=r["payer"], square=r["square"]
                ),
            }
            for r in legal.rents
        ],
        "rent_lapses_at": v.rent_lapses_at,
        "debts": [
            {
                **d,
                "player_name": names[d["player"]],
                "to_name": names.get(d["to"], _("the bank")),
                "choices": raising_choices(state, d["player"], legal.players.get(d["player"])),
                "ticked": kept.ticked("raise", action="raise", player=d["player"]),
                "can_go_bankrupt": legal.players[d["player"]].bankrupt,
            }
            for d in legal.debts
        ],
        "deals": [{**d, "player_name": names[d["player"]]} for d in legal.deals],
        "free_deeds": [
            square_label(board, s.index) for s in board.properties if s.index not in state.holdings
        ]
        if legal.deals
        else [],
        "timeout": {"player": legal.timeout, "player_name": names[legal.timeout]} if legal.timeout else None,
        "move_time_limit": v.move_time_limit,
        "can_time_up": legal.time_up,
        "time_limit_minutes": v.time_limit_minutes,
        "log": (log := _log(game)),
        "log_total": game.events.count() if len(log) == LOG_LENGTH else len(log),
        "just_now": _just_now(log) if not error else None,
        "closed": (closed := is_closed(game)),
        "can_undo": not closed and game.events.active().exists(),
        "last_move_at": log[0]["at"] if log else game.created_at,  # the latest entry, whatever its status
    }


def _sale(state: GameState, square: int, count: int) -> dict:
    label = square_label(state.board, square)
    return {**label, "count": count, "label": sale_label(state, square, count, label["name"])}


def _player_options(state: GameState, o) -> dict | None:
    if o is None:
        return None
    board = state.board
    return {
        "build": bool(o.build),  # what he may build: the rows of street_builds and group_builds
        "sell_building": [_sale(state, sq, n) for sq, n in o.sell_building.items()],
        "mortgage": [{**square_label(board, sq), "loan": board.square(sq).mortgage} for sq in o.mortgage],
        "unmortgage": [{**square_label(board, sq), "amount": amount} for sq, amount in o.unmortgage.items()],
        "tradable": [square_label(board, sq) for sq in o.tradable],
        "bankrupt": o.bankrupt,
        "any": bool(o.build or o.sell_building or o.mortgage or o.unmortgage),
    }


def moves_page(game: Game, page=None) -> dict:
    """The game's moves, the latest first, ``MOVES_PER_PAGE`` a page (``page``: its number as asked for; a
    number below 1 or not a number gives the first page, one past the end the last), each voidable as in the
    panel's log."""
    try:
        number = max(int(page), 1)
    except (TypeError, ValueError):
        number = 1
    moves = Paginator(game.events.select_related("entered_by").order_by("-seq"), MOVES_PER_PAGE)
    shown = moves.get_page(number)
    last_active = game.events.active().aggregate(seq=Max("seq"))["seq"]
    return {
        "game": game,
        "version": game.version,
        "client_key": uuid.uuid4().hex,
        "log": _rows(shown.object_list, last_active),
        "page": shown,
        "closed": is_closed(game),
    }


def _log(game: Game, length: int | None = LOG_LENGTH) -> list[dict]:
    rows = list(game.events.select_related("entered_by").order_by("-seq")[:length])
    return _rows(rows, next((r.seq for r in rows if r.status == GameEvent.Status.ACTIVE), None))


def _just_now(log: list[dict]) -> dict | None:
    """The move just made — or the moves one tap entered together — with what they did, oldest first."""
    active = [e for e in log if e["active"]]
    if not active:
        return None
    batch = active[0]["batch"]
    together = [e for e in active if batch and e["batch"] == batch] or active[:1]
    return {
        "seq": together[0]["seq"],
        "first": together[-1]["seq"],
        "notes": [n for e in reversed(together) for n in e["notes"]],
    }


def narration(row: GameEvent) -> list[str]:
    """What a move did, in the referee's language, as the log tells it."""
    return [message_text(from_data(n)) for n in row.notes]


def _rows(rows, last_active: int | None) -> list[dict]:
    return [
        {
            "seq": r.seq,
            "type": r.data.get("type"),
            "notes": narration(r),
            "status": r.status,
            "status_label": GameEvent.Status(r.status).label,
            "active": r.status == GameEvent.Status.ACTIVE,
            "last": r.seq == last_active,
            "reason": r.reason,
            "batch": batch_start(r.client_key),
            "by": r.entered_by.get_username() if r.entered_by else "",
            "at": r.entered_at,
        }
        for r in rows
    ]
