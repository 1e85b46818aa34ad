"""Views of the referee's console. One POST applies one event; with HTMX the response is the refreshed panel,
without it a redirect back to the console, or the console page with the typing kept if the move is refused
(the console also works without JavaScript)."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Q
from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules import RulesError
from tournament.console import fragments, pyodide
from tournament.console.action_forms import DAMAGED
from tournament.console.actions import ActionError, client_key, events_from_post
from tournament.console.devices import device_of, entered_on, key_start, new_client_key
from tournament.console.forms import NewGameForm
from tournament.console.game_over import next_steps
from tournament.console.kept import NOTHING, Kept
from tournament.console.offline_words import offline_words
from tournament.console.panel import build_panel, moves_page
from tournament.console.stale import seen_mark, what_changed
from tournament.console.undo import quick_reason, right_dice, undo_offer
from tournament.exports.chart import net_worth_svg
from tournament.games import recording
from tournament.games.messages import error_text
from tournament.models import Game
from tournament.people.access import game_for, may_direct_game, visible_games
from tournament.reports import game_report

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
    once, locked (``games``: ``recording.locking``)."""
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


def _for_device(request, game: Game, context: dict) -> dict:
    """What a page of the console holds for this device and user besides the game: its forms' request keys
    (telling its moves from another device's), what it has seen (to tell what another device did meanwhile),
    the undo of the last move and, the game over, the next steps."""
    context["client_key"] = new_client_key(request)
    context["seen"] = seen_mark(game)
    context["hidden_fields"] = _hidden_fields(request, context)
    if context.get("can_undo"):
        context["undo"] = undo_offer(
            context["undo_batch"], device_of(request), directs=lambda: may_direct_game(request.user, game)
        )
    if context.get("finished"):
        context["next_steps"] = next_steps(game, request.user)
    return context


def _hidden_fields(request, context: dict) -> str:
    """The hidden fields every form of the page carries (the CSRF token, the version it was made against, its
    request key, what it has seen), written once for the page's thirty-odd forms (``_page``)."""
    return format_html(
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
        '<input type="hidden" name="version" value="{}">'
        '<input type="hidden" name="client_key" value="{}">'
        '<input type="hidden" name="seen" value="{}">',
        get_token(request),
        context["version"],
        context["client_key"],
        context["seen"],
    )


def _page(request, template: str, context: dict):
    """A page of the console (or its panel): each form's hidden fields written in (``fragments.page``)."""
    return fragments.page(request, template, context, context["hidden_fields"])


def _panel(request, game: Game, changed_meanwhile: str = "", state=None, **how) -> dict:
    """``state``: the game's when known (a move's answer shows what it just stored), else read from it."""
    context = build_panel(game, state or recording.current_state(game), **how)
    context["changed_meanwhile"] = changed_meanwhile
    context = _for_device(request, game, context)
    # the state as stored, from which the phone goes on alone when the Wi-Fi drops (static/console/offline.js)
    context["offline"] = {
        "game": game.pk,
        "version": game.version,
        # its keys in one order: as stored (PostgreSQL's jsonb orders them its way) or just made by a move
        "state": json.loads(json.dumps(game.state, sort_keys=True)),
        "ledger": game.ledger,  # each player's income and cost so far (the view model's players' figures)
        "seen": context["seen"],
        "key_start": key_start(device_of(request)),
    }
    # an attribute of the panel's element, not a <script> of its own: htmx's swap drops every script of the
    # answer (allowScriptTags: false), and the phone would go on from the page's first state
    context["offline_json"] = json.dumps(context["offline"], separators=(",", ":"))
    return context


def _for_the_outage(game: Game, context: dict) -> dict:
    """What the console page (not its panel) gives the phone to go on alone while the Wi-Fi is down: where its
    rules engine is, and the words of its own panel (offline.js)."""
    context["pyodide_folder"] = f"{settings.STATIC_URL}{pyodide.folder_name()}/"
    context["offline_words"] = {"title": str(game), **offline_words(recording.current_state(game))}
    return context


def _stale(request, game: Game, lead: str) -> str:
    """A refusal of a stale screen: ``lead``, then what the other device did meanwhile."""
    return " ".join(filter(None, [lead, what_changed(game, request.POST.get("seen", ""))]))


def _respond(
    request, game: Game, *, error: str | None = None, notice: str | None = None, kept=False, state=None
):
    """The refreshed panel (HTMX) or a redirect to the console page carrying the message; a move refused
    without HTMX (``kept``) is answered with the console page itself, what was typed still in its form.
    ``state``: the game's state just stored (a move's), shown as it is."""
    if request.htmx or (error and kept):
        game = _whole(game)
        typed = Kept(request.POST) if kept and not request.htmx else NOTHING
        context = _panel(request, game, error=error, notice=notice, kept=typed, state=state)
        if request.htmx:
            return _page(request, "console/panel.html", context)
        return _page(request, "console/page.html", _for_the_outage(game, context))
    if error:
        messages.error(request, error)
    elif notice:
        messages.info(request, notice)
    # a move voided from the page of all moves goes back there
    return redirect("console_moves" if request.POST.get("next") == "moves" else "console", pk=game.pk)


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
    game = _whole(_game_for(request, pk))
    # ?trade=SQUARE: a deed tapped without JavaScript opens the trade form filled in
    context = _panel(request, game, trade=request.GET.get("trade"))
    return _page(request, "console/page.html", _for_the_outage(game, context))


@login_required
def panel(request, pk: int):
    """The panel alone; 204 when nothing changed since ``version`` (for another device's polling). The
    panel it was asked from (``seen``) is told what changed meanwhile, should a form being filled in keep it
    on the screen (console-forms.js offers the change, naming the moves)."""
    game = _game_for(request, pk, POLLED)
    if request.GET.get("version") == str(game.version):
        return HttpResponse(status=204)
    game = _whole(game)
    context = _panel(request, game, changed_meanwhile=what_changed(game, request.GET.get("seen", "")))
    return _page(request, "console/panel.html", context)


@login_required
def all_moves(request, pk: int):
    """Every move of the game (the panel's log shows the latest few), each one voidable."""
    game = _game_for(request, pk)
    context = _for_device(request, game, moves_page(game, request.GET.get("page")))
    return _page(request, "console/moves.html", context)


@login_required
@require_POST
def act(request, pk: int):
    """A move: the form read, then the game read once, locked, who may enter its moves asked, and the move
    entered (``recording.enter``); the answer shows the state just stored. A refused move's answer reads the
    game again (the refused move was applied to the one read, in part)."""
    try:
        events = events_from_post(request.POST)
        key = client_key(request.POST)
        with transaction.atomic():
            game = _game_for(request, pk, recording.locking())
            version = _version(request)
            result = recording.enter(game, events, version=version, user=request.user, client_key=key)
    except (ActionError, recording.GameClosed) as e:
        return _respond(request, _game_for(request, pk), error=str(e), kept=True)
    except RulesError as e:
        return _respond(request, _game_for(request, pk), error=error_text(e), kept=True)
    except recording.StaleVersion as e:
        return _respond(
            request,
            e.args[0],
            error=_stale(
                request,
                e.args[0],
                _(
                    "Another device entered a move meanwhile: your move was not applied. "
                    "Here is the current state."
                ),
            ),
            kept=True,
        )
    return _respond(request, result.game, state=result.state)


def _take_back(request, pk: int, change, *, stale: str, done: str, **how):
    """Undo or void (``change``) with the reason typed (or ``how``: the reason chosen); a resent request
    (the same key) is answered once."""
    game = _game_for(request, pk)
    try:
        game = change(
            game.pk,
            version=_version(request),
            user=request.user,
            client_key=client_key(request.POST),
            directs=may_direct_game(request.user, game),
            **{"reason": request.POST.get("reason", ""), **how},
        )
    except ActionError as e:
        return _respond(request, game, error=str(e))
    except recording.StaleVersion as e:
        return _respond(request, e.args[0], error=_stale(request, e.args[0], stale))
    except recording.LogError as e:
        detail = f" {error_text(e.rules_error)}" if e.rules_error else ""
        return _respond(request, game, error=str(e) + detail)
    return _respond(request, game, notice=done)


@login_required
@require_POST
def undo(request, pk: int):
    """The last move undone, with a typed reason or (``quick``) one chosen in one tap: the latter only for
    a move this device entered (recording.undo_last checks it with the game locked)."""
    how = {}
    if "quick" in request.POST:
        try:
            how = {
                "reason": quick_reason(request.POST["quick"]),
                "entered_with": key_start(device_of(request)),
            }
        except ValueError:
            return _respond(request, _game_for(request, pk), error=DAMAGED)
    return _take_back(
        request,
        pk,
        recording.undo_last,
        stale=_("Another device changed the game meanwhile: nothing undone."),
        done=_("The last move was undone."),
        **how,
    )


@login_required
@require_POST
def correct_dice(request, pk: int):
    """Wrong dice corrected in one tap: the last move, a throw of the dice this device entered, undone with
    the one-tap reason "wrong dice" and the same player's throw entered with the dice tapped, both or neither
    (recording.correct_dice). Its request key must be this device's (the new throw is its own move)."""
    game = _game_for(request, pk)
    device = device_of(request)
    try:
        key = client_key(request.POST)
        if not entered_on(key, device):
            raise ActionError(DAMAGED)
        done = recording.correct_dice(
            game.pk,
            right_dice(request.POST),
            version=_version(request),
            user=request.user,
            reason=quick_reason("dice"),
            client_key=key,
            entered_with=key_start(device),
        )
    except ActionError as e:
        return _respond(request, game, error=str(e))
    except recording.StaleVersion as e:
        lead = _("Another device changed the game meanwhile: nothing undone, no dice entered.")
        return _respond(request, e.args[0], error=_stale(request, e.args[0], lead))
    except recording.LogError as e:
        return _respond(request, game, error=str(e))
    except RulesError as e:
        lead = _("Nothing was changed: the rules refuse these dice.")
        return _respond(request, game, error=f"{lead} {error_text(e)}")
    return _respond(
        request,
        done.game,
        notice=_("Move #%(wrong)s was undone and the right dice entered as move #%(right)s.")
        % {"wrong": done.wrong.seq, "right": done.right.seq},
    )


@login_required
@require_POST
def void(request, pk: int, seq: int):
    return _take_back(
        request,
        pk,
        lambda game_id, **how: recording.void(game_id, seq, **how),
        stale=_("Another device changed the game meanwhile: nothing voided."),
        done=_("Move #%(seq)s was voided and the game replayed.") % {"seq": seq},
    )


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
    response = JsonResponse(recording.record_of(game), json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
    return response
