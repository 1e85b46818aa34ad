"""What the server tells the referee's phone of a game, as JSON: where it stands (its version, its state as
stored and each player's income and cost — the phone goes on from there with the rules it runs), the
console's screen (``view_model.screen``, for a phone whose rules do not run yet), the latest moves in the
referee's language, the undo of the last one, what the phone has seen (``stale.seen_mark``), whether the game
is read-only, and once it is over, what comes next. The console page carries it; ``state`` answers it when
another device changed the game; a move's answer carries it to a phone without its rules."""

from __future__ import annotations

import json

from django.conf import settings
from django.middleware.csrf import get_token
from django.urls import reverse

from tournament.console.devices import device_of, entered_on, key_start
from tournament.console.game_over import next_steps
from tournament.console.latest import latest_moves
from tournament.console.stale import seen_mark
from tournament.console.undo import undo_offer
from tournament.console.view_model import screen
from tournament.console.view_model.screen import last_counts
from tournament.games import recording
from tournament.games.batches import batch_start, last_batch
from tournament.games.locks import is_closed
from tournament.games.messages import message_text, narration
from tournament.models import Game, GameEvent
from tournament.people.access import may_direct_game

#: The latest moves the console shows (the page of all moves shows every one).
LOG_LENGTH = 12


def position(request, game: Game, *, with_screen: bool = True) -> dict:
    """The game as the phone takes it. ``game``: read whole (version, state and ledger of one moment)."""
    device = device_of(request)
    latest = latest_moves(game, LOG_LENGTH)
    closed = is_closed(game)
    batch = [] if closed else last_batch(game, latest.rows, whole=latest.whole)
    undo = undo_offer(batch, device, directs=lambda: may_direct_game(request.user, game))
    state = recording.current_state(game)
    out = {
        "game": game.pk,
        "version": game.version,
        # its keys in one order: as stored (PostgreSQL's jsonb orders them its way) or just made by a move
        "state": json.loads(json.dumps(game.state, sort_keys=True)),
        "ledger": game.ledger,
        "log": [log_row(r, device) for r in latest.rows],
        "log_total": latest.total,
        "undo": undo and {k: undo[k] for k in ("seq", "first", "mine", "dice")},
        "seen": seen_mark(game),
        "closed": closed,
        "last_move_at": (latest.rows[0].entered_at if latest.rows else game.created_at).isoformat(),
        "next_steps": _next_steps(game, request.user) if state.finished else None,
        "counts": recording.counts_of(game).to_data(),
        "next_seq": game.next_seq,
    }
    out["count_texts"] = _count_texts(game, out["counts"])
    if with_screen:
        out["screen"] = screen(state, game.ledger, out["counts"], message_text)
    return out


def log_row(row: GameEvent, device: str) -> dict:
    """A move as the console's log shows it: what it did in the referee's language, its status and why it
    was taken back, who entered it, whether this phone did (its undo is one tap)."""
    return {
        "seq": row.seq,
        "type": row.data.get("type"),
        "notes": narration(row),
        "status": row.status,
        "reason": row.reason,
        "by": row.entered_by.get_username() if row.entered_by else "",
        "mine": entered_on(row.client_key, device),
        "batch": batch_start(row.client_key),
    }


def _count_texts(game: Game, counts: dict) -> dict[int, list[str]]:
    """What each move the cash counts name did, in words, by its number (a few rows: at most ``MOVES_KEPT``
    a counted player)."""
    shown = {x["seq"] for c in last_counts(counts).values() for x in c["moves"]}
    rows = game.events.filter(seq__in=shown).only("seq", "notes") if shown else []
    return {row.seq: narration(row) for row in rows}


def _next_steps(game: Game, user) -> dict:
    steps = next_steps(game, user)
    return {**steps, "new_url": reverse("game_new")}


def page_data(request, game: Game) -> dict:
    """The console page's JSON: the position, and what the phone needs besides (its device's key, the
    addresses it talks to, how often it asks for another device's moves)."""
    return {
        **position(request, game),
        "title": str(game),
        "csrf": get_token(request),
        "key_start": key_start(device_of(request)),
        "poll_seconds": settings.CONSOLE_POLL_SECONDS,
        "log_length": LOG_LENGTH,  # (the phone's own moves added: as many shown)
        "live": reverse("table_events", args=[game.table_id]) if game.table_id else "",
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "urls": {
            "sync": reverse("console_sync", args=[game.pk]),
            "state": reverse("console_state", args=[game.pk]),
            "contact": reverse("console_contact", args=[game.pk]),
            "moves": reverse("console_moves", args=[game.pk]),
            "cards": reverse("game_cards", args=[game.pk]),
            "record": reverse("game_record", args=[game.pk]),
        },
    }
