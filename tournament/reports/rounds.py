"""The reports of many tables at once: a round's, a participant's (his games alone), the whole tournament's
(the director's sheets and workbook) — every table with its game replayed, the database read in a few queries
in all."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Max, Q

from tournament.event.rounds import order_of_play
from tournament.event.signatures import current_at
from tournament.games.log import record_header
from tournament.models import (
    AuditEntry,
    Game,
    GameEvent,
    GamePlayer,
    Participant,
    Round,
    Seat,
    Table,
    TableResult,
    Tournament,
)
from tournament.reports.games import GameReport, game_report_from_record
from tournament.reports.standings import StandingsRow, standings_rows
from tournament.reports.tables import Absence, Ruling, Signed, Stop, TableReport, final_rows, person_name


@dataclass
class RoundReport:
    round: Round
    tables: list[TableReport] = field(default_factory=list)


@dataclass
class TournamentReport:
    """Everything: the standings, and every table of every round with its game replayed (the director's
    sheets and workbook)."""

    tournament: Tournament
    rounds: list[RoundReport]
    standings: list[StandingsRow]

    @property
    def games(self) -> list[GameReport]:
        return [t.game for r in self.rounds for t in r.tables if t.game is not None]

    @property
    def round_numbers(self) -> list[int]:
        return [r.round.number for r in self.rounds]


def table_report(table: Table) -> TableReport:
    """The table's report; ``Table.DoesNotExist`` when the table is gone since it was read (its round was
    seated again meanwhile: the new seating has new tables)."""
    tables = round_report(table.round, only=table).tables
    if not tables:
        raise Table.DoesNotExist(f"table {table.pk} was seated again")
    return tables[0]


def round_report(round_: Round, *, only: Table | None = None) -> RoundReport:
    among = None if only is None else Table.objects.filter(pk=only.pk)
    return _rounds(round_.tournament, Round.objects.filter(pk=round_.pk), among=among)[0]


def participant_rounds(participant: Participant) -> list[RoundReport]:
    """Every round, with the tables the participant sits at or whose game he played in (his results, his
    income/cost cards): only his games are replayed, not the whole tournament's."""
    tournament = participant.tournament
    his = Q(seats__participant=participant) | Q(game__players__participant=participant)
    among = Table.objects.filter(his)
    return _rounds(tournament, tournament.round_set.all(), among=among)


def tournament_report(tournament: Tournament) -> TournamentReport:
    rounds = _rounds(tournament, tournament.round_set.all())
    return TournamentReport(tournament, rounds, standings_rows(tournament))


def _rounds(tournament: Tournament, rounds, *, among=None) -> list[RoundReport]:
    """Every table of these rounds (of those ``among``, a query of tables, when given) with its game
    replayed; the database read in a few queries in all."""
    tables = (
        Table.objects.filter(round__in=rounds).select_related("round").order_by("round__number", "number")
    )
    if among is not None:
        tables = tables.filter(pk__in=among.values("pk"))
    tables = list(tables.prefetch_related("seats__participant", "referees"))
    games = {g.table_id: g for g in Game.objects.at_tables(tables)}
    players = defaultdict(list)
    for p in GamePlayer.objects.filter(game__in=games.values()).order_by("game", "seat"):
        players[p.game_id].append(p)
    events = defaultdict(list)
    active = GameEvent.objects.filter(game__in=games.values()).active()
    for game_id, seq, data in active.order_by("game", "seq").values_list("game", "seq", "data"):
        events[game_id].append((seq, data))
    confirmed = {
        r.table_id: r
        for r in TableResult.objects.at_tables(tables)
        .confirmed()
        .select_related("confirmed_by", "second_by")
        .with_scores()
    }
    absent, stops, rulings = _director_log(tournament, tables)
    reopened = dict(
        TableResult.objects.at_tables(tables)
        .filter(reopened_at__isnull=False)
        .values("table_id")
        .annotate(last=Max("reopened_at"))
        .values_list("table_id", "last")
    )
    signed = current_at(tables)
    by_round: dict[int, RoundReport] = {r.pk: RoundReport(r) for r in rounds.order_by("number")}
    for t in tables:
        game = games.get(t.pk)
        report = None
        if game is not None:
            game.table = t  # known: an output naming the game's round and table reads no more
            log = events[game.pk]
            record = {
                **record_header(game, players[game.pk]),
                "events": [data for _seq, data in log],
            }
            report = game_report_from_record(
                game, record, players[game.pk], [seq for seq, _data in log], tournament.placement_points
            )
        result = confirmed.get(t.pk)
        words = signed.get(t.pk, {})
        seated_players = players[game.pk] if game is not None else []
        seats = list(t.seats.all())
        seated = [s.participant for s in seats]
        roles = {s.participant_id: s.role for s in seats if s.role}
        away = absent.get(t.pk, [])
        final, source = final_rows(result, report, seated, roles, away)
        by_round[t.round_id].tables.append(
            TableReport(
                table=t,
                seated=seated,
                referees=[person_name(u) for u in t.referees.all()],
                game=report,
                result=result,
                counted=result is not None and result.counts(tournament),
                roles=roles,
                absent=away,
                stop=stops.get(t.pk) if report is not None and report.stopped else None,
                ruling=_ruling_of(rulings.get(t.pk), result, reopened.get(t.pk)),
                # each under the name the game gives them (a namesake: with the club), as the sheet prints it
                signed=[
                    Signed(p.name, words[p.participant_id].agrees, words[p.participant_id].reason)
                    for p in seated_players
                    if p.participant_id in words
                ],
                final=final,
                source=source,
                order_of_play=[p.participant_id for p in order_of_play(players[game.pk])] if game else [],
            )
        )
    return list(by_round.values())


def _ruling_of(ruling: Ruling | None, result: TableResult | None, reopened: datetime | None) -> Ruling | None:
    """The director's ruling on the table's result as it counts now: none once a result confirmed by a ruling
    was reopened (a later confirmation needed none, or has a ruling of its own, the latest)."""
    if ruling is None or result is None or (reopened is not None and ruling.at <= reopened):
        return None
    return ruling


def _director_log(tournament: Tournament, tables: list[Table]):
    """From the director's log, per table: who was marked absent there (and is at no table of the round
    now: a round seated again, or a move, makes an older entry void), why its game was stopped, and his
    ruling on its result (the latest)."""
    numbers = {t.round.number for t in tables}
    entries = list(
        AuditEntry.objects.filter(
            tournament=tournament,
            round_number__in=numbers,
            action__in=[
                AuditEntry.Action.ABSENT,
                AuditEntry.Action.END_GAME,
                AuditEntry.Action.RESEAT,
                AuditEntry.Action.RULING,
            ],
        )
        .select_related("participant", "user")
        .order_by("at", "pk")
    )
    if not entries:
        return {}, {}, {}
    # who is at a table of those rounds now: seated there, or playing in its game
    present: dict[int, set] = defaultdict(set)
    rows = Seat.objects.filter(table__round__tournament=tournament, table__round__number__in=numbers)
    for number, pid in rows.values_list("table__round__number", "participant_id"):
        present[number].add(pid)
    rows = GamePlayer.objects.filter(
        game__table__round__tournament=tournament, game__table__round__number__in=numbers
    )
    for number, pid in rows.values_list("game__table__round__number", "participant_id"):
        present[number].add(pid)
    by_number = {(t.round.number, t.number): t.pk for t in tables}
    absent: dict[int, dict[int, Absence]] = defaultdict(dict)
    stops: dict[int, Stop] = {}
    rulings: dict[int, Ruling] = {}
    for e in entries:
        if e.action == AuditEntry.Action.RESEAT:  # the round seated again: earlier absences are void
            for (number, _n), pk in by_number.items():
                if number == e.round_number:
                    absent.pop(pk, None)
            continue
        pk = by_number.get((e.round_number, e.table_number))
        if pk is None:
            continue
        if e.action == AuditEntry.Action.END_GAME:
            stops[pk] = Stop(e.reason, person_name(e.user))
        elif e.action == AuditEntry.Action.RULING:
            rulings[pk] = Ruling(e.reason, person_name(e.user), (e.details or {}).get("stopped", ""), e.at)
        elif e.participant is not None and e.participant_id not in present[e.round_number]:
            absent[pk][e.participant_id] = Absence(e.participant, e.reason)
    return {pk: list(a.values()) for pk, a in absent.items()}, stops, rulings
