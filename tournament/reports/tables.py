"""A table's report: who sits there, its game's report, its confirmed result, the director's changes and
rulings, the players' signatures, and its final figures.

A table's final figures (rank, score, points) have one source, ``TableReport.final`` (``final_rows``): the
confirmed result's stored ranking when there is one — the very rows the standings count — else the finished
game's ranking made by ``results.game_ranking`` (the code that makes the stored one; provisional until
confirmed), else none yet. A player the director marked absent from the table is listed too: not ranked,
0 points (RULES.md is silent; decision, docs/director.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext

from tournament.labels import end_reason_text
from tournament.models import Participant, Table, TableResult
from tournament.people.referee_accounts import display_name
from tournament.reports.games import GameReport, PlayerReport


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


def person_name(user) -> str:
    """An account as pages and sheets name it (``referee_accounts.display_name``; "" for none)."""
    return "" if user is None else display_name(user)


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
