"""Table results (the engine's ranking and final scores), their confirmation and reopening. The standings that
follow from them: ``tournament.event.current_standings``."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from rules import final_steps
from rules.scoring import ranking, score
from rules.standings import placement_points
from tournament.errors import RoundError
from tournament.event import signatures
from tournament.event.audit_log import audit
from tournament.event.table_locks import current_result, lock_table
from tournament.games import recording
from tournament.models import AuditEntry, Game, Round, Table, TableResult, Tournament
from tournament.models.announcements import announce
from tournament.models.standings_changes import standings_changed
from tournament.ratings import triggers
from tournament.ratings.rebuild import Point
from tournament.reasons import clean_reason


def table_ranking(table: Table, game: Game | None = None) -> list[dict]:
    """From the finished game: rank (RULES.md §4), final score (net worth; Anti-Monopoly: its ending's score;
    0 when bankrupt), points; the role where the game has roles."""
    game = game or Game.objects.at(table).first()  # fresh: moves were entered since it was read
    if game is None:
        raise RoundError(_("This table's game has not started."))
    by_pid = {p.pid: p.participant_id for p in game.players.all()}
    return game_ranking(recording.current_state(game), by_pid, table.round.tournament.placement_points)


def game_ranking(state, participants: dict, points) -> list[dict]:
    """The result rows of a game's final state (``table_ranking``): ``participants`` by player id, ``points``
    the tournament's placement points. RoundError while the game is not over."""
    if not state.finished:
        raise RoundError(_("The game is not over yet: finish it before confirming the result."))
    if state.variant.ending == "game_b" and final_steps.utilities_to_roll(state):
        raise RoundError(_("Anti-Monopoly Game B: record the final roll for each utility first (rule 25)."))
    ranks = ranking(state)
    rows = [
        {
            "participant": participants[p.id],
            "name": p.name,
            "rank": ranks[p.id],
            "score": 0 if p.bankrupt else score(state, p.id),  # RULES.md §4 for the game's variant and ending
            "points": placement_points(ranks[p.id], points),
            **({"role": p.role} if p.role else {}),
        }
        for p in state.players
    ]
    return sorted(rows, key=lambda r: (r["rank"], r["name"]))  # ties by name, as the reports list them


def result_written(table: Table, tournament: Tournament) -> None:
    """What a table's result written sets off; every writer of a result calls it, in its own transaction
    (``confirm``: confirmed and confirmed a second time; ``reopen``; ``interventions.enter_result``; the
    backup's restore does the same for a tournament's results at once):

    - the tournament's standings changed: a change row, the public page's version (``standings_changes``),
      and the tournament's stream told (its pages, the round page, the projector);
    - the table's stream told (its page, the referees' consoles, the players' phones);
    - the ratings rebuilt from this tournament on, once the transaction commits (``ratings.triggers``).

    A result is never deleted but with its tournament (whose own deletion rebuilds the ratings)."""
    standings_changed(tournament.pk)
    announce("table", table.pk)
    triggers.after_commit(Point.of_tournament(tournament))


@dataclass
class Confirmation:
    result: TableResult
    repeated: bool = False  # this person had already confirmed it: the request was a repeat (a double tap)


@transaction.atomic
def confirm(table: Table, user, *, ruling: str = "", directs: bool = False) -> Confirmation:
    """The referee confirms the result; with a second confirmation, another person confirms it too.

    A player's dispute of the figures stops the first confirmation, and so does a missing signature where the
    tournament requires them (``signatures.blocking``), until the director rules: ``ruling`` (said by one who
    ``directs`` the tournament), written in the director's log with the confirmation.

    The game is locked meanwhile (no move slips in between the ranking and the confirmation), and the database
    holds at most one confirmed result per table: a second "confirm" at once is answered, not stored twice.
    """
    round_, table, game = lock_table(table)
    tournament = round_.tournament
    result = current_result(table)
    if result is None:
        _rule_if_needed(tournament, table, game, user, ruling, directs)
        result = TableResult.objects.create(
            table=table, ranking=table_ranking(table, game), confirmed_by=user
        )
    elif user.pk in (result.confirmed_by_id, result.second_by_id):
        return Confirmation(result, repeated=True)
    elif tournament.second_confirmation and result.second_by_id is None:
        result.second_by, result.second_at = user, timezone.now()
        result.save(update_fields=["second_by", "second_at"])
    else:
        raise RoundError(_("This result is already confirmed."))
    result_written(table, tournament)
    finish_round_if_done(round_)
    return Confirmation(result)


def _rule_if_needed(tournament: Tournament, table: Table, game, user, ruling: str, directs: bool) -> None:
    """What stops the confirmation (a dispute, missing signatures) answered by the director's ruling, logged;
    RoundError without one."""
    why = signatures.blocking(tournament, table, game)
    if why is None:
        return
    if not directs:
        raise RoundError(why)
    confirm = _("Confirm it with your ruling.")  # (not inside the f-string: makemessages would not find it)
    ruling = clean_reason(ruling, missing=f"{why} {confirm}", error=RoundError)
    audit(table, AuditEntry.Action.RULING, user, ruling, stopped=why)


@transaction.atomic
def reopen(table: Table, user, reason: str) -> None:
    """Only the director reopens a confirmed result; it stays in the history with who and why."""
    reason = clean_reason(reason, missing=_("Say why the result is reopened."), error=RoundError)
    round_, table, _game = lock_table(table)
    result = current_result(table)
    if result is None:
        raise RoundError(_("There is no confirmed result to reopen."))
    result.status, result.reopened_by, result.reopened_at = TableResult.Status.REOPENED, user, timezone.now()
    result.reason = reason
    result.save()
    result_written(table, round_.tournament)
    if round_.status == Round.Status.FINISHED:
        round_.status = Round.Status.RUNNING
        round_.save(update_fields=["status"])


def finish_round_if_done(round_: Round) -> None:
    """The round is over once every table with players has a counted result (a table its players all left,
    absent or moved, has none to wait for)."""
    tables = round_.tables.filter(Q(seats__isnull=False) | Q(game__isnull=False)).distinct()
    if not tables.exclude(results__in=TableResult.objects.counted()).exists():
        round_.status = Round.Status.FINISHED
        round_.save(update_fields=["status"])
