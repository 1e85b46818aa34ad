"""Beside each player's cash on the console: what he owes or is owed, the banknotes he should hold
(``rules.banknotes``), and his last cash count with the moves since his count before that (where it differs).

The state holds no counts (they move nothing): the counts are found by replaying the game's moves, only when
it has any.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.banknotes import banknotes, signed
from rules.cash_counts import CashCounts, Count
from rules.messages import from_data
from rules.replay import replay
from rules.state import GameState
from tournament.games.log import active_events, record_header
from tournament.games.messages import message_text
from tournament.models import Game


def cash_lines(
    game: Game, state: GameState, names: dict[str, str], *, counted: bool | None = None
) -> dict[str, dict]:
    """Per player id: ``debt`` (what he owes) and ``owes_to`` (to whom), ``banknotes`` (what he should hold),
    ``owed`` (who owes him how much), ``owed_total``, ``owed_from`` and ``count`` (his last cash count, or
    None). ``counted``: whether an active move of the game is a cash count, when known (else asked)."""
    counts = last_counts(game, counted=counted)
    out = {}
    for pid, notes in banknotes(state).items():
        out[pid] = {
            "debt": notes.owes,
            "owes_to": owed_from([(names.get(to, _("the bank")), amount) for to, amount in notes.owes_to]),
            "banknotes": notes.expected,
            "owed": [{"name": names[debtor], "amount": amount} for debtor, amount in notes.owed],
            "owed_total": notes.owed_total,
            "owed_from": owed_from([(names[debtor], amount) for debtor, amount in notes.owed]),
            "count": counts.get(pid),
        }
    return out


def owed_from(debtors: list[tuple[str, int]]) -> str:
    """Who owes (or is owed): a name, or several with what each owes ("Bartek (30), Celina (30)"); nobody:
    ""."""
    if len(debtors) == 1:
        return debtors[0][0]
    return ", ".join(f"{name} ({amount})" for name, amount in debtors)


def cash_count_moves(game: Game):
    """The game's active moves that are cash counts (any makes the panel replay the game for the counts)."""
    return active_events(game).filter(data__type="cash_count")


def last_counts(game: Game, *, counted: bool | None = None) -> dict[str, dict]:
    """Each counted player's last count as the panel shows it, by player id (``counted``: as cash_lines)."""
    moves = active_events(game)
    if counted is None:
        counted = cash_count_moves(game).exists()
    if not counted:
        return {}
    rows = list(moves.values_list("seq", "data"))
    seqs = [seq for seq, _data in rows]
    record = {**record_header(game, game.players.order_by("seat")), "events": [data for _seq, data in rows]}
    counts = CashCounts()
    replay(record, counts, narrate=False, check_fit=False)  # the stored game replays (``moves.rebuild``)
    shown = {seqs[c.event] for count in counts.last.values() for c in count.changes}
    notes = dict(game.events.filter(seq__in=shown).values_list("seq", "notes"))
    return {
        pid: _count(count, seqs, notes, current=not counts.changed_since_last_count(pid))
        for pid, count in counts.last.items()
    }


def _count(count: Count, seqs: list[int], notes: dict[int, list], *, current: bool) -> dict:
    """``current``: no move has changed the player's banknotes since (the count still says how he stands)."""
    return {
        "seq": seqs[count.event],
        "current": current,
        "latest": count.event == len(seqs) - 1,
        "counted": count.counted,
        "expected": count.expected,
        "difference": count.difference,
        "signed_difference": signed(count.difference),
        "previous": None if count.previous is None else seqs[count.previous],
        "moves": [
            {
                "seq": seqs[c.event],
                "text": " ".join(message_text(from_data(n)) for n in notes.get(seqs[c.event], [])),
                "amount": signed(c.amount),
                "change": c.amount,
            }
            for c in reversed(count.changes)  # the latest first, as in the log
        ],
        "earlier": count.earlier,
    }
