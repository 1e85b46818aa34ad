"""The replay for disputes: the console's own screen, read-only, as it stood after the first N active events
of a game — what the table saw at that move (positions, owners, buildings, mortgages, cash, debts, what was
pending). The game is rebuilt as the server rebuilds it (``recording.rebuild``: the record of its active
events, ``replay_ledger`` with the cash counts following), cut after N events: the same as
``replay FILE --until N`` (GAME_RECORD.md). For the tournament's directors and the game's referees
(``access.game_for``); a page (``replay``) with a slider, and its JSON (``replay_data``) that the slider
reads."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from ledger.report import replay_ledger
from rules.cash_counts import CashCounts
from tournament.console.screen_words import screen_words
from tournament.console.view_model import screen
from tournament.games import recording
from tournament.games.log import active_events, record_header
from tournament.games.messages import message_text, narration
from tournament.models import Game
from tournament.people.access import game_for


class BadMove(ValueError):
    """``at`` (or ``move``) is not a move of the game: the message says why."""


def events_of(game: Game) -> list:
    """The game's active events in order, read once (their number, data and words)."""
    return list(active_events(game).only("game", "seq", "data", "notes"))


def state_at(game: Game, at: int, events: list | None = None):
    """The game's state, its ledger totals and cash counts after its first ``at`` active events (as
    ``replay --until at``): ``(state, ledger, counts)``. ``events``: ``events_of(game)`` read already."""
    events = events_of(game) if events is None else events
    record = {**record_header(game, game.players.order_by("seat")), "events": [e.data for e in events[:at]]}
    counts = CashCounts()
    result, ledger = replay_ledger(record, lambda i, out: counts(events[i].seq, out), check_fit=False)
    return result.state, ledger.totals() if ledger else {}, counts.to_data()


def screen_at(game: Game, at: int, events: list | None = None) -> dict:
    """The console's view model after the first ``at`` active events."""
    state, ledger, counts = state_at(game, at, events)
    return screen(state, ledger, counts, message_text)


def moves_of(game: Game, events: list | None = None) -> list[dict]:
    """The game's active moves in order, each with its place (``at``: the replay after it) and its words."""
    events = events_of(game) if events is None else events
    return [
        {"at": i, "seq": e.seq, "type": e.data.get("type"), "notes": narration(e)}
        for i, e in enumerate(events, start=1)
    ]


def at_of_move(events: list, seq: int) -> int:
    """Where the replay stands just after move ``seq`` (its number in the log): the active moves up to it
    (``events``: ``events_of(game)``)."""
    return sum(1 for e in events if e.seq <= seq)


def requested_at(request, game: Game, events: list) -> int:
    """The position asked for: ``at`` (active events applied, 0..their number) or ``move`` (a move's number
    in the log); none: the end. BadMove when garbled, negative or beyond the end."""
    total = len(events)
    raw_at, raw_move = request.GET.get("at"), request.GET.get("move")
    if raw_at is None and raw_move is None:
        return total
    raw = (raw_at if raw_at is not None else raw_move).strip()
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10):
        raise BadMove(_("The move must be a whole number from 0 to %(n)s.") % {"n": total})
    n = int(raw)
    if raw_at is None:  # a move's number: one of the log's (an undone move: the replay just before it)
        if n > game.last_move:
            raise BadMove(
                ngettext(
                    "The game's log has %(n)s move: no move %(at)s.",
                    "The game's log has %(n)s moves: no move %(at)s.",
                    game.last_move,
                )
                % {"n": game.last_move, "at": n}
            )
        n = at_of_move(events, n)
    if n > total:
        raise BadMove(
            ngettext(
                "The game has %(n)s move: no move %(at)s.", "The game has %(n)s moves: no move %(at)s.", total
            )
            % {"n": total, "at": n}
        )
    return n


def _game(request, pk: int) -> Game:
    return game_for(
        request.user,
        pk,
        refusal=_("Only the referees of this table and the tournament director may see its replay."),
    )


@login_required
@require_safe
def replay(request, pk: int):
    """The replay page: the console's screen at a move, a slider over the moves, the log beside."""
    game = _game(request, pk)
    events = events_of(game)
    moves = moves_of(game, events)
    try:
        at = requested_at(request, game, events)
    except BadMove as e:
        return render(request, "console/replay.html", {"game": game, "error": str(e)}, status=400)
    data = {
        "game": game.pk,
        "title": str(game),
        "total": len(moves),
        "at": at,
        "screen": screen_at(game, at, events),
        "moves": moves,
        "url": reverse("game_replay", args=[game.pk]),
        "data_url": reverse("game_replay_data", args=[game.pk]),
    }
    names = screen_words(recording.current_state(game))  # (the board's names: the same at every move)
    context = {"game": game, "replay": data, "names": names, "at": at, "total": len(moves), "error": None}
    context["seq"] = moves[at - 1]["seq"] if at else None  # the move's number in the log
    return render(request, "console/replay.html", context)


@gzip_page
@login_required
@require_safe
def replay_data(request, pk: int):
    """The console's view model at ``at`` (JSON: ``{at, total, screen}``); a bad ``at``: 400 saying why."""
    game = _game(request, pk)
    events = events_of(game)
    try:
        at = requested_at(request, game, events)
    except BadMove as e:
        return JsonResponse({"error": str(e)}, status=400)
    return JsonResponse({"at": at, "total": len(events), "screen": screen_at(game, at, events)})
