"""What the console shows for a game: turn, round, players, bank, what is pending and what is allowed now.

Built from the state and the engine's own answer to "what is legal now" (``rules.legal``), so the screen
offers only what the engine accepts.
"""

from __future__ import annotations

import uuid

from django.conf import settings
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
from tournament.console.dice_pad import dice_pad, right_dice_pad
from tournament.console.kept import NOTHING, Kept
from tournament.console.latest import Latest, latest_moves
from tournament.console.raising import raising_choices, rent_way_out, sale_label
from tournament.games.messages import message_text
from tournament.games.recording import batch_start, is_closed, last_batch
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
    ``trade``: the square of a deed tapped without JavaScript (``?trade=``), its trade form filled in.

    Assembled from one builder per part of the screen: where the game stands, the players' cards, the trade
    form, what is pending (the roll, a purchase or an auction, a card, a payment, a deal), the clocks, the log
    and the undo."""
    legal = legal_actions(state)
    latest = latest_moves(game, LOG_LENGTH)
    names = {p.id: p.name for p in state.players}
    # Who has the move: the next roller once the current turn is over, else the player whose turn it is.
    mover = legal.roll or (state.current.id if state.current else None)
    # who the trade form starts with (None: no trade now): the player whose turn it is and the next one; a
    # deed its owner may trade opens the form filled in (deed_trade)
    pair = None if state.finished or state.final_step else default_pair(state, mover)
    if trade and pair and kept is NOTHING:
        kept = deed_trade_form(state, trade, pair, legal)
    players = _players(game, state, legal, names, mover, pair, kept, latest)
    return {
        "game": game,
        "version": game.version,
        "client_key": uuid.uuid4().hex,
        "poll_seconds": settings.CONSOLE_POLL_SECONDS,  # how often another device's move is asked for
        "error": error,
        "notice": notice,
        **_standing(state, names, mover),
        "players": players,
        "active": [p for p in players if not p["bankrupt"]],
        **_trade_form(kept, pair),
        "bank": {"houses": state.houses, "hotels": state.hotels},
        **_pending(state, legal, names, kept),
        **_clocks(state, legal, names),
        **_log_and_undo(game, error, latest),
        "dice_pad": dice_pad(),
        "right_dice_pad": right_dice_pad(),
    }


def _standing(state: GameState, names: dict, mover: str | None) -> dict:
    """Where the game stands: over (and why) or its round, and who has the move."""
    v = state.variant
    return {
        "finished": state.finished,
        "end_reason": state.end_reason,
        "end_reason_text": end_reason_text(state.end_reason),
        "round": state.round,
        "max_rounds": v.max_rounds,
        "last_round": bool(v.max_rounds and state.round >= v.max_rounds and not state.finished),
        "time_up": state.time_up,
        "current": names.get(mover),
    }


def _players(
    game: Game, state: GameState, legal, names: dict, mover, pair, kept: Kept, latest: Latest
) -> list[dict]:
    """The players' cards, in the order of play."""
    ranks = ranking(state) if state.finished else {}
    cash = cash_lines(game, state, names, counted=latest.counted)
    return [
        _player_card(game, state, p, legal.players.get(p.id), mover, pair, kept, ranks, cash)
        for p in state.players
    ]


def _player_card(
    game: Game, state: GameState, p, options, mover, pair, kept: Kept, ranks: dict, cash: dict
) -> dict:
    """One player's card: his cash (and its count), where he is, his deeds, his figures, what he may do."""
    income, cost = game.ledger.get(p.id, [0, 0])
    return {
        "id": p.id,
        "name": p.name,
        "cash": p.cash,
        **cash[p.id],
        "counted_typed": kept.value("counted", "", action="cash_count", player=p.id),
        "position": square_name(state.board, p.position),
        "in_jail": p.in_jail,
        "jail_turns": p.jail_turns,
        "jail_cards": len(p.jail_cards),
        "bankrupt": p.bankrupt,
        "properties": _deeds(state, p.id, options, pair),
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


def _deeds(state: GameState, pid: str, options, pair) -> list[dict]:
    """A player's title deeds with their buildings, each tradable one opening the trade form."""
    hotel = state.hotel_level(pid)
    tradable = set(options.tradable) if options and pair else ()
    deeds = []
    for sq in state.owned_by(pid):
        h = state.holdings[sq]
        deeds.append(
            {
                **square_label(state.board, sq),
                "level": h.level,
                "hotel": h.level >= hotel,
                "houses": 0 if h.level >= hotel else h.level,
                "buildings": level_label(state, h.level, pid),
                "mortgaged": h.mortgaged,
                "trade": deed_trade(pid, sq, pair) if sq in tradable else None,
            }
        )
    return deeds


def _trade_form(kept: Kept, pair) -> dict:
    """The trade form: its two sides (as typed, when a refused trade is given back) and who it starts with."""
    return {
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
    }


def _pending(state: GameState, legal, names: dict, kept: Kept) -> dict:
    """What is pending, each with its form: the roll, a purchase or the auctions, a card, a tax, the
    Foundation, the final steps, the rents and debts, the deeds still to deal."""
    board, v = state.board, state.variant
    return {
        "roll": _roll(state, legal, names),
        "blocked_by": legal.blocked_by,
        **_purchases(state, legal, names, kept),
        "card": card_panel(state, legal.card, names, kept) if legal.card else None,
        "tax": {**legal.tax, "player_name": names[legal.tax["player"]]} if legal.tax else None,
        "foundation": {**legal.foundation, "player_name": names[legal.foundation["player"]]}
        if legal.foundation
        else None,
        "final": _final(state, legal, names),
        "score_label": score_label(state),
        "roles": v.roles,
        **_payments(state, legal, names, kept),
        "deals": [{**d, "player_name": names[d["player"]]} for d in legal.deals],
        "free_deeds": [
            square_label(board, s.index) for s in board.properties if s.index not in state.holdings
        ]
        if legal.deals
        else [],
    }


def _roll(state: GameState, legal, names: dict) -> dict | None:
    """The dice pad: who rolls, again or from jail (and how he may get out), None when no one rolls now."""
    roller = legal.roll
    if not roller:
        return None
    return {
        "player": roller,
        "player_name": names[roller],
        "again": legal.roll_again,
        "in_jail": state.player(roller).in_jail,
        "jail_fine": legal.players[roller].jail_fine,
        "jail_card": legal.players[roller].jail_card,
        "fine": state.variant.jail_fine,
        # the pending rents this roll ends (the pad warns, offering to claim them first)
        "rents_lapse": bool(rent.lapsing(state, new_turn=not legal.roll_again)),
    }


def _purchases(state: GameState, legal, names: dict, kept: Kept) -> dict:
    """The square to buy (or to decline, with the auction's opening bid) and the auctions under way."""
    board = state.board
    return {
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
    }


def _payments(state: GameState, legal, names: dict, kept: Kept) -> dict:
    """The rents to claim (with the payer's way out when his cash is short) and the debts to settle."""
    return {
        "rents": [
            {
                **r,
                "payer_name": names[r["payer"]],
                "owner_name": names[r["owner"]],
                "square_name": square_name(state.board, r["square"]),
                # a rent the payer's cash does not cover: his way out, offered on the rent's card
                "short": rent_way_out(state, r),
                "ticked": kept.ticked(
                    "raise", action="rent", then="raise", player=r["payer"], square=r["square"]
                ),
            }
            for r in legal.rents
        ],
        "rent_lapses_at": state.variant.rent_lapses_at,
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
    }


def _clocks(state: GameState, legal, names: dict) -> dict:
    """The time limits: a move's (and whose ran out), the game's (and whether time may be called)."""
    v = state.variant
    return {
        "timeout": {"player": legal.timeout, "player_name": names[legal.timeout]} if legal.timeout else None,
        "move_time_limit": v.move_time_limit,
        "can_time_up": legal.time_up,
        "time_limit_minutes": v.time_limit_minutes,
    }


def _log_and_undo(game: Game, error: str | None, latest: Latest) -> dict:
    """The latest moves (the one just made told apart), whether a move may be undone (``undo_batch``: the
    moves the undo would take back, for ``undo.undo_offer``), when the last came."""
    log = _rows(latest.rows, next((r.seq for r in latest.rows if r.status == GameEvent.Status.ACTIVE), None))
    closed = is_closed(game)
    batch = [] if closed else last_batch(game, latest.rows, whole=latest.whole)
    return {
        "log": log,
        "log_total": latest.total,
        "just_now": _just_now(log) if not error else None,
        "closed": closed,
        "can_undo": bool(batch),
        "undo_batch": batch,
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
