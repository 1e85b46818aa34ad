"""Table results (the engine's ranking and final scores), their confirmation and reopening, and standings."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.scoring import ranking
from rules.valuation import net_worth
from tournament import moves
from tournament.models import Game, Round, Table, TableResult, Tournament
from tournament.rounds import RoundError
from tournament.standings import GameScore, Row, placement_points, standings


def table_ranking(table: Table) -> list[dict]:
    """From the finished game: rank (RULES.md §4), final score (net worth; 0 when bankrupt), points."""
    if table.game_id is None:
        raise RoundError(_("This table's game has not started."))
    game = Game.objects.get(pk=table.game_id)  # fresh: moves were entered since the table was read
    state = moves.current_state(game)
    if not state.finished:
        raise RoundError(_("The game is not over yet: finish it before confirming the result."))
    ranks = ranking(state)
    points = table.round.tournament.placement_points
    by_pid = {p.pid: p.participant_id for p in game.players.all()}
    rows = [
        {
            "participant": by_pid[p.id],
            "name": p.name,
            "rank": ranks[p.id],
            "score": 0 if p.bankrupt else net_worth(state, p.id),
            "points": placement_points(ranks[p.id], points),
        }
        for p in state.players
    ]
    return sorted(rows, key=lambda r: r["rank"])


def current_result(table: Table) -> TableResult | None:
    return table.results.filter(status=TableResult.Status.CONFIRMED).order_by("-confirmed_at").first()


def counts(result: TableResult | None, tournament: Tournament) -> bool:
    return result is not None and (not tournament.second_confirmation or result.second_by_id is not None)


@transaction.atomic
def confirm(table: Table, user) -> TableResult:
    """The referee confirms the result; with a second confirmation, another person confirms it too."""
    tournament = table.round.tournament
    result = current_result(table)
    if result is None:
        result = TableResult.objects.create(table=table, ranking=table_ranking(table), confirmed_by=user)
    elif tournament.second_confirmation and result.second_by_id is None:
        if result.confirmed_by_id == user.pk:
            raise RoundError(_("The second confirmation must come from another person."))
        result.second_by, result.second_at = user, timezone.now()
        result.save(update_fields=["second_by", "second_at"])
    else:
        raise RoundError(_("This result is already confirmed."))
    _finish_round_if_done(table.round)
    return result


@transaction.atomic
def reopen(table: Table, user, reason: str) -> None:
    """Only the director reopens a confirmed result; it stays in the history with who and why."""
    reason = (reason or "").strip()
    if not reason:
        raise RoundError(_("Say why the result is reopened."))
    result = current_result(table)
    if result is None:
        raise RoundError(_("There is no confirmed result to reopen."))
    result.status, result.reopened_by, result.reopened_at = TableResult.Status.REOPENED, user, timezone.now()
    result.reason = reason[:200]
    result.save()
    round_ = table.round
    if round_.status == Round.Status.FINISHED:
        round_.status = Round.Status.RUNNING
        round_.save(update_fields=["status"])


def _finish_round_if_done(round_: Round) -> None:
    tournament = round_.tournament
    if all(counts(current_result(t), tournament) for t in round_.tables.all()):
        round_.status = Round.Status.FINISHED
        round_.save(update_fields=["status"])


def game_scores(tournament: Tournament) -> list[GameScore]:
    scores = []
    results = TableResult.objects.filter(
        table__round__tournament=tournament, status=TableResult.Status.CONFIRMED
    )
    for result in results.select_related("table__round"):
        if not counts(result, tournament):
            continue
        for row in result.ranking:
            scores.append(
                GameScore(
                    row["participant"], result.table.round.number, row["rank"], row["score"], row["points"]
                )
            )
    return scores


def tournament_standings(tournament: Tournament) -> list[Row]:
    ids = list(tournament.participants.values_list("pk", flat=True))
    return standings(ids, game_scores(tournament), tournament.tie_breaks)
