"""What the tournament director does when a table cannot go as seated: a player absent from his table,
withdrawn from the tournament, moved to another table; a round seated again; a game stopped; a table's result
entered by hand (a table that played on paper, a device that died). Each is audited: who, when, why
(``AuditEntry``), and the standings follow from the results as always.

Changes lock in the order every change uses (round → table → game): a start, a move or a result at the same
table waits, and then sees what was changed.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from rules import RulesError, get_board, make_variant
from rules.roles import MONOPOLIST
from rules.standings import placement_points
from tournament.errors import RoundError
from tournament.event.audit_log import audit
from tournament.event.results import finish_round_if_done, result_written
from tournament.event.rounds import referees_by_number, seat_tables
from tournament.event.table_locks import current_result, lock_table
from tournament.games import recording
from tournament.models import AuditEntry, Game, Participant, Round, Seat, Table, TableResult, Tournament
from tournament.models.bounds import INTEGER_MAX
from tournament.reasons import director_reason

Action = AuditEntry.Action
#: The highest score a result typed by hand may give (far above any Monopoly net worth: a typing error).
MAX_SCORE = 10**9


def _open_table(table: Table) -> tuple[Round, Table]:
    """Lock the table's round and the table; refuse once its game has started or the round is over."""
    round_, table, game = lock_table(table)
    if round_.status == Round.Status.FINISHED:
        raise RoundError(_("Round %(n)s is over: its tables are fixed.") % {"n": round_.number})
    if game is not None:
        raise RoundError(
            _("The game at table %(n)s has started: its players are fixed.") % {"n": table.number}
        )
    if current_result(table) is not None:  # entered by hand: the result names the players it had
        raise RoundError(
            _("Table %(n)s has a confirmed result: its players are fixed (reopen the result first).")
            % {"n": table.number}
        )
    return round_, table


def _renumber(table: Table) -> None:
    seats = list(table.seats.order_by("order", "pk"))
    for i, s in enumerate(seats):
        s.order = i
    Seat.objects.bulk_update(seats, ["order"])


@transaction.atomic
def mark_absent(table: Table, participant: Participant, user, reason: str) -> None:
    """The participant does not play at this table this round (he stays in the tournament): the table starts
    without him."""
    reason = director_reason(reason)
    round_, table = _open_table(table)
    deleted, _n = Seat.objects.filter(table=table, participant=participant).delete()
    if not deleted:
        raise RoundError(_("%(name)s is not seated at this table.") % {"name": participant})
    _renumber(table)
    audit(table, Action.ABSENT, user, reason, participant)


@transaction.atomic
def withdraw(participant: Participant, user, reason: str) -> None:
    """Withdraw from the tournament: not seated again; earlier results stay in the standings. Seated in a
    round not over, he leaves his table there too — before its game starts (a game in play is finished
    first)."""
    reason = director_reason(reason)
    if not Participant.objects.select_for_update().get(pk=participant.pk).active:  # read again, locked
        raise RoundError(_("%(name)s has already withdrawn.") % {"name": participant})
    t = participant.tournament
    seats = list(
        Seat.objects.filter(participant=participant, table__round__tournament=t)
        .exclude(table__round__status=Round.Status.FINISHED)
        .select_related("table__round")
    )
    last = t.round_set.order_by("-number").first()
    withdrawn_after = last.number if last else 0
    for seat in seats:
        table = seat.table
        _open_table(table)  # refuses once the game there has started
        seat.delete()
        _renumber(table)
        withdrawn_after = min(withdrawn_after, table.round.number - 1)
    participant.withdrawn_after = withdrawn_after
    participant.save(update_fields=["withdrawn_after"])
    where = seats[0].table if seats else last
    if where is None:  # before any round: nothing to place the entry in but the tournament
        AuditEntry.objects.create(
            tournament=t, participant=participant, action=Action.WITHDRAW, reason=reason, user=user
        )
    else:
        audit(where, Action.WITHDRAW, user, reason, participant)


@transaction.atomic
def move(participant: Participant, round_: Round, to_table: int, user, reason: str) -> Table:
    """Move a seated participant to another table of the round (or to a new one: the next number), before
    either game starts."""
    reason = director_reason(reason)
    seat = (
        Seat.objects.select_related("table__round__tournament")
        .filter(table__round=round_, participant=participant)
        .first()
    )
    if seat is None:
        raise RoundError(_("%(name)s is not seated in this round.") % {"name": participant})
    last = round_.tables.aggregate(n=Max("number"))["n"] or 0
    if not 1 <= to_table <= last + 1:
        raise RoundError(_("Choose a table from 1 to %(n)s.") % {"n": last + 1})
    if to_table == seat.table.number:
        raise RoundError(_("%(name)s already sits at table %(n)s.") % {"name": participant, "n": to_table})
    source = seat.table
    target = round_.tables.filter(number=to_table).first()
    if target is None:
        target = Table.objects.create(round=round_, number=to_table)
    first, second = sorted([source, target], key=lambda x: x.pk)  # always the same order: no deadlock
    _open_table(first)
    _open_table(second)
    order = (target.seats.aggregate(n=Max("order"))["n"] or -1) + 1
    Seat.objects.filter(pk=seat.pk).update(table=target, order=order)
    _renumber(source)
    audit(source, Action.MOVE, user, reason, participant, to_table=to_table)
    return target


@transaction.atomic
def set_referees(round_: Round, chosen: dict[int, list]) -> None:
    """Give the tables numbered in ``chosen`` those referees (each table's game too); the round's other tables
    keep theirs. A deactivated account stays at a table whose game has started (the round page offers active
    accounts only, and the sheets keep the name of who refereed); from a table still to play he goes. The
    round and the tables are locked first, as a
    reseat or a table's start locks them: the referees go to the tables as they are then, and a game started
    meanwhile gets them too."""
    Round.objects.select_for_update(of=("self",)).get(pk=round_.pk)
    tables = list(Table.objects.select_for_update(of=("self",)).filter(round=round_, number__in=list(chosen)))
    games = {g.table_id: g for g in Game.objects.at_tables(tables)}
    for t in tables:
        kept = t.referees.filter(is_active=False) if t.pk in games else []  # he refereed that game
        referees = [*chosen[t.number], *kept]
        t.referees.set(referees)
        if t.pk in games:
            games[t.pk].referees.set(referees)


@transaction.atomic
def reseat(round_: Round, user, reason: str) -> Round:
    """Seat the round again from the participants active now (after withdrawals, late arrivals), while no
    game of the round has started and no result is in. The referees stay at their table numbers."""
    reason = director_reason(reason)
    # the tournament's row first, as a seating and a check-in lock it: the check-ins read are all committed
    Tournament.objects.select_for_update(no_key=True).filter(pk=round_.tournament_id).first()
    round_ = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_.pk)
    if round_.status == Round.Status.FINISHED:
        raise RoundError(_("Round %(n)s is over: its tables are fixed.") % {"n": round_.number})
    tables = list(Table.objects.select_for_update(of=("self",)).filter(round=round_))
    if Game.objects.at_tables(tables).exists() or TableResult.objects.at_tables(tables).exists():
        raise RoundError(_("A game of this round has started: the round can no longer be seated again."))
    referees = referees_by_number(round_)
    Table.objects.filter(round=round_).delete()
    round_.seed = round_.seed % INTEGER_MAX + 1  # another draw (the column holds no more)
    seat_tables(round_, referees)
    audit(round_, Action.RESEAT, user, reason)
    return round_


def stop_game(table: Table, user, reason: str) -> Game:
    """The director stops the table's game (a game without a time limit, or one the schedule cannot wait
    for): a ``time_up`` with ``now`` — it ends at once, scored as at a time limit (RULES.md §4). Checked with
    the game locked: a move at the table waits, and a second stop at once is told the game is over."""
    reason = director_reason(reason)
    with transaction.atomic():
        _round, table, game = lock_table(table)
        if game is None:
            raise RoundError(_("This table's game has not started."))
        if game.status == Game.Status.FINISHED:
            raise RoundError(_("The game is already over."))
        recording.submit(game.pk, {"type": "time_up", "now": True}, version=None, user=user)
        audit(table, Action.END_GAME, user, reason)
    return game


def table_players(table: Table) -> list[tuple[int, str, str]]:
    """(participant id, name, role) of who plays at the table: the game's players once it started (some
    seated may have been absent), else those seated."""
    game = Game.objects.at(table).first()
    if game is not None:
        return [(p.participant_id, p.name, p.role) for p in game.players.all() if p.participant_id]
    return [
        (s.participant_id, s.participant.shown_name, s.role)
        for s in table.seats.select_related("participant")
    ]


def bankrupt_players(table: Table) -> set[int]:
    """The participants who went bankrupt in the table's game (none without a game)."""
    game = Game.objects.at(table).first()
    if game is None:
        return set()
    bankrupt = {p.id for p in recording.current_state(game).players if p.bankrupt}
    return {p.participant_id for p in game.players.all() if p.pid in bankrupt and p.participant_id}


def score_ceiling(tournament, players: int) -> int:
    """The highest score a result typed by hand may give at a table of ``players``: ten times all the money
    and property the game starts with and could build (every player's starting cash, every square's printed
    price, every street built up to a hotel) — more is a typing error. ``MAX_SCORE`` if the board is gone."""
    try:
        board = get_board(tournament.board)
        variant = make_variant(tournament.variant, tournament.game_options())
    except RulesError:
        return MAX_SCORE
    levels = max(variant.hotel_level, variant.hotel_level_for(MONOPOLIST))
    worth = sum(sq.price + sq.house_cost * levels for sq in board.squares)
    return min(10 * (players * variant.starting_cash + worth), MAX_SCORE)


def hand_ranking(table: Table, places: dict[int, tuple[int, int]]) -> list[dict]:
    """The result rows from the places and scores the director typed, one per player of the table (the
    game's players if it started, else the seated ones); checked like the engine's ranking would be, and
    against the game where there is one (a bankrupt player scores 0, below every player still in)."""
    players = table_players(table)
    tournament = table.round.tournament
    return hand_rows(
        players,
        places,
        tournament.placement_points,
        ceiling=score_ceiling(tournament, len(players)),
        bankrupt=bankrupt_players(table),
    )


def hand_rows(
    players: list[tuple[int, str, str]],
    places: dict[int, tuple[int, int]],
    points,
    *,
    ceiling: int = MAX_SCORE,
    bankrupt: set[int] = frozenset(),
) -> list[dict]:
    """``hand_ranking`` of the table's ``players`` ((participant id, name, role)) with the tournament's
    placement ``points``; RoundError says what is wrong with the places and scores: places 1, 2, 2, 4 as the
    engine gives them, scores from 0 to ``ceiling``, a better place never with a lower score and a shared
    place with the same score (the engine ranks by score), the ``bankrupt`` at 0 below everyone still in."""
    if len(players) < 1:
        raise RoundError(_("Nobody plays at this table."))
    if set(places) != {pid for pid, _n, _r in players}:
        raise RoundError(_("Give each player of the table a place and a score."))
    ranks = sorted(rank for rank, _s in places.values())
    n = len(players)
    if any(not 1 <= r <= n for r in ranks):
        raise RoundError(_("Places are 1 to %(n)s.") % {"n": n})
    if any(r != i and r != ranks[i - 2] for i, r in enumerate(ranks, start=1)):  # 1, 2, 2, 4 as the engine
        raise RoundError(_("Places must be 1, 2, 3 … (tied players share a place and the next is skipped)."))
    if any(not 0 <= score <= ceiling for _rank, score in places.values()):
        raise RoundError(_("A score is a whole number from 0 to %(max)s.") % {"max": ceiling})
    names = {pid: name for pid, name, _r in players}
    ordered = sorted(places.items(), key=lambda item: item[1])
    for a, (rank_a, score_a) in ordered:
        for b, (rank_b, score_b) in ordered:
            if rank_a == rank_b and score_a != score_b:
                raise RoundError(
                    _(
                        "%(a)s and %(b)s share place %(place)s with different scores: tied players have "
                        "the same score."
                    )
                    % {"a": names[a], "b": names[b], "place": rank_a}
                )
            if rank_a < rank_b and score_a < score_b:
                raise RoundError(
                    _(
                        "%(a)s (place %(pa)s) scores less than %(b)s (place %(pb)s): a better place never "
                        "has a lower score."
                    )
                    % {"a": names[a], "pa": rank_a, "b": names[b], "pb": rank_b}
                )
    for pid in bankrupt & set(places):
        rank, score_ = places[pid]
        if score_ != 0:
            raise RoundError(_("%(name)s went bankrupt in the game: a score of 0.") % {"name": names[pid]})
        if any(places[other][0] >= rank for other in places if other not in bankrupt):
            raise RoundError(
                _("%(name)s went bankrupt in the game: ranked below every player still in.")
                % {"name": names[pid]}
            )
    rows = [
        {
            "participant": pid,
            "name": name,
            "rank": places[pid][0],
            "score": places[pid][1],
            "points": placement_points(places[pid][0], points),
            **({"role": role} if role else {}),
        }
        for pid, name, role in players
    ]
    return sorted(rows, key=lambda r: (r["rank"], r["name"]))


def reopened_places(table: Table) -> tuple[dict[int, tuple[int, int]], str]:
    """The places and scores of the table's result reopened last (and why it was entered by hand, if it
    was), to start a result typed by hand from: reopening loses nothing typed."""
    last = table.results.reopened().order_by("-reopened_at", "-pk").first()
    if last is None:
        return {}, ""
    places = {s.participant_id: (s.rank, s.score) for s in last.scores.all() if s.participant_id}
    return places, last.hand_reason


@transaction.atomic
def enter_result(table: Table, places: dict[int, tuple[int, int]], user, reason: str) -> TableResult:
    """The director enters the table's result by hand: confirmed by him (a second person confirms it too
    where the tournament asks for it), marked as entered by hand with why. A game left unfinished at the
    table becomes read-only with the result, like any confirmed game."""
    reason = director_reason(reason)
    round_, table, _game = lock_table(table)
    if current_result(table) is not None:
        raise RoundError(_("This table has a confirmed result: reopen it first."))
    result = TableResult.objects.create(
        table=table,
        ranking=hand_ranking(table, places),
        confirmed_by=user,
        by_hand=True,
        hand_reason=reason,
    )
    result_written(table, round_.tournament)
    audit(table, Action.HAND_RESULT, user, reason)
    finish_round_if_done(round_)
    return result
