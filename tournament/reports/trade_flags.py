"""Trades flagged for the director's review (issue 42; the rules: ``rules.trade_flags``): a flag, never a
verdict. Each game's trades are read on the replay its report makes anyway (``GameReport.trades``); the
pair rule reads every table of the tournament."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from rules.trade_flags import Flag, PairTrade, game_flags, pair_flags
from tournament.models import Participant, Round, Tournament, TradeFlagReview
from tournament.reports.rounds import tournament_report
from tournament.reports.tables import TableReport

KINDS = {
    "large": _("large value moved"),
    "bankrupt": _("shortly before the giver's bankruptcy"),
    "pair": _("the same pair, value one way"),
}


def replay_url(game_id: int, seq: int) -> str:
    """The game's replay at that move (page ``game_replay``, another branch's: reverse() when merged)."""
    return f"/games/{game_id}/replay/?at={seq}"


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
    def url(self) -> str:
        if self.flag.game is None or self.flag.seq is None:
            return ""
        return replay_url(self.flag.game, self.flag.seq)


def _settings(t: Tournament) -> tuple[int, int, int]:
    return t.trade_flag_cash, t.trade_flag_percent, t.trade_flag_moves


def table_flags(table: TableReport, tournament: Tournament) -> list[ShownFlag]:
    """Rules (a) and (b) on the table's game."""
    report = table.game
    if report is None or report.trades is None:
        return []
    cash, percent, moves = _settings(tournament)
    names = {p.id: p.name for p in report.players}
    reading = report.trades
    return [
        ShownFlag(
            f, table.table.round.number, table.table.number, names.get(f.giver, ""), names.get(f.receiver, "")
        )
        for f in game_flags(
            report.game.pk,
            reading.trades,
            reading.bankruptcies,
            cash,
            percent,
            moves,
            place=f"r{table.table.round.number}:t{table.table.number}",
        )
    ]


def _pair_trades(tables: list[TableReport]) -> tuple[list[PairTrade], dict[int, tuple[int, int]]]:
    trades, where = [], {}
    for t in tables:
        report = t.game
        if report is None or report.trades is None:
            continue
        where[report.game.pk] = (t.table.round.number, t.table.number)
        who = {p.id: p.participant_id for p in report.players}
        for tr in report.trades.trades:
            a, b = who.get(tr.giver), who.get(tr.receiver)
            if a is not None and b is not None and tr.value:
                trades.append(PairTrade(report.game.pk, tr.seq, f"p{a}", f"p{b}", tr.value, tr.giver_worth))
    return trades, where


def tournament_pair_flags(tournament: Tournament, tables: list[TableReport]) -> list[ShownFlag]:
    """Rule (c) on these tables (the tournament's)."""
    cash, percent, _moves = _settings(tournament)
    trades, where = _pair_trades(tables)
    flags = pair_flags(trades, cash, percent)
    ids = {int(k[1:]) for f in flags for k in (f.giver, f.receiver)}
    names = dict(Participant.objects.filter(pk__in=ids).values_list("pk", "name"))
    return [
        ShownFlag(
            f,
            *where.get(f.game, (None, None)),
            names.get(int(f.giver[1:]), ""),
            names.get(int(f.receiver[1:]), ""),
        )
        for f in flags
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
    return _reviewed(tournament, table_flags(table, tournament))


def flags_of_round(round_: Round) -> list[ShownFlag]:
    """The round page's: its tables' flags (a, b), and the pairs (c) with a trade in this round."""
    tournament = round_.tournament
    every = [t for r in tournament_report(tournament).rounds for t in r.tables]
    flags = [f for t in every if t.table.round_id == round_.pk for f in table_flags(t, tournament)]
    mine = {t.game.game.pk for t in every if t.game is not None and t.table.round_id == round_.pk}
    trades, _where = _pair_trades(every)
    for f in tournament_pair_flags(tournament, every):
        pair = {f.flag.giver, f.flag.receiver}
        if any(tr.game in mine and {tr.giver, tr.receiver} == pair for tr in trades):
            flags.append(f)
    return _reviewed(tournament, flags)


def flags_of_tournament(tournament: Tournament, tables: list[TableReport]) -> list[ShownFlag]:
    """The workbook's: every table's flags, then the pairs'."""
    flags = [f for t in tables for f in table_flags(t, tournament)]
    return _reviewed(tournament, flags + tournament_pair_flags(tournament, tables))


def known_keys(tournament: Tournament) -> set[str]:
    """The keys of the tournament's flags now (a review is written for one of them only)."""
    tables = [t for r in tournament_report(tournament).rounds for t in r.tables]
    return {f.key for t in tables for f in table_flags(t, tournament)} | {
        f.key for f in tournament_pair_flags(tournament, tables)
    }
