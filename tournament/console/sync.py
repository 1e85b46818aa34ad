"""The referee's moves, sent by his phone's outbox one request each, in order (static/console/outbox.js),
online or once the venue's Wi-Fi is back, and its contact while nothing waits on it. A request is a move
(``kind`` "move": the events of one tap), the undo of the last move (``kind`` "undo": a reason chosen in one
tap for this device's own move, or typed) or the correction of its dice (``kind`` "dice").

A move is entered thus: the game read once, locked, who may enter its moves asked, then ``recording.enter`` on
the version the phone made the move on, once per request key (a move whose answer was lost is sent again and
answered as a duplicate). The answer is JSON the outbox reads, never a page or a redirect: the move taken
(200; with ``full``, the game's position after it: ``position.position``, for a phone whose rules do not run
yet); refused because another device changed the game meanwhile or the game is closed (409), or by the rules
(422), each with why in the user's language; a body the outbox never sends (400); who may not enter the game's
moves (403, 404). A move that reached the game, taken
or refused, keeps the phone's contact (``ConsoleContact``), and so does ``contact``: the director's round
page shows which tables still have moves waiting on a phone, and which phones went silent."""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.log import log_response
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page

from rules import RulesError
from rules.board import BOARD_SIZE
from tournament.console.devices import device_of, entered_on, key_start
from tournament.console.keys import DAMAGED, ActionError, client_key
from tournament.console.position import position
from tournament.console.stale import what_changed
from tournament.console.undo import QUICK_REASONS, quick_reason
from tournament.console.views import POLLED, TITLED, _game_for
from tournament.games import recording
from tournament.games.batches import same_request
from tournament.games.dice_correction import correct_dice
from tournament.games.locks import locking
from tournament.games.log import is_directors_stop
from tournament.games.messages import error_text
from tournament.games.refusals import GameClosed, KeyReused, LogError, StaleVersion, key_checked
from tournament.models import Game
from tournament.models.bounds import INTEGER_MAX
from tournament.models.console_contacts import record
from tournament.people.access import may_direct_game
from tournament.server import uploads

#: The largest body the outbox sends: one tap's events are a few hundred bytes.
MAX_BODY_BYTES = 64 * 1024
#: The most events one request enters: one tap's, at most a rent claimed, then a sale of buildings and a
#: mortgage on every square of the board, then the bankruptcy (well within ``batches.BATCH_KEY_ROOM``).
MAX_EVENTS = 2 * BOARD_SIZE + 2
#: The longest "seen" mark (``stale.seen_mark``: a move number and a time in milliseconds).
SEEN_LENGTH = 40


class Malformed(ValueError):
    """A body the phone's outbox never sends; the message says what is wrong with it."""

    def __init__(self, reason: str):
        damaged = _("The phone's request was damaged and not applied: %(reason)s")
        super().__init__(damaged % {"reason": reason})


#: What a request of the outbox may be: a move, the undo of the last one, the correction of its dice.
KINDS = ("move", "undo", "dice")


@dataclass
class Move:
    """One request of the phone, as its outbox sends it."""

    key: str  # the request key (the device's token, ".", a random part)
    version: int  # the game's version the phone made it on
    events: list[dict]  # a move's
    waiting: int  # the moves waiting on the phone, this one included
    seen: str  # what the phone's screen had seen (``stale.seen_mark``), or ""
    kind: str = "move"
    quick: str = ""  # an undo's reason chosen in one tap (``undo.QUICK_REASONS``)
    reason: str = ""  # or typed
    dice: list[int] | None = None  # a correction's right dice
    full: bool = False  # the answer carries the game's position


def _refusal(status: int, why: str, message: str, **more) -> JsonResponse:
    return JsonResponse({"ok": False, "why": why, "message": message, **more}, status=status)


def _phones_request(view):
    """A request of the phone's scripts: POST, signed in, and each refusal answered in JSON (a redirect to the
    login page or an error page is nothing the outbox reads). The outbox keeps its moves on a 403 or a 404
    (a session ended, a game it cannot reach now) and sends them again later."""

    @wraps(view)
    def wrapper(request, pk: int):
        if request.method != "POST":
            response = _refusal(405, "malformed", str(Malformed(_("it is not sent with POST."))))
            response["Allow"] = "POST"
            return response
        if not request.user.is_authenticated:
            again = _("You are logged out: log in again, and the moves waiting on this phone are sent.")
            return _refusal(403, "login", again)
        try:
            return view(request, pk)
        except Http404:
            return _refusal(404, "not_found", _("Page not found"))
        except PermissionDenied as e:
            return _refusal(403, "forbidden", str(e))

    return wrapper


def _body(request) -> dict:
    """The request's JSON object, refused (Malformed) before it is read when it is larger than
    ``MAX_BODY_BYTES`` or not sent as JSON, and when it holds what no database stores (NaN, a number too
    large, a control character: ``uploads``)."""
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if not (declared.isascii() and declared.isdigit()) or int(declared) > MAX_BODY_BYTES:
        raise Malformed(_("it is larger than %(size)s KB.") % {"size": MAX_BODY_BYTES // 1024})
    if request.content_type != "application/json":  # a form's body, read by Django already, or anything else
        raise Malformed(_("it is not a JSON object."))
    raw = request.body
    if len(raw) > MAX_BODY_BYTES:
        raise Malformed(_("it is larger than %(size)s KB.") % {"size": MAX_BODY_BYTES // 1024})
    try:
        body = uploads.json_object(raw)
        uploads.check_characters(body)
    except uploads.NotJSON as e:
        raise Malformed(str(e)) from None
    return body


def _whole_number(body: dict, field: str) -> int:
    """A whole number from 0 to the largest any column holds (``true`` is no number here)."""
    value = body.get(field)
    if type(value) is not int or not 0 <= value <= INTEGER_MAX:
        raise Malformed(_("“%(field)s” is missing or is not a whole number.") % {"field": field})
    return value


def _not_valid(field: str) -> Malformed:
    return Malformed(_("“%(field)s” is missing or is not valid.") % {"field": field})


def _move(body: dict) -> Move:
    """The request the body sends, checked as far as the rules do not: its request key as a form's is
    (``keys.client_key``: its length, no batch's mark), its kind; a move's one to ``MAX_EVENTS`` events, each
    an object, never the director's stop (his to enter, from the table's page); an undo's reason, a
    correction's two dice."""
    key = body.get("client_key")
    if not isinstance(key, str):
        raise _not_valid("client_key")
    try:
        key = client_key(body)
    except ActionError:
        raise _not_valid("client_key") from None
    if key is None:
        raise _not_valid("client_key")
    kind = body.get("kind", "move")
    if kind not in KINDS:
        raise _not_valid("kind")
    seen = body.get("seen", "")
    if not isinstance(seen, str) or len(seen) > SEEN_LENGTH:
        raise _not_valid("seen")
    full = body.get("full", False)
    if not isinstance(full, bool):
        raise _not_valid("full")
    move = Move(
        key, _whole_number(body, "version"), [], _whole_number(body, "waiting"), seen, kind, full=full
    )
    if kind == "move":
        move.events = _events(body)
    elif kind == "undo":
        move.quick, move.reason = _reason(body)
    else:
        dice = body.get("dice")
        if not (
            isinstance(dice, list) and len(dice) == 2 and all(type(d) is int and 1 <= d <= 6 for d in dice)
        ):
            raise _not_valid("dice")
        move.dice = dice
    return move


def _events(body: dict) -> list[dict]:
    events = body.get("events")
    if (
        not isinstance(events, list)
        or not 0 < len(events) <= MAX_EVENTS
        or not all(isinstance(e, dict) for e in events)
    ):
        raise Malformed(_("“events” is not a list of 1 to %(most)s moves.") % {"most": MAX_EVENTS})
    if any(is_directors_stop(e) for e in events):
        raise Malformed(_("the director's stop is entered from the table's page, not from a phone."))
    return events


def _reason(body: dict) -> tuple[str, str]:
    """An undo's reason: a code of the one-tap reasons, or words typed (checked by ``recording``)."""
    quick, reason = body.get("quick", ""), body.get("reason", "")
    if not isinstance(quick, str) or (quick and quick not in QUICK_REASONS):
        raise _not_valid("quick")
    if not isinstance(reason, str) or (quick and reason):
        raise _not_valid("reason")
    return quick, reason


def _last_seq(done: recording.Submitted) -> int:
    """The number of the last event the request entered: the answer's, or, for a request applied before, its
    batch's last (the first event keeps the request's key, each later one the key, a mark and its place)."""
    if not done.duplicate:
        return done.event.seq
    batch = same_request(done.event.client_key)
    return done.game.events.filter(batch).aggregate(last=Max("seq"))["last"]


def _stale(game: Game, seen: str) -> str:
    """Why a move made on an older version is refused, and what the other device did since the phone's panel
    ``seen`` was made (nothing said of it without that mark)."""
    lead = _("Another device changed the game meanwhile: this move was not applied.")
    return " ".join(filter(None, [lead, what_changed(game, seen)]))


@gzip_page  # (the game and its screen, to a phone whose rules do not run yet: 12-16 KB, sent in 2-4 KB)
@_phones_request
def sync(request, pk: int):
    """One request of the phone's outbox: done, or refused saying why; the phone's contact kept (the moves
    waiting on it, one fewer when this one was taken)."""
    try:
        move = _move(_body(request))
    except Malformed as e:
        return _refusal(400, "malformed", str(e))
    device = device_of(request)
    try:
        answer = DONE[move.kind](request, pk, move, device)
    except GameClosed as e:
        refused = _refusal(409, "closed", str(e))
    except StaleVersion as e:
        game = e.args[0]
        refused = _refusal(409, "stale", _stale(game, move.seen), version=game.version)
    except KeyReused as e:
        refused = _refusal(409, "reused", str(e))
    except RulesError as e:
        refused = _refusal(422, "refused", error_text(e))
    except LogError as e:
        detail = f" {error_text(e.rules_error)}" if e.rules_error else ""
        refused = _refusal(422, "refused", str(e) + detail)
    else:
        return answer
    record(pk, device, move.waiting)  # who may enter its moves was asked: only the move was refused
    # a move refused by the game (made on an older version, on a closed game, against the rules) is the
    # phone's ordinary answer, not a fault: told at INFO, not among the log's warnings
    log_response(
        "Move refused (%s): %s",
        refused.status_code,
        request.path,
        response=refused,
        request=request,
        level="info",
    )
    return refused


def _answer(request, game: Game, move: Move, **done) -> JsonResponse:
    """The outbox's answer to a request done: the game's version (and, with ``full``, its position)."""
    answer = {"ok": True, "version": game.version, **done}
    if move.full:
        answer["position"] = position(request, TITLED.get(pk=game.pk))
    return JsonResponse(answer)


def _moved(request, pk: int, move: Move, device: str) -> JsonResponse:
    with key_checked(pk, move.key), transaction.atomic():
        game = _game_for(request, pk, locking())
        done = recording.enter(
            game, move.events, version=move.version, user=request.user, client_key=move.key
        )
        record(game.pk, device, move.waiting - 1)
    return _answer(request, done.game, move, seq=_last_seq(done), duplicate=done.duplicate)


def _undone(request, pk: int, move: Move, device: str) -> JsonResponse:
    """The last move undone: this device's own with a reason chosen in one tap (``recording`` checks, the game
    locked, that this device entered it), any with a reason typed."""
    game = _game_for(request, pk, POLLED)
    how = {"reason": move.reason}
    if move.quick:
        how = {"reason": quick_reason(move.quick), "entered_with": key_start(device)}
    game = recording.undo_last(
        game.pk,
        version=move.version,
        user=request.user,
        client_key=move.key,
        directs=may_direct_game(request.user, game),
        **how,
    )
    record(game.pk, device, move.waiting - 1)
    return _answer(request, game, move)


def _corrected(request, pk: int, move: Move, device: str) -> JsonResponse:
    """The last move, a throw of this device's, undone with the reason "wrong dice" and entered again with
    the right dice (``correct_dice``); its request key must be this device's."""
    game = _game_for(request, pk, POLLED)
    if not entered_on(move.key, device):
        raise LogError(DAMAGED)
    done = correct_dice(
        game.pk,
        move.dice,
        version=move.version,
        user=request.user,
        reason=quick_reason("dice"),
        client_key=move.key,
        entered_with=key_start(device),
    )
    record(game.pk, device, move.waiting - 1)
    return _answer(
        request, done.game, move, seq=done.right.seq, wrong=done.wrong.seq, duplicate=done.duplicate
    )


#: What each kind of request does.
DONE = {"move": _moved, "undo": _undone, "dice": _corrected}


@_phones_request
def contact(request, pk: int):
    """The phone heard of, with the moves waiting on it (none: it is back online, all sent)."""
    try:
        waiting = _whole_number(_body(request), "waiting")
    except Malformed as e:
        return _refusal(400, "malformed", str(e))
    game = _game_for(request, pk, POLLED)
    record(game.pk, device_of(request), waiting)
    return HttpResponse(status=204)
