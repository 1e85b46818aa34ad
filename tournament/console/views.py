"""Views of the referee's console: the list of games, a new game, and a game's pages. The console itself is
drawn on the phone (static/console/: one screen online and offline, from the view model), which this page
boots with the game's position (``position.page_data``); its moves go through the phone's outbox to
``sync.sync``, another device's are read from ``state``. The page of all moves (and their void), the
income/cost cards and the record are pages of the server."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST, require_safe

from rules import RulesError
from tournament.console import pyodide
from tournament.console.devices import new_client_key
from tournament.console.forms import NewGameForm
from tournament.console.keys import ActionError, client_key
from tournament.console.moves_page import moves_page
from tournament.console.position import page_data, position
from tournament.console.screen_words import screen_words
from tournament.console.stale import what_changed
from tournament.exports.chart import net_worth_svg
from tournament.games import recording
from tournament.games.log import record_of
from tournament.games.messages import error_text
from tournament.games.refusals import LogError, StaleVersion
from tournament.models import Game
from tournament.people.access import game_for, may_direct_game, visible_games
from tournament.reports.games import game_report

SEARCH_LENGTH = 100
#: Games read with what their title needs (a table's game is named after its tournament, round and table).
TITLED = Game.objects.select_related("table__round__tournament")
#: What a poll reads first, to learn whether the game changed: the game's row alone, its version and what
#: tells who may enter its moves (a referee is told by the row; a director's tournament is read when asked),
#: not its title's table, round and tournament, nor its state (half the poll's cost when nothing changed).
POLLED = Game.objects.only("version", "table_id", "created_by_id")


def _game_for(request, pk: int, games=None) -> Game:
    """The game, if this user enters its moves. Its stored state is read when used (a poll that finds
    nothing new, or a change that locks and reads the game again, does not need it); a move reads the game
    once, locked (``games``: ``locks.locking``)."""
    return game_for(
        request.user,
        pk,
        TITLED.defer("state", "ledger") if games is None else games,
        refusal=_("Only the referees of this table and the tournament director may enter moves."),
    )


def _version(request) -> int:
    """The version of the game the form was made against; -1 (never current) when missing or garbled, so
    that such a submission is refused as stale instead of being applied blindly."""
    raw = request.POST.get("version", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else -1


def _whole(game: Game) -> Game:
    """The game read at once, version, state and ledger together: a game read without its state
    (``_game_for``) would read it later, maybe after another device's move, and show that state with the
    older version."""
    return TITLED.get(pk=game.pk) if game.get_deferred_fields() else game


@login_required
def game_list(request):
    games = visible_games(request.user)  # his tables, his tournaments' and his own games (staff: all)
    games = games.select_related("table__round__tournament")  # a table's game is named after them
    q = (request.GET.get("q") or "").strip()[:SEARCH_LENGTH]
    if q:
        games = games.filter(Q(name__icontains=q) | Q(players__name__icontains=q)).distinct()
    mine = games.filter(referees=request.user)
    others = games.exclude(pk__in=mine.values("pk"))
    return render(
        request, "console/game_list.html", {"mine": mine, "others": others, "q": q, "can_create": True}
    )


@login_required
def game_new(request):
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = recording.create_game(user=request.user, referees=[request.user], **form.game_arguments())
        except RulesError as e:
            form.add_error(None, error_text(e))
        else:
            return redirect("console", pk=game.pk)
    return render(request, "console/game_new.html", {"form": form})


@login_required
def console(request, pk: int):
    """The console page: its screen is drawn on the phone, from the position it carries."""
    game = _whole(_game_for(request, pk))
    context = {
        "game": game,
        "console": page_data(request, game),
        "names": screen_words(recording.current_state(game)),
        "pyodide_folder": f"{settings.STATIC_URL}{pyodide.folder_name()}/",
    }
    return render(request, "console/page.html", context)


@gzip_page  # (the game's position, with its screen when asked: sent compressed)
@login_required
@require_safe
def state(request, pk: int):
    """The game as it stands, for a phone whose console shows ``version``: 204 when nothing changed, else its
    position (with the screen when ``screen=1``: a phone whose rules do not run yet)."""
    game = _game_for(request, pk, POLLED)
    if request.GET.get("version") == str(game.version):
        return HttpResponse(status=204)
    game = _whole(game)
    answer = position(request, game, with_screen=request.GET.get("screen") == "1")
    answer["changed_meanwhile"] = what_changed(game, request.GET.get("seen", ""))
    answer["csrf"] = get_token(request)  # (a login in another tab changed the page's)
    return JsonResponse(answer)


@login_required
def all_moves(request, pk: int):
    """Every move of the game (the console's log shows the latest few), each one voidable."""
    game = _game_for(request, pk)
    context = moves_page(game, request.GET.get("page"))
    context["client_key"] = new_client_key(request)
    return render(request, "console/moves.html", context)


@login_required
@require_POST
def void(request, pk: int, seq: int):
    """A move voided from the page of all moves, with the reason typed; the page again, saying what was done
    (a resent request, the same key, is done once)."""
    game = _game_for(request, pk)
    try:
        recording.void(
            game.pk,
            seq,
            version=_version(request),
            user=request.user,
            client_key=client_key(request.POST),
            directs=may_direct_game(request.user, game),
            reason=request.POST.get("reason", ""),
        )
    except ActionError as e:
        messages.error(request, str(e))
    except StaleVersion:
        messages.error(request, _("Another device changed the game meanwhile: nothing voided."))
    except LogError as e:
        detail = f" {error_text(e.rules_error)}" if e.rules_error else ""
        messages.error(request, str(e) + detail)
    else:
        messages.info(request, _("Move #%(seq)s was voided and the game replayed.") % {"seq": seq})
    return redirect("console_moves", pk=game.pk)


@login_required
def cards(request, pk: int):
    """Each player's income/cost card (replays the game: a page to read, not a move)."""
    game = _game_for(request, pk)
    report = game_report(game)
    return render(
        request, "console/cards.html", {"game": game, "report": report, "chart": net_worth_svg(report)}
    )


@login_required
def export(request, pk: int):
    game = _game_for(request, pk)
    response = JsonResponse(record_of(game), json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
    return response
