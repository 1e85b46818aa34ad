"""A round's tables as the director's round page shows them: who waits for what — results to confirm (and
whether this user may confirm them there), results a player disputes or whose signatures the tournament
waits for, tables at play with their game's round of play, tables not started, tables without a referee,
tables whose referee's phone holds moves not yet sent or has gone silent, the participants the round left
out — read in a fixed number of queries whatever the number of tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Exists, Max, OuterRef, Prefetch, Q, Subquery, Sum
from django.utils import timezone

from rules import RulesError
from rules.variants import make_variant
from tournament.errors import RoundError
from tournament.event import results, signatures
from tournament.event.rounds import order_of_play
from tournament.models import (
    AuditEntry,
    CheckIn,
    ConsoleContact,
    Game,
    GameEvent,
    Participant,
    Round,
    Table,
    TableResult,
)

#: What a table waits for (``Table.waits``), in the order the summary lists them.
EMPTY = "empty"  # nobody sits there: no result is needed
WAITING = "waiting"  # its game has not started
RUNNING = "running"  # its game is being played
TO_CONFIRM = "to_confirm"  # its game is over: the result is to be confirmed
SECOND = "second"  # confirmed once; the tournament asks another person to confirm it too
CONFIRMED = "confirmed"  # its result counts

#: A table at play whose referee's phone has not been heard of for this long is pointed out.
SILENT_AFTER = timedelta(minutes=3)
#: The moves a phone said were waiting on it count for this long after it said so: a phone given up (its
#: session ended, the referee logged in again on another) does not leave them on the page for the day; its
#: table then shows as silent since then.
WAITING_COUNTS = timedelta(minutes=30)


@dataclass
class Summary:
    """The round's tables by what they wait for (each a list of tables, in table order)."""

    to_confirm: list[Table] = field(default_factory=list)
    disputed: list[Table] = field(default_factory=list)  # a player disputes its figures: the director rules
    unsigned: list[Table] = field(default_factory=list)  # the tournament waits for players' signatures
    second: list[Table] = field(default_factory=list)
    running: list[Table] = field(default_factory=list)
    waiting: list[Table] = field(default_factory=list)
    no_referee: list[Table] = field(default_factory=list)
    confirmed: list[Table] = field(default_factory=list)
    phone_waiting: list[Table] = field(default_factory=list)  # moves wait on its referee's phone
    phone_silent: list[Table] = field(default_factory=list)  # at play, its referee's phone not heard of
    with_players: int = 0  # the tables that need a result

    @property
    def all_done(self) -> bool:
        return self.with_players > 0 and len(self.confirmed) == self.with_players


def round_tables(round_: Round, user, director: bool) -> list[Table]:
    """The round's tables in table order, each with what the page shows of it: ``seats`` (with their roles,
    in the seating's order), ``order_of_play`` (its game's players, the first to play first:
    ``rounds.order_of_play``; empty before the game starts, the seating being no order of play),
    ``referee_list``, ``mine`` (``user`` referees it), ``result`` (the confirmed one, or None), ``counted``,
    ``waits`` (EMPTY … CONFIRMED), ``play_round`` / ``max_rounds`` (a game at play), ``ranking`` (a game
    over, not yet counted), ``refusal`` (why its result cannot be confirmed yet), ``disputes`` /
    ``unsigned`` / ``blocked`` (a game over: the players' signatures that dispute it, the names whose
    signature the tournament waits for, and what stops the confirmation until the director rules, in words:
    ``signatures.why_blocked``), ``may_confirm`` (``user`` may confirm it now, from the round page: the
    director or the table's referee, not twice the same person, nothing stopping it),
    ``no_referee`` (a table still to play or confirm that no referee has), ``phone_waiting`` /
    ``last_contact`` / ``phone_silent`` (its referee's phone: ``_phones``)."""
    tournament = round_.tournament
    tables = list(
        round_.tables.select_related("game")
        .prefetch_related(
            "seats__participant",
            "referees",
            "game__players__participant",
            Prefetch(
                "results",
                queryset=TableResult.objects.confirmed().with_scores(),
                to_attr="confirmed_results",
            ),
        )
        .order_by("number")
    )
    now = timezone.now()
    phones = _phones(round_, now)
    signed = signatures.current_at(tables)
    for t in tables:
        t.referee_list = list(t.referees.all())
        t.mine = user in t.referee_list
        game = t.game_or_none
        t.order_of_play = [] if game is None else order_of_play(game.players.all())
        t.result = t.confirmed_results[0] if t.confirmed_results else None
        t.counted = t.result is not None and t.result.counts(tournament)
        t.play_round = t.max_rounds = t.ranking = t.refusal = t.blocked = None
        t.disputes, t.unsigned = [], []
        t.waits = _waits(t, game)
        if t.waits == RUNNING:
            t.play_round, t.max_rounds = _round_of_play(game)
        elif t.waits == TO_CONFIRM:
            try:
                t.ranking = results.table_ranking(t, game)
            except RoundError as e:  # Anti-Monopoly Game B: the final rolls are still to be recorded
                t.refusal = str(e)
            players = {p.participant_id: p.name for p in sorted(game.players.all(), key=lambda p: p.seat)}
            players.pop(None, None)  # (a game of the console's own has players without a participant)
            mine = signed.get(t.pk, {})
            t.disputes = signatures.disputes(mine)
            t.unsigned = signatures.unsigned(tournament, players, mine)
            t.blocked = signatures.why_blocked(tournament, players, mine)
        elif t.waits == SECOND:  # the second person confirms the result as stored
            t.ranking = t.result.ranking
        confirmers = {t.result.confirmed_by_id, t.result.second_by_id} if t.result else set()
        t.may_confirm = (
            t.waits in (TO_CONFIRM, SECOND)
            and t.refusal is None
            and t.blocked is None
            and (director or t.mine)
            and user.pk not in confirmers
        )
        active = [u for u in t.referee_list if u.is_active]  # a deactivated one can no longer log in
        t.no_referee = not active and t.waits in (WAITING, RUNNING, TO_CONFIRM)
        t.phone_waiting, t.last_contact = phones.get(t.pk, (0, None))
        silent = t.last_contact is not None and now - t.last_contact > SILENT_AFTER
        t.phone_silent = t.waits == RUNNING and silent and not t.phone_waiting  # (a wait says when, itself)
    return tables


def _phones(round_: Round, now: datetime) -> dict[int, tuple[int, datetime]]:
    """For each table whose game a referee's phone reported to (``ConsoleContact``: the console's outbox,
    tournament/console/sync.py), in one query: the moves waiting on its phones, and their last contact — the
    latest report, or the latest move entered, if later (a phone back online enters its moves as the
    console's forms do, without reporting). A game no phone reported to is not here: its referee's console
    was online all along, and nothing tells a silent phone from a long trade."""
    latest_move = GameEvent.objects.filter(game=OuterRef("game_id")).order_by("-seq").values("entered_at")[:1]
    rows = (
        ConsoleContact.objects.filter(game__table__round=round_)
        .values("game_id", "game__table_id")
        .annotate(
            waiting=Sum("waiting", filter=Q(seen_at__gte=now - WAITING_COUNTS), default=0),
            reported=Max("seen_at"),
            moved=Subquery(latest_move),
        )
        .values_list("game__table_id", "waiting", "reported", "moved")
    )
    return {
        table: (waiting, max(reported, moved) if moved is not None else reported)
        for table, waiting, reported, moved in rows
    }


def not_seated(round_: Round) -> list[Participant]:
    """The participants still in the tournament at this round who sit at none of its tables (checked in too
    late, not at all, or added after the seating), by name, each with ``checked_in``: whether they checked
    in for this round (None: the tournament asks for no check-in). Not those the director marked absent
    there (left out on purpose, in the director's log), and nobody once the round is over (it can no longer
    be seated again)."""
    tournament, number = round_.tournament, round_.number
    if round_.status == Round.Status.FINISHED:
        return []
    marked_absent = AuditEntry.objects.filter(
        tournament=tournament,
        round_number=number,
        action=AuditEntry.Action.ABSENT,
        participant=OuterRef("pk"),
    )
    people = (
        tournament.participants.filter(Q(withdrawn_after__isnull=True) | Q(withdrawn_after__gte=number))
        .exclude(seats__table__round=round_)
        .exclude(Exists(marked_absent))
        .annotate(checked=Exists(CheckIn.objects.filter(participant=OuterRef("pk"), round_number=number)))
        .order_by("name", "club", "pk")
    )
    out = list(people)
    for p in out:
        p.checked_in = p.checked if tournament.check_in else None
    return out


def _waits(t: Table, game: Game | None) -> str:
    if t.counted:
        return CONFIRMED
    if t.result is not None:
        return SECOND
    if game is None:
        return WAITING if t.seats.all() else EMPTY
    return TO_CONFIRM if game.status == Game.Status.FINISHED else RUNNING


def _round_of_play(game: Game) -> tuple[int | None, int | None]:
    """The game's round of play from its stored state, and its last round (None for a game without one)."""
    try:
        last = make_variant(game.variant, game.options).max_rounds
    except RulesError:
        last = None
    return game.state.get("round"), last


def summary(tables: list[Table]) -> Summary:
    s = Summary()
    for t in tables:
        if t.waits != EMPTY:
            s.with_players += 1
            if t.disputes:
                s.disputed.append(t)
            elif t.unsigned:
                s.unsigned.append(t)
            else:
                getattr(s, t.waits).append(t)
        if t.no_referee:
            s.no_referee.append(t)
        if t.phone_waiting:
            s.phone_waiting.append(t)
        if t.phone_silent:
            s.phone_silent.append(t)
    return s
