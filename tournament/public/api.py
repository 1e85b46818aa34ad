"""The public's read-only JSON API, version 1 (docs/api.md): a tournament's tables now, one table's board now,
and the standings. No login, GET (and HEAD) only; every answer carries an ETag and is a 304 while unchanged.

A table's board and the tournament's tables are shown only while the tournament's ``live_boards`` setting is
on (else a 404 that says so); the standings always (the standings page is public already). Every figure is
the engine's: the game's stored state (``recording.current_state``, as the console and the reports read it),
net worth by ``rules.valuation.net_worths`` (what the table's report sums from its parts), the moves in words
as the log tells them (``narration``), in the language asked: ``?lang=pl|en``, else the browser's
(Accept-Language). A refusal too: ``{"error": words in that language, "code": the same in each}``."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.http import JsonResponse
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from rules.board import Board, get_board
from rules.valuation import net_worths
from tournament.boards.words import square_name
from tournament.games import recording
from tournament.games.log import active_events
from tournament.games.messages import narration
from tournament.labels import end_reason_text, role_label
from tournament.models import Game, Table, Tournament, standings_changes
from tournament.models.tournaments import shown_name
from tournament.public.views import shown_rows

VERSION = "v1"
#: The latest moves a table's answer tells, newest first.
MOVES = 10
#: The players' colours, by seat (the first player's first): tokens and owners' marks on the board.
COLOURS = ["#e03131", "#1971c2", "#2f9e44", "#f08c00", "#9c36b5", "#0c8599", "#5c940d", "#c2255c"]
#: The API's refusals: a code a script may test (never changed within v1), and the words a person reads.
REFUSALS = {
    "no_such_address": _("No such address in the API: docs/api.md lists them."),
    "unknown_language": _("Unknown language: ask one of %(languages)s."),
    "no_such_tournament": _("No such tournament."),
    "no_such_table": _("No such table."),
    "live_boards_off": _(
        "This tournament does not show its tables' boards (its setting “live boards” is off)."
    ),
}


def _error(request, code: str, status: int = 404) -> JsonResponse:
    """A refusal in JSON, its words in the language asked (``?lang=``, when the site speaks it), else the
    browser's."""
    language = _language(request) or translation.get_language()
    with translation.override(language):
        message = str(REFUSALS[code]) % {"languages": ", ".join(known for known, _name in settings.LANGUAGES)}
    response = JsonResponse(
        {"error": message, "code": code}, status=status, json_dumps_params={"ensure_ascii": False}
    )
    response["Content-Language"] = language
    response["Access-Control-Allow-Origin"] = "*"
    return response


@csrf_exempt
def unknown(request, rest: str = ""):
    """An address under the API that names nothing (a garbled id, a path of no version): a 404 in JSON, as
    the API's other refusals."""
    return _error(request, "no_such_address")


def _language(request) -> str | None:
    """The language asked (``?lang=``), the browser's (Accept-Language, LocaleMiddleware) without it; None:
    a language the site does not speak."""
    asked = request.GET.get("lang")
    if asked is None:
        return translation.get_language()
    return asked if asked in dict(settings.LANGUAGES) else None


def _answer(request, etag_of: str, make) -> JsonResponse:
    """``make()``'s JSON under the ETag of ``etag_of`` (with the language and the address): a 304 when the
    browser has it, and ``make`` not called."""
    language = _language(request)
    if language is None:
        return _error(request, "unknown_language", status=400)
    etag = quote_etag(
        hashlib.blake2b(
            "\n".join([VERSION, etag_of, language, request.get_full_path()]).encode(), digest_size=12
        ).hexdigest()
    )
    unchanged = get_conditional_response(request, etag=etag)
    if unchanged is None:
        with translation.override(language):
            response = JsonResponse(make(), json_dumps_params={"ensure_ascii": False})
            response["Content-Language"] = language
    else:
        response = unchanged
    response["ETag"] = etag
    response["Cache-Control"] = "public, no-cache"  # asked again each time: a 304 while unchanged
    response["Access-Control-Allow-Origin"] = "*"  # a club's own page may read it
    return response


# -- a tournament's tables -----------------------------------------------------------------------------------
@csrf_exempt  # read-only: another method is a 405 (require_safe), not a CSRF 403
@require_safe
def tables(request, pk: int):
    """The tables of the tournament's latest round: number, players, game and its status, their JSON."""
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        return _error(request, "no_such_tournament")
    if not tournament.live_boards:
        return _error(request, "live_boards_off")
    round_ = tournament.round_set.order_by("-number").first()
    rows = []
    if round_ is not None:
        rows = list(
            Table.objects.filter(round=round_)
            .order_by("number", "seats__order", "seats__pk")
            .values_list(
                "pk",
                "number",
                "game__pk",
                "game__version",
                "game__status",
                "seats__participant__name",
                "seats__participant__club",
                "seats__participant__namesake",
                "seats__role",
            )
        )
    seen = repr((round_.pk if round_ else None, round_.status if round_ else None, rows))

    def make() -> dict:
        shown: dict[int, dict] = {}
        for table, number, game, version, status, name, club, namesake, role in rows:
            t = shown.setdefault(
                table,
                {
                    "id": table,
                    "number": number,
                    "game": game,
                    "version": version or 0,
                    "status": status or "not_started",
                    "players": [],
                    "url": reverse("api_table", args=[table]),
                    "board_url": reverse("live_board", args=[table]),
                },
            )
            if name is not None:
                player = {"name": shown_name(name, club, namesake), "club": club, "role": role}
                t["players"].append(player)
        return {
            "tournament": {"id": tournament.pk, "name": tournament.name},
            "round": round_.number if round_ is not None else None,
            "tables": list(shown.values()),
        }

    return _answer(request, seen, make)


# -- a table's board -----------------------------------------------------------------------------------------
def live_table(pk: int) -> tuple[Table | None, str | None]:
    """The table (None: no such table) and, unless its tournament shows its board, why not (a code of
    ``REFUSALS``)."""
    table = Table.objects.select_related("round__tournament").filter(pk=pk).first()
    if table is None:
        return None, "no_such_table"
    if not table.round.tournament.live_boards:
        return table, "live_boards_off"
    return table, None


@csrf_exempt
@require_safe
def table(request, pk: int):
    """The table's board now (docs/api.md): the squares, the players, the holdings, whose turn, the latest
    moves in words, and the game's version ("did it change")."""
    table, refused = live_table(pk)
    if refused:
        return _error(request, refused)
    # its version alone for the ETag (a 304 reads no state); the state, when the answer is made
    game = Game.objects.filter(table=table).only("pk", "version", "table_id").first()
    seen = f"{table.pk}.{game.pk}.{game.version}" if game is not None else f"{table.pk}.-"
    return _answer(request, seen, lambda: board_now(table, game))


def board_now(table: Table, game: Game | None) -> dict:
    """What a table's answer holds (``table``), in the active language."""
    tournament = table.round.tournament
    out = {
        "table": {"id": table.pk, "number": table.number, "round": table.round.number},
        "tournament": {"id": tournament.pk, "name": tournament.name},
        "game": None,
        "version": 0,
        "status": "not_started",
    }
    if game is None:  # seated, not started: the board (empty) and who sits there
        seats = table.seats.select_related("participant").order_by("order", "pk")
        out["board"] = board_squares(get_board(tournament.board))
        out["players"] = [
            {"name": s.participant.shown_name, "role": s.role, "role_label": role_label(s.role)}
            for s in seats
        ]
        return out
    state = recording.current_state(game)
    board = state.board
    worth = net_worths(state)
    colours = {p.id: COLOURS[i % len(COLOURS)] for i, p in enumerate(state.players)}
    current = state.players[state.turn].id if state.turn is not None and not state.finished else None
    out.update(
        {
            "game": game.pk,
            "version": game.version,
            "status": "finished" if state.finished else "running",
            "board": board_squares(board),
            "players": [
                {
                    "id": p.id,
                    "name": p.name,
                    "colour": colours[p.id],
                    "token": i + 1,
                    "position": p.position,
                    "square": square_name(board, p.position),
                    "cash": p.cash,
                    "net_worth": worth[p.id],
                    "in_jail": p.in_jail,
                    "bankrupt": p.bankrupt,
                    "role": p.role or "",
                    "role_label": role_label(p.role or ""),
                }
                for i, p in enumerate(state.players)
            ],
            "holdings": [
                {
                    "square": square,
                    "owner": h.owner,
                    "colour": colours[h.owner],
                    "houses": h.level if h.level < state.hotel_level(h.owner) else 0,
                    "hotel": h.level >= state.hotel_level(h.owner),
                    "mortgaged": h.mortgaged,
                }
                for square, h in sorted(state.holdings.items())
            ],
            "turn": current,
            "round": state.round,
            "finished": state.finished,
            "end": end_reason_text(state.end_reason) if state.finished and state.end_reason else "",
            "moves": _moves(game, {p.id: p.name for p in state.players}),
        }
    )
    return out


def board_squares(board: Board) -> dict:
    """A board's id and squares (name in the active language, kind, group, price), as the answer gives it."""
    squares = [
        {
            "index": sq.index,
            "name": square_name(board, sq.index),
            "kind": sq.kind,
            "group": sq.group,
            "price": sq.price,
        }
        for sq in board.squares
    ]
    return {"id": board.id, "squares": squares}


def _moves(game: Game, names: dict[str, str]) -> list[dict]:
    """The latest active moves, newest first: who, and what they did in words (the engine's narration)."""
    rows = active_events(game).only("seq", "data", "notes").order_by("-seq")[:MOVES]
    return [
        {
            "seq": row.seq,
            "type": row.data.get("type", ""),
            "player": names.get(row.data.get("player"), ""),
            "text": " ".join(narration(row)),
        }
        for row in rows
    ]


# -- the standings ------------------------------------------------------------------------------------------
@csrf_exempt
@require_safe
def standings(request, pk: int):
    """The standings now, best first (the public standings page's rows: ``views.shown_rows``)."""
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        return _error(request, "no_such_tournament")
    kept = standings_changes.version(tournament)

    def make() -> dict:
        rows = [
            {k: row[k] for k in ("rank", "name", "club", "points", "total_score", "best_score", "games")}
            | {"withdrawn": row["withdrawn"]}
            for row in shown_rows(tournament)
        ]
        return {"tournament": {"id": tournament.pk, "name": tournament.name}, "standings": rows}

    return _answer(request, f"{tournament.pk}.{kept}", make)
