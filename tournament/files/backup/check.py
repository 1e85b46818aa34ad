"""The backup as a whole, checked before anything is stored (``Check``): the rules of the app its parts keep
together, every game replayed by the rules engine."""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

from ledger.report import replay_ledger
from rules import RulesError, make_variant
from rules.snapshot import dump_state
from rules.variants import PREVIOUS_RULES
from tournament.boards.editions import board_misfit
from tournament.errors import RoundError
from tournament.event.interventions import hand_rows
from tournament.event.results import game_ranking
from tournament.files.backup.format import BackupError
from tournament.games.log import record_header
from tournament.games.messages import error_text
from tournament.models import (
    Game,
    GameEvent,
    GamePlayer,
    Round,
    TableResult,
    Tournament,
    result_counts,
)


def _refuse(template: str, **values) -> BackupError:
    return BackupError(template % values)


class Check:
    """What the live app never lets happen, checked over the whole file before anything is stored: the rounds
    numbered in order and seated one after the other, a participant seated once per round and not after he
    withdrew, a game played by the table's seated participants under the tournament's rules, every game
    replayed by the rules engine, the confirmed result what the game gives (a result entered by hand: one
    place and score per player, its points those of the places), a finished round with every table's result
    in, a signature at a table with a game, on a version the game had (on its current version, by one of its
    players), a check-in for a round played or the next one. Each refusal names the place in the file."""

    def __init__(self, backup: dict):
        self.backup = backup
        self.settings = backup["tournament"]
        self.participants = {p["id"]: p for p in backup["participants"]}
        self.points = self.settings["placement_points"]

    def run(self) -> None:
        rounds = self.backup["rounds"]
        for i, r in enumerate(rounds, start=1):
            if r["number"] != i:
                raise _refuse(
                    _("%(where)s: the rounds are numbered 1, 2, 3 … in order; this one is %(n)s, not %(i)s."),
                    where=r["where"],
                    n=r["number"],
                    i=i,
                )
        if len(rounds) > self.settings["rounds"]:
            raise _refuse(
                _("%(where)s: the tournament has %(n)s rounds."),
                where=rounds[self.settings["rounds"]]["where"],
                n=self.settings["rounds"],
            )
        for r in rounds[:-1]:
            if r["status"] == Round.Status.SEATED:
                raise _refuse(
                    _("%(where)s: round %(n)s has not started, yet a round after it has been seated."),
                    where=r["where"],
                    n=r["number"],
                )
        for p in self.participants.values():
            if p["withdrawn_after"] is not None and p["withdrawn_after"] > len(rounds):
                raise _refuse(
                    _("%(where)s: withdrawn after round %(n)s, but the backup has %(rounds)s rounds."),
                    where=p["where"],
                    n=p["withdrawn_after"],
                    rounds=len(rounds),
                )
        self.variant = self._tournament_variant()
        for r in rounds:
            self._round(r)
        numbers = {r["number"] for r in rounds}
        for a in self.backup["audit"]:
            if a["round_number"] is not None and a["round_number"] not in numbers:
                raise _refuse(
                    _("%(where)s: there is no round %(n)s in the backup."),
                    where=a["where"],
                    n=a["round_number"],
                )
        for c in self.backup["check_ins"]:  # for a round of the backup, or the next one (not seated yet)
            if c["round_number"] > len(rounds) + 1:
                raise _refuse(
                    _("%(where)s: there is no round %(n)s in the backup."),
                    where=c["where"],
                    n=c["round_number"],
                )

    def _tournament_variant(self):
        keys = ("variant", "ending", "game_rounds", "time_limit_minutes", "move_time_limit")
        options = Tournament(**{k: self.settings[k] for k in keys}).game_options()  # as its games get them
        try:
            variant = make_variant(self.settings["variant"], options)
        except RulesError as e:
            raise _refuse(_("%(where)s: %(message)s"), where="tournament", message=error_text(e)) from None
        misfit = board_misfit(variant, self.settings["board"])  # its games are played on its board
        if misfit is not None:
            raise _refuse(_("%(where)s: %(message)s"), where="tournament.board", message=misfit)
        return variant

    def _round(self, r: dict) -> None:
        seated_at: dict[int, int] = {}
        for table in r["tables"]:
            for k, pid in enumerate(table["seats"]):
                where = f"{table['where']}.seats[{k}]"
                if pid in seated_at:
                    raise _refuse(
                        _(
                            "%(where)s: participant %(id)s is already seated at table %(table)s of this "
                            "round."
                        ),
                        where=where,
                        id=pid,
                        table=seated_at[pid],
                    )
                seated_at[pid] = table["number"]
                withdrawn = self.participants[pid]["withdrawn_after"]
                if withdrawn is not None and r["number"] > withdrawn:
                    raise _refuse(
                        _("%(where)s: participant %(id)s withdrew after round %(n)s."),
                        where=where,
                        id=pid,
                        n=withdrawn,
                    )
            self._table(r, table)
        if r["status"] == Round.Status.FINISHED:
            for table in r["tables"]:
                if (table["seats"] or table["game"]) and not self._counts(table):
                    raise _refuse(
                        _(
                            "%(where)s: round %(n)s is finished, but this table has no result that counts "
                            "(confirmed, and by a second person where the tournament asks for it)."
                        ),
                        where=table["where"],
                        n=r["number"],
                    )

    def _counts(self, table: dict) -> bool:
        return any(
            result_counts(
                status=x["status"],
                second_by=x["second_by"],
                second_confirmation=self.settings["second_confirmation"],
            )
            for x in table["results"]
        )

    def _table(self, r: dict, table: dict) -> None:
        game = table["game"]
        if r["status"] == Round.Status.SEATED and (game is not None or table["results"]):
            raise _refuse(
                _("%(where)s: round %(n)s has not started, yet this table has a game or a result."),
                where=table["where"],
                n=r["number"],
            )
        state = self._game(r, table, game) if game is not None else None
        self._signatures(table, game)
        confirmed = next((x for x in table["results"] if x["status"] == TableResult.Status.CONFIRMED), None)
        if confirmed is not None:
            if confirmed["by_hand"]:
                self._hand_result(table, confirmed)
            else:
                self._game_result(table, confirmed, state)
        if state is not None and game["status"] != self._status(state):
            raise _refuse(
                _(
                    "%(where)s: the game is “%(status)s”, but its moves replay to a game that is "
                    "“%(replayed)s”."
                ),
                where=f"{game['where']}.status",
                status=game["status"],
                replayed=self._status(state),
            )

    @staticmethod
    def _signatures(table: dict, game: dict | None) -> None:
        """As ``signatures.sign`` makes them: a player signs his table's game as it stood (its version). A
        signature on the game's current version is one of its players' (it still counts: a dispute stops the
        confirmation); one on an older version was voided by a change of the game (its players may have
        changed since)."""
        players = set() if game is None else {p["participant"] for p in game["players"]}
        for s in table["signatures"]:
            if game is not None and s["game_version"] > game["version"]:
                raise _refuse(
                    _("%(where)s must be at most %(n)s."),
                    where=f"{s['where']}.game_version",
                    n=game["version"],
                )
            if game is None or (s["game_version"] == game["version"] and s["participant"] not in players):
                raise _refuse(
                    _("%(where)s: participant %(id)s does not play at this table."),
                    where=f"{s['where']}.participant",
                    id=s["participant"],
                )

    @staticmethod
    def _status(state) -> str:
        return Game.Status.FINISHED if state.finished else Game.Status.RUNNING

    def _game(self, r: dict, table: dict, g: dict):
        """The game's players and rules checked, its moves replayed: the final state (stored in ``g``)."""
        where = g["where"]
        for key in ("variant", "board"):
            if g[key] != self.settings[key]:
                raise _refuse(
                    _("%(where)s: the game is played with “%(game)s”, the tournament with “%(tournament)s”."),
                    where=f"{where}.{key}",
                    game=g[key],
                    tournament=self.settings[key],
                )
        try:
            theirs = make_variant(g["variant"], g["options"])
        except RulesError as e:
            raise _refuse(
                _("%(where)s: %(message)s"), where=f"{where}.options", message=error_text(e)
            ) from None
        # The options the game names (a game started before a setting existed, as the Anti-Monopoly ending,
        # names none and plays by the engine's default); a game played before the engine's newer decisions
        # keeps its rules.
        for option in g["options"]:
            if option in PREVIOUS_RULES:
                continue
            mine, game_value = getattr(self.variant, option), getattr(theirs, option)
            if mine != game_value:
                raise _refuse(
                    _(
                        "%(where)s: the game's option %(option)s is %(game)s; the tournament's is "
                        "%(tournament)s."
                    ),
                    where=f"{where}.options",
                    option=option,
                    game=json.dumps(game_value),
                    tournament=json.dumps(mine),
                )
        self._players(table, g)
        players = sorted(g["players"], key=lambda p: p["seat"])
        events = g["events"]
        active = sorted((e for e in events if e["status"] == GameEvent.Status.ACTIVE), key=lambda e: e["seq"])
        record = {
            **record_header(
                Game(variant=g["variant"], board=g["board"], options=g["options"]),
                [GamePlayer(seat=p["seat"], pid=p["pid"], name=p["name"], role=p["role"]) for p in players],
            ),
            "events": [e["data"] for e in active],
        }
        result, ledger = replay_ledger(record)
        if result.error is not None:
            message = error_text(result.exception)
            if result.error["index"] is None:
                raise _refuse(
                    _(
                        "%(where)s: the game of round %(round)s, table %(table)s is not a valid game record: "
                        "%(message)s"
                    ),
                    where=where,
                    round=r["number"],
                    table=table["number"],
                    message=message,
                )
            event = active[result.error["index"]]
            index = next(i for i, e in enumerate(events) if e is event)
            raise _refuse(
                _(
                    "%(where)s: move #%(seq)s of the game of round %(round)s, table %(table)s is illegal: "
                    "%(message)s"
                ),
                where=f"{where}.events[{index}]",
                seq=event["seq"],
                round=r["number"],
                table=table["number"],
                message=message,
            )
        state = result.state
        g["replayed"] = {
            "state": dump_state(state),
            "ledger": ledger.totals(),
            "status": self._status(state),
        }
        return state

    def _players(self, table: dict, g: dict) -> None:
        """A table's game is played by the participants seated there, each once (``start_table_game``; a
        record imported at the table names them too, and after a game starts its seats are fixed)."""
        seated = set(table["seats"])
        playing = set()
        for p in g["players"]:
            if p["participant"] is None:
                raise _refuse(
                    _(
                        "%(where)s: a player of a tournament game is one of the participants seated at the "
                        "table."
                    ),
                    where=f"{p['where']}.participant",
                )
            if p["participant"] not in seated:
                raise _refuse(
                    _("%(where)s: participant %(id)s plays in the game but is not seated at this table."),
                    where=f"{p['where']}.participant",
                    id=p["participant"],
                )
            if p["participant"] in playing:
                raise _refuse(
                    _("%(where)s: participant %(id)s plays in the game twice."),
                    where=f"{p['where']}.participant",
                    id=p["participant"],
                )
            playing.add(p["participant"])
        for k, pid in enumerate(table["seats"]):
            if pid not in playing:
                raise _refuse(
                    _("%(where)s: participant %(id)s is seated at this table but does not play in its game."),
                    where=f"{table['where']}.seats[{k}]",
                    id=pid,
                )

    def _hand_result(self, table: dict, result: dict) -> None:
        """As ``interventions.enter_result`` makes it: one place and score per player of the table (the
        game's players once it started, else the seated participants), the points those of the places."""
        game = table["game"]
        if game is not None:
            players = [(p["participant"], p["name"], p["role"]) for p in sorted(game["players"], key=_seat)]
        else:
            players = [
                (pid, self.participants[pid]["name"], role)
                for pid, role in zip(table["seats"], table["roles"], strict=True)
            ]
        self._same_players(result, {pid for pid, _name, _role in players})
        places = {row["participant"]: (row["rank"], row["score"]) for row in result["ranking"]}
        try:
            expected = hand_rows(players, places, self.points)
        except RoundError as e:
            raise _refuse(
                _("%(where)s: %(message)s"), where=f"{result['where']}.ranking", message=e
            ) from None
        if _key(expected) != _key(result["ranking"]):
            raise _refuse(
                _("%(where)s: the points of a result entered by hand are not those of its places."),
                where=f"{result['where']}.ranking",
            )

    def _same_players(self, result: dict, players: set) -> None:
        listed = set()
        for i, row in enumerate(result["ranking"]):
            if row["participant"] not in players:
                raise _refuse(
                    _("%(where)s: participant %(id)s does not play at this table."),
                    where=f"{result['where']}.ranking[{i}].participant",
                    id="null" if row["participant"] is None else row["participant"],
                )
            listed.add(row["participant"])
        missing = sorted(players - listed)
        if missing:
            raise _refuse(
                _("%(where)s: participant %(id)s plays at this table but has no place in the result."),
                where=f"{result['where']}.ranking",
                id=missing[0],
            )

    def _game_result(self, table: dict, result: dict, state) -> None:
        """The confirmed result is what the game's record gives (``results.table_ranking``): the standings
        are those of the games."""
        if state is None:
            raise _refuse(
                _("%(where)s: the result is confirmed but the table has no game."), where=result["where"]
            )
        self._same_players(result, {p["participant"] for p in table["game"]["players"]})
        by_pid = {p["pid"]: p["participant"] for p in table["game"]["players"]}
        try:
            expected = game_ranking(state, by_pid, self.points)
        except RoundError:
            raise _refuse(
                _(
                    "%(where)s: the result is confirmed but the game record does not reach the end of the "
                    "game (is it cut short?)."
                ),
                where=result["where"],
            ) from None
        if _key(expected) != _key(result["ranking"]):
            raise _refuse(
                _("%(where)s: the confirmed result is not what the game record gives."),
                where=f"{result['where']}.ranking",
            )


def _seat(player: dict) -> int:
    return player["seat"]


def _key(rows: list[dict]) -> list[tuple]:
    return sorted((r["participant"], r["rank"], r["score"], r["points"]) for r in rows)
