"""A game's report: the game replayed once (movements posted to the ledger as they come, nothing kept per
event), and read off that replay — each player's net-worth parts, income/cost card and net worth turn by turn,
the events in words, the ranking a confirmation would store."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils.translation import gettext, ngettext

from ledger import Ledger
from rules import replay
from rules.banknotes import signed
from rules.cash_counts import CashCounts
from rules.movements import BANK
from rules.scoring import ranking, score
from rules.standings import placement_points
from rules.time_limits import ended_by_stop
from rules.trade_flags import TradeReading
from rules.valuation import NetWorth, net_worth_parts
from tournament.boards.words import square_name
from tournament.collation import name_key
from tournament.errors import RoundError
from tournament.event.results import game_ranking
from tournament.games.log import active_events, record_of
from tournament.games.messages import message_text
from tournament.labels import OPERATIONS
from tournament.models import Game, GamePlayer


def duration_text(duration: timedelta | None) -> str:
    """A game's length as people say it: "1 h 05 min", "45 min"."""
    if duration is None:
        return ""
    minutes = max(int(duration.total_seconds()) // 60, 0)
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return ngettext("%(m)s min", "%(m)s min", minutes) % {"m": minutes}
    return gettext("%(h)s h %(m)02d min") % {"h": hours, "m": minutes}


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
    trades: TradeReading | None = None  # its trades and bankruptcies, read on the same replay (trade flags)

    @property
    def ranked(self) -> list[PlayerReport]:
        return sorted(self.players, key=lambda p: (p.rank or 0, name_key(p.name)))

    @property
    def duration(self) -> timedelta | None:
        if self.started_at is None or self.ended_at is None:
            return None
        return self.ended_at - self.started_at


def game_report(game: Game, *, points: list[int] | None = None) -> GameReport:
    """Replay the game once: ledger, ranks, net-worth parts and the net worth turn by turn."""
    players = list(game.players.order_by("seat"))
    seqs = list(active_events(game).values_list("seq", flat=True))
    return game_report_from_record(game, record_of(game), players, seqs, points)


def game_report_from_record(
    game: Game, record: dict, players: list[GamePlayer], seqs: list[int], points
) -> GameReport:
    """The game's report from its record as read (the header and its active events, ``seqs`` their numbers in
    the log): replayed once."""
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
    trades = TradeReading(seqs)

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
        trades(i, out)
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
        trades=trades,
    )
