"""A screen gone stale: another device changed the game after this one's panel was shown, and a move or an
undo made on it was refused. The refusal says what the other device did, each move told as in the log
("#41 Anna rolls 3+4. …"), so the referee sees at once whether his move is already there.

Every form of the panel carries ``seen``: the next move number and the time (ms) the panel was made."""

from __future__ import annotations

from datetime import UTC, datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.games.messages import narration
from tournament.models import Game, GameEvent

MOVES_TOLD = 5  # the latest ones; more are counted


def seen_mark(game: Game) -> str:
    """What a panel made now has seen: the number the next move will get, and the time."""
    return f"{game.next_seq}.{int(timezone.now().timestamp() * 1000)}"


def _parse(seen: str) -> tuple[int, float] | None:
    seq, _dot, ms = (seen or "").partition(".")
    digits = seq.isascii() and seq.isdigit() and ms.isascii() and ms.isdigit()
    if not (digits and len(seq) < 10 and len(ms) < 14):  # milliseconds up to the year 2286
        return None
    return int(seq), int(ms) / 1000


def _told(row: GameEvent) -> str:
    told = " ".join([f"#{row.seq}", *(narration(row) or [row.data.get("type", "")])]).strip()
    if row.status != GameEvent.Status.ACTIVE:  # entered, and taken back since
        told += f" ({GameEvent.Status(row.status).label})"
    return told


def _listed(rows: list[GameEvent]) -> str:
    told = [_told(r) for r in rows[-MOVES_TOLD:]]
    more = len(rows) - len(told)
    if more:
        told.insert(0, ngettext("(%(n)s earlier move)", "(%(n)s earlier moves)", more) % {"n": more})
    return " · ".join(told)


def what_changed(game: Game, seen: str) -> str:
    """What the other device did since the panel ``seen`` was made: the moves it entered, the moves it took
    back; "" when that is not known (a form of before this was added, or garbled)."""
    parsed = _parse(seen)
    if parsed is None:
        return ""
    next_seq, since = parsed
    try:
        at = datetime.fromtimestamp(since, tz=UTC)
    except (ValueError, OverflowError, OSError):  # a time no panel was made at
        return ""
    entered = list(game.events.filter(seq__gte=next_seq).order_by("seq"))
    taken_back = list(
        game.events.filter(seq__lt=next_seq, changed_at__gte=at)
        .exclude(status=GameEvent.Status.ACTIVE)
        .order_by("seq")
    )
    parts = []
    if entered:
        parts.append(_("The other device entered: %(moves)s") % {"moves": _listed(entered)})
    if taken_back:
        parts.append(_("The other device took back: %(moves)s") % {"moves": _listed(taken_back)})
    return " ".join(parts)
