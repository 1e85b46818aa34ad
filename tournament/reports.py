"""What a game, a table, a round and a tournament report: the figures every page, score sheet and workbook
shows, gathered once per request.

The engine and the ledger are the only source of figures: each game is replayed once (movements posted to
the ledger as they come, nothing kept per event), and everything else — net-worth parts, income/cost cards,
the net worth turn by turn — is read off that replay. The outputs (``tournament.exports``) and the pages only
lay these out. What needs no game's moves replays none: the standings (``standings_report``,
``standings_rows``) are read from the counted results' stored scores, whatever the number of moves played —
the public pages and the standings PDF read them; a participant's cards replay his games only
(``participant_rounds``).

A table's final figures (rank, score, points) have one source, ``TableReport.final`` (``final_rows``): the
confirmed result's stored ranking when there is one — the very rows the standings count — else the finished
game's ranking made by ``results.game_ranking`` (the code that makes the stored one; provisional until
confirmed), else none yet. A player the director marked absent from the table is listed too: not ranked,
0 points (RULES.md is silent; decision, docs/director.md).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Max, Q
from django.utils.translation import gettext, ngettext

from ledger import Ledger
from rules import replay
from rules.banknotes import signed
from rules.cash_counts import CashCounts
from rules.movements import BANK
from rules.scoring import ranking, score
from rules.standings import placement_points
from rules.time_limits import ended_by_stop
from rules.valuation import NetWorth, net_worth_parts
from tournament.boards.words import square_name
from tournament.collation import name_key
from tournament.errors import RoundError
from tournament.event.current_standings import tournament_standings
from tournament.event.results import game_ranking
from tournament.event.rounds import order_of_play
from tournament.event.signatures import current_at
from tournament.games import recording
from tournament.games.messages import message_text
from tournament.labels import OPERATIONS, end_reason_text
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
from tournament.people.referee_accounts import display_name


def stopped_text(stop: Stop | None) -> str:
    """A game the director stopped, in words: who and why when the log says (an imported record may hold a
    stop of its own)."""
    if stop is None:
        return gettext("stopped by the director")
    return gettext("stopped by the director %(name)s: “%(reason)s”") % {
        "name": stop.by,
        "reason": stop.reason,
    }


def end_text(t: TableReport) -> str:
    """How the table's game ended (or stands), in words: the result sheet's and the workbook's."""
    game = t.game
    by_hand = t.result is not None and t.result.by_hand
    if game is None:
        if by_hand:
            return gettext("no game in the app: the result was entered by hand")
        return gettext("not started")
    if game.error is not None:
        return gettext("the game record does not replay: %(error)s") % {"error": game.error}
    if not game.finished:
        if by_hand:  # the game was left in the app; the figures that count are the ones typed
            left = gettext("left in the app at round %(n)s: the result was entered by hand")
            return left % {"n": game.round}
        return gettext("in play, round %(n)s") % {"n": game.round}
    end = stopped_text(t.stop) if game.stopped else end_reason_text(game.end_reason)
    if by_hand:
        return gettext("%(end)s; the result was entered by hand") % {"end": end}
    return end


def duration_text(duration: timedelta | None) -> str:
    """A game's length as people say it: "1 h 05 min", "45 min"."""
    if duration is None:
        return ""
    minutes = max(int(duration.total_seconds()) // 60, 0)
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return ngettext("%(m)s min", "%(m)s min", minutes) % {"m": minutes}
    return gettext("%(h)s h %(m)02d min") % {"h": hours, "m": minutes}


def person_name(user) -> str:
    """An account as pages and sheets name it (``referee_accounts.display_name``; "" for none)."""
    return "" if user is None else display_name(user)


@dataclass(frozen=True)
class LedgerLine:
    """One operation of a participant's income/cost card (004); ``balance`` is the equity after it."""

    seq: int  # the move's number in the game's log
    round: int
    operation: str
    square: str
    cash: int
    income: int
    cost: int
    balance: int


@dataclass(frozen=True)
class CashCountReport:
    """A player's last cash count (``rules.cash_counts``): the move's number, what was counted and
    expected."""

    seq: int
    counted: int
    expected: int

    @property
    def difference(self) -> int:
        return self.counted - self.expected

    @property
    def signed_difference(self) -> str:
        return signed(self.difference)


@dataclass
class PlayerReport:
    id: str
    name: str
    participant_id: int | None
    worth: NetWorth  # the net worth's parts (RULES.md §3); worth.total is the net worth
    bankrupt: bool
    starting_cash: int
    income: int
    cost: int
    lines: list[LedgerLine]
    series: list[int]  # net worth at the start and after every turn (0 once bankrupt)
    rank: int | None = None  # once the game is over (RULES.md §4)
    points: int | None = None  # placement points at a tournament table
    role: str = ""  # Anti-Monopoly: competitor / monopolist
    game_score: int | None = None  # what ranks him (RULES.md §4): the net worth, or Anti-Monopoly's measure
    cash_count: CashCountReport | None = None  # his last cash count, if the referee counted his banknotes

    @property
    def score(self) -> int:
        """The game's final score (as the standings count it): 0 when bankrupt."""
        if self.bankrupt:
            return 0
        return self.worth.total if self.game_score is None else self.game_score

    @property
    def balance(self) -> int:
        """starting cash + income − cost (RULES.md §2): equals the net worth while the player is in."""
        return self.starting_cash + self.income - self.cost


@dataclass(frozen=True)
class EventReport:
    seq: int
    round: int
    player: str  # the name of who acted ("" for time_up)
    type: str
    text: str  # what it did, in the user's language
    cash: dict[str, int]  # player id -> cash received (+) / paid (−)


@dataclass
class GameReport:
    game: Game
    players: list[PlayerReport]  # in seat order
    events: list[EventReport]
    turn_rounds: list[int]  # the round of each point of the players' series (0: the start)
    finished: bool
    end_reason: str | None
    round: int
    error: str | None = None  # the log does not replay (never for a game entered through the console)
    #: The result rows of the finished game (``results.game_ranking``, what a confirmation stores); None
    #: while it is not over, or outside a tournament (no placement points).
    ranking: list[dict] | None = None
    waiting: str | None = None  # why a finished game has no ranking yet (Game B: the utilities' final rolls)
    stopped: bool = False  # the director stopped it (a ``time_up`` with ``now``): no time limit ran out
    started_at: datetime | None = None  # the first move (or, before it, when the game was started)
    ended_at: datetime | None = None  # the move that ended it

    @property
    def ranked(self) -> list[PlayerReport]:
        return sorted(self.players, key=lambda p: (p.rank or 0, name_key(p.name)))

    @property
    def duration(self) -> timedelta | None:
        if self.started_at is None or self.ended_at is None:
            return None
        return self.ended_at - self.started_at


@dataclass(frozen=True)
class FinalRow:
    """One person of a table as every output shows him (``final_rows``): rank, score and points (None while
    the table has none), his role, whether he went bankrupt or was absent; ``player`` is his player in the
    game's replay (the net worth's parts), when the table has a game."""

    participant: int | None
    name: str
    role: str = ""
    rank: int | None = None
    score: int | None = None
    points: int | None = None
    bankrupt: bool = False
    absent: bool = False
    player: PlayerReport | None = None


@dataclass(frozen=True)
class Absence:
    participant: Participant
    reason: str  # why, as the director typed it


@dataclass(frozen=True)
class Stop:
    """The director stopped the table's game: why, and who."""

    reason: str
    by: str


@dataclass(frozen=True)
class Ruling:
    """The director confirmed the table's result over a dispute or missing signatures: his ruling, who he
    is, and what had stopped the confirmation."""

    reason: str
    by: str
    stopped: str
    at: datetime


@dataclass(frozen=True)
class Signed:
    """A player's word on the table's figures as they are (his latest signature on the game's version)."""

    name: str
    agrees: bool
    reason: str


#: Where a table's final figures come from (``TableReport.source``).
FROM_RESULT, FROM_GAME = "result", "game"


@dataclass
class TableReport:
    table: Table
    seated: list[Participant]
    referees: list[str]
    game: GameReport | None
    result: TableResult | None  # the confirmed result, if any
    counted: bool  # the result counts in the standings (confirmed, and seconded where required)
    roles: dict[int, str] = field(default_factory=dict)  # seated participant -> role (Anti-Monopoly)
    absent: list[Absence] = field(default_factory=list)
    stop: Stop | None = None
    ruling: Ruling | None = None
    #: The players' signatures on the game as it is, in seat order (none: nobody signed).
    signed: list[Signed] = field(default_factory=list)
    #: Every person of the table, ranked first (``final_rows``), the absent last.
    final: list[FinalRow] = field(default_factory=list)
    source: str | None = None  # FROM_RESULT (confirmed), FROM_GAME (provisional) or None: no figures yet
    #: The participants' ids in the order of play of the table's game (``rounds.order_of_play``: the order
    #: the referee gave at its start, the first to play first); empty before it starts. ``seated`` is the
    #: seating's order, no order of play.
    order_of_play: list[int | None] = field(default_factory=list)

    @property
    def provisional(self) -> bool:
        return self.source == FROM_GAME

    def place(self, participant: Participant) -> int | None:
        """His place in the order of play (1: he plays first); None before the game starts (or when he is
        not one of its players)."""
        if participant.pk not in self.order_of_play:
            return None
        return self.order_of_play.index(participant.pk) + 1

    @property
    def players(self) -> list[FinalRow]:
        """Who played (signs the sheet): every row but the absent."""
        return [r for r in self.final if not r.absent]

    @property
    def confirmed_by(self) -> str:
        if self.result is None:
            return ""
        names = [person_name(self.result.confirmed_by), person_name(self.result.second_by)]
        return ", ".join(n for n in names if n)


def final_rows(
    result: TableResult | None,
    game: GameReport | None,
    seated: list[Participant],
    roles: dict[int, str],
    absent: list[Absence],
) -> tuple[list[FinalRow], str | None]:
    """The table's final figures, from one source: the confirmed result's ranking (what the standings count),
    else the finished game's (``results.game_ranking``, provisional), else none (the players listed without
    figures). The absent are added, not ranked, with 0 points."""
    players = game.players if game is not None else []
    by_participant = {p.participant_id: p for p in players if p.participant_id is not None}
    by_name = {p.name: p for p in players}

    def player_of(participant, name) -> PlayerReport | None:
        return by_participant.get(participant) or by_name.get(name)

    ranking, source = None, None
    if result is not None:
        ranking, source = result.ranking, FROM_RESULT
    elif game is not None and game.ranking is not None:
        ranking, source = game.ranking, FROM_GAME
    if ranking is not None:
        rows = []
        for r in ranking:
            p = player_of(r["participant"], r["name"])
            rows.append(
                FinalRow(
                    participant=r["participant"],
                    name=r["name"],
                    role=r.get("role") or (p.role if p else roles.get(r["participant"], "")),
                    rank=r["rank"],
                    score=r["score"],
                    points=r["points"],
                    bankrupt=p.bankrupt if p else False,
                    player=p,
                )
            )
    elif players:
        rows = [FinalRow(p.participant_id, p.name, p.role, bankrupt=p.bankrupt, player=p) for p in players]
    else:
        rows = [FinalRow(s.pk, s.shown_name, roles.get(s.pk, "")) for s in seated]
    rows += [FinalRow(a.participant.pk, a.participant.shown_name, points=0, absent=True) for a in absent]
    return rows, source


@dataclass
class RoundReport:
    round: Round
    tables: list[TableReport] = field(default_factory=list)


@dataclass
class StandingsRow:
    rank: int
    participant: Participant
    points: int
    total_score: int
    best_score: int | None
    games: int
    by_round: dict[int, int]  # round -> points won there


@dataclass
class StandingsReport:
    """The standings alone (the public pages' and the standings PDF's), read from the stored results: no
    game is replayed, so that its cost does not grow with the moves played."""

    tournament: Tournament
    round_numbers: list[int]  # every round seated so far, in order (the PDF's "points per round")
    standings: list[StandingsRow]


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


# -- games -------------------------------------------------------------------------------------------------


def game_report(game: Game, *, points: list[int] | None = None) -> GameReport:
    """Replay the game once: ledger, ranks, net-worth parts and the net worth turn by turn."""
    players = list(game.players.order_by("seat"))
    seqs = list(recording.active_events(game).values_list("seq", flat=True))
    return _report(game, recording.record_of(game), players, seqs, points)


def _report(game: Game, record: dict, players: list[GamePlayer], seqs: list[int], points) -> GameReport:
    ids = [p.pid for p in players]
    names = {p.pid: p.name for p in players}
    ledger = Ledger(ids, 0)
    rounds: list[int] = []  # the round of each event
    events: list[EventReport] = []
    series: dict[str, list[int]] = {pid: [] for pid in ids}
    turn_rounds: list[int] = []
    # After the previous event: its (round, turn) and who was bankrupt. The replay changes one state object
    # in place, so what is needed later is copied out of it.
    last: dict = {}
    start = 0  # the starting cash, known from the first state
    counts = CashCounts(moves=False)

    def sample(round_: int, bankrupt: frozenset) -> None:
        """The net worth of each player at this point: his equity on the ledger posted so far (RULES.md §2:
        they are equal while he is in the game), 0 once bankrupt."""
        turn_rounds.append(round_)
        for pid in ids:
            series[pid].append(0 if pid in bankrupt else start + ledger.income(pid) - ledger.cost(pid))

    def on_outcome(i, out) -> None:
        nonlocal start
        state = out.state
        if i == 0:  # before the first move, every player has his starting cash
            start = state.variant.starting_cash
            turn_rounds.append(0)
            for pid in ids:
                series[pid].append(start)
        elif (state.round, state.turn) != last["turn"]:
            sample(last["turn"][0], last["bankrupt"])  # the turn before this event is over
        last["turn"] = (state.round, state.turn)
        last["bankrupt"] = frozenset(p.id for p in state.players if p.bankrupt)
        ledger.post(i, out.movements)
        counts(i, out)
        rounds.append(state.round)
        cash: dict[str, int] = defaultdict(int)
        for m in out.movements:
            for leg in m.legs:
                if leg.party != BANK and leg.cash:
                    cash[leg.party] += leg.cash
        raw = record["events"][i]
        events.append(
            EventReport(
                seq=seqs[i],
                round=state.round,
                player=names.get(raw.get("player"), ""),
                type=raw["type"],
                text=" ".join(message_text(n) for n in out.notes),
                cash=dict(cash),
            )
        )

    result = replay(record, on_outcome=on_outcome, keep=False, check_fit=False)  # a game as stored
    state = result.state
    if state is None:  # the header itself is refused: nothing to report but the error
        return GameReport(game, [], [], [], False, None, 0, error=result.error["message"])
    if "turn" not in last:  # no move yet
        turn_rounds.append(0)
        for pid in ids:
            series[pid].append(state.variant.starting_cash)
    else:
        sample(state.round, frozenset(p.id for p in state.players if p.bankrupt))  # the last turn
    start = state.variant.starting_cash
    ranks = ranking(state) if state.finished else {}
    by_pid = {p.pid: p for p in players}
    reports = []
    for p in state.players:
        balance = start
        lines = []
        for line in ledger.lines(p.id):
            balance += line.income - line.cost
            lines.append(
                LedgerLine(
                    seq=seqs[line.event],
                    round=rounds[line.event],
                    operation=str(OPERATIONS.get(line.kind, line.kind)),
                    square=square_name(state.board, line.square) if line.square is not None else "",
                    cash=line.cash,
                    income=line.income,
                    cost=line.cost,
                    balance=balance,
                )
            )
        rank = ranks.get(p.id)
        count = counts.last.get(p.id)
        reports.append(
            PlayerReport(
                id=p.id,
                name=p.name,
                participant_id=by_pid[p.id].participant_id if p.id in by_pid else None,
                worth=net_worth_parts(state, p.id),
                bankrupt=p.bankrupt,
                starting_cash=start,
                income=ledger.income(p.id),
                cost=ledger.cost(p.id),
                lines=lines,
                series=series[p.id],
                rank=rank,
                points=placement_points(rank, points) if rank is not None and points is not None else None,
                role=p.role or "",
                game_score=score(state, p.id),
                cash_count=None
                if count is None
                else CashCountReport(seqs[count.event], count.counted, count.expected),
            )
        )
    error = result.error["message"] if result.error is not None else None
    table_ranking = waiting = None
    if state.finished and points is not None:
        try:  # the same rows a confirmation stores
            table_ranking = game_ranking(state, {p.pid: p.participant_id for p in players}, points)
        except RoundError as e:  # Anti-Monopoly Game B: the utilities' final rolls are still to record
            waiting = str(e)
    return GameReport(
        game,
        reports,
        events,
        turn_rounds,
        state.finished,
        state.end_reason,
        state.round,
        error,
        ranking=table_ranking,
        waiting=waiting,
        stopped=ended_by_stop(state),
        started_at=game.started_at or game.created_at,
        ended_at=game.finished_at if state.finished else None,
    )


# -- tables, rounds, the tournament -----------------------------------------------------------------------


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


def standings_report(tournament: Tournament) -> StandingsReport:
    """The standings and the rounds' numbers, in a few queries whatever the number of moves played."""
    numbers = list(tournament.round_set.order_by("number").values_list("number", flat=True))
    return StandingsReport(tournament, numbers, standings_rows(tournament))


def standings_rows(tournament: Tournament) -> list[StandingsRow]:
    """The standings now (``current_standings``: the counted results' stored scores), best first."""
    people = {p.pk: p for p in tournament.participants.all()}
    return [
        StandingsRow(
            rank=row.rank,
            participant=people[row.participant],
            points=row.points,
            total_score=row.total_score,
            best_score=row.best_score,
            games=row.games,
            by_round={n: s.points for n, s in row.by_round.items()},
        )
        for row in tournament_standings(tournament)
    ]


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
                **recording.record_header(game, players[game.pk]),
                "events": [data for _seq, data in log],
            }
            report = _report(
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
