"""Trades flagged for the director's review (issue 42; the rules: ``rules.trade_flags``): a flag, never a
verdict. The table page's and the workbook's flags are read on the replay their reports make anyway
(``GameReport.trades``); the round page, which replays no game otherwise, replays with the trades alone only
the games the flags need (its own, and the other games of the pairs seated together in it), the database read
in three queries whatever the number of tables."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations

from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules import replay
from rules.trade_flags import Flag, PairTrade, TradeReading, game_flags, pair_flags
from tournament.games.log import record_header
from tournament.models import GameEvent, GamePlayer, Round, Tournament, TradeFlagReview
from tournament.reports.rounds import tournament_report
from tournament.reports.tables import TableReport

KINDS = {
    "large": _("large value moved"),
    "bankrupt": _("shortly before the giver's bankruptcy"),
    "pair": _("the same pair, value one way"),
}


def replay_url(game_id: int, seq: int) -> str:
    """The game's replay just after move ``seq`` (its number in the log: tournament.console.replay)."""
    return f"{reverse('game_replay', args=[game_id])}?move={seq}"


@dataclass(frozen=True)
class GameTrades:
    """A game's trades as the flags read them, with where it was played and who played it."""

    game: int
    round: int
    table: int
    names: dict[str, str]  # player id -> name in the game
    participants: dict[str, int | None]  # player id -> participant id
    reading: TradeReading

    def pair_trades(self) -> list[PairTrade]:
        """Its trades that moved value between two participants, named by their keys ("p3")."""
        out = []
        for tr in self.reading.trades:
            a, b = self.participants.get(tr.giver), self.participants.get(tr.receiver)
            if a is not None and b is not None and tr.value:
                out.append(PairTrade(self.game, tr.seq, f"p{a}", f"p{b}", tr.value, tr.giver_worth))
        return out


@dataclass
class ShownFlag:
    """A flag with what the pages and the workbook show of it."""

    flag: Flag
    round: int | None
    table: int | None
    giver: str  # names
    receiver: str
    review: TradeFlagReview | None = None

    @property
    def kind(self) -> str:
        return str(KINDS[self.flag.kind])

    @property
    def key(self) -> str:
        return self.flag.key

    @property
    def passed(self) -> str:
        """What it passed, in words (the pages and the workbook say it alike)."""
        f = self.flag
        if f.kind == "large":
            return gettext(
                "more than %(t)s (the larger of the tournament's sum and share of the giver's net worth)"
            ) % {"t": f.threshold}
        if f.kind == "bankrupt":
            return ngettext(
                "the giver went bankrupt at move %(at)s, %(n)s move or fewer later",
                "the giver went bankrupt at move %(at)s, %(n)s moves or fewer later",
                f.threshold,
            ) % {"at": f.detail, "n": f.threshold}
        return gettext(
            "%(p)s %% of the threshold one way over %(n)s trades (each against its giver's net worth then)"
        ) % {"n": f.detail, "p": f.threshold}

    @property
    def url(self) -> str:
        if self.flag.game is None or self.flag.seq is None:
            return ""
        return replay_url(self.flag.game, self.flag.seq)


def _settings(t: Tournament) -> tuple[int, int, int]:
    return t.trade_flag_cash, t.trade_flag_percent, t.trade_flag_moves


def of_report(table: TableReport) -> GameTrades | None:
    """A table report's game, its trades read on the report's replay."""
    report = table.game
    if report is None or report.trades is None:
        return None
    return GameTrades(
        report.game.pk,
        table.table.round.number,
        table.table.number,
        {p.id: p.name for p in report.players},
        {p.id: p.participant_id for p in report.players},
        report.trades,
    )


def game_trade_flags(g: GameTrades, tournament: Tournament) -> list[ShownFlag]:
    """Rules (a) and (b) on one game."""
    cash, percent, moves = _settings(tournament)
    r = g.reading
    flags = game_flags(g.game, r.trades, r.bankruptcies, cash, percent, moves, place=f"r{g.round}:t{g.table}")
    return [
        ShownFlag(f, g.round, g.table, g.names.get(f.giver, ""), g.names.get(f.receiver, "")) for f in flags
    ]


def pair_trade_flags(games: list[GameTrades], tournament: Tournament) -> list[ShownFlag]:
    """Rule (c) on these games (a participant named as in his last game among them)."""
    cash, percent, _moves = _settings(tournament)
    trades, where, names = [], {}, {}
    for g in games:
        where[g.game] = (g.round, g.table)
        for pid, participant in g.participants.items():
            if participant is not None:
                names[f"p{participant}"] = g.names.get(pid, "")
        trades += g.pair_trades()
    return [
        ShownFlag(f, *where.get(f.game, (None, None)), names.get(f.giver, ""), names.get(f.receiver, ""))
        for f in pair_flags(trades, cash, percent)
    ]


def _reviewed(tournament: Tournament, flags: list[ShownFlag]) -> list[ShownFlag]:
    if not flags:  # nothing to read
        return flags
    reviews = {
        r.key: r
        for r in TradeFlagReview.objects.filter(
            tournament=tournament, key__in=[f.key for f in flags]
        ).select_related("seen_by")
    }
    for f in flags:
        f.review = reviews.get(f.key)
    return flags


def flags_of_table(table: TableReport, tournament: Tournament) -> list[ShownFlag]:
    """The table page's: its game's flags (a, b) with their reviews."""
    g = of_report(table)
    return [] if g is None else _reviewed(tournament, game_trade_flags(g, tournament))


def _round_games(round_: Round) -> list[GameTrades]:
    """The round's games and the other games where two who played together in it played together too, each
    replayed for its trades alone."""
    tournament = round_.tournament
    players = GamePlayer.objects.filter(game__table__round__tournament=tournament).select_related(
        "game__table__round"
    )
    by_game = defaultdict(list)
    for p in players.order_by("game", "seat"):
        by_game[p.game_id].append(p)
    mine = {g for g, ps in by_game.items() if ps[0].game.table.round_id == round_.pk}
    pairs = set()
    for g in mine:
        pairs |= {frozenset(c) for c in combinations({p.participant_id for p in by_game[g]} - {None}, 2)}
    wanted = set(mine)
    for g, ps in by_game.items():
        people = {p.participant_id for p in ps}
        if g not in wanted and any(pair <= people for pair in pairs):
            wanted.add(g)
    events = defaultdict(list)
    active = GameEvent.objects.filter(game__in=wanted).active().order_by("game", "seq")
    for game_id, seq, data in active.values_list("game", "seq", "data"):
        events[game_id].append((seq, data))
    games = []
    for g in sorted(wanted):
        ps = by_game[g]
        game = ps[0].game
        reading = TradeReading([seq for seq, _data in events[g]])
        record = {**record_header(game, ps), "events": [data for _seq, data in events[g]]}
        replay(record, on_outcome=reading, narrate=False, check_fit=False)  # as the reports: a game as stored
        games.append(
            GameTrades(
                g,
                game.table.round.number,
                game.table.number,
                {p.pid: p.name for p in ps},
                {p.pid: p.participant_id for p in ps},
                reading,
            )
        )
    return games


def flags_of_round(round_: Round) -> list[ShownFlag]:
    """The round page's: its tables' flags (a, b), and the pairs (c) with a trade in this round."""
    tournament = round_.tournament
    games = _round_games(round_)
    flags = [f for g in games if g.round == round_.number for f in game_trade_flags(g, tournament)]
    # the pairs that traded in this round
    traded = {
        frozenset((t.giver, t.receiver)) for g in games if g.round == round_.number for t in g.pair_trades()
    }
    flags += [f for f in pair_trade_flags(games, tournament) if {f.flag.giver, f.flag.receiver} in traded]
    return _reviewed(tournament, flags)


def _every_flag(tournament: Tournament, tables: list[TableReport]) -> list[ShownFlag]:
    """Every table's flags, then the pairs'."""
    games = [g for g in map(of_report, tables) if g is not None]
    return [f for g in games for f in game_trade_flags(g, tournament)] + pair_trade_flags(games, tournament)


def flags_of_tournament(tournament: Tournament, tables: list[TableReport]) -> list[ShownFlag]:
    """The workbook's: every table's flags, then the pairs', with their reviews."""
    return _reviewed(tournament, _every_flag(tournament, tables))


def known_keys(tournament: Tournament) -> set[str]:
    """The keys of the tournament's flags now (a review is written for one of them only)."""
    tables = [t for r in tournament_report(tournament).rounds for t in r.tables]
    return {f.key for f in _every_flag(tournament, tables)}
