"""A tournament written as backup data (``export_tournament``) and as the text of its file (``dumps``): read
as of one moment, people by username, participants by their id in this installation."""

from __future__ import annotations

import json
from collections import defaultdict
from contextlib import contextmanager
from datetime import date, datetime

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from tournament.files.backup.format import FORMAT, RULES
from tournament.models import (
    CheckIn,
    Game,
    GameEvent,
    GamePlayer,
    Seat,
    Signature,
    Table,
    TableResult,
    Tournament,
    TradeFlagReview,
)
from tournament.models.tournaments import SETTINGS


def _iso(value: date | datetime | None) -> str | None:
    return None if value is None else value.isoformat()


@contextmanager
def _consistent_read():
    """Read the whole tournament as of one moment, even while referees enter moves."""
    if connection.in_atomic_block:  # the caller's transaction decides what is seen
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def export_tournament(tournament: Tournament) -> dict:
    """The tournament as backup data (JSON-ready: ISO dates, usernames, the participants' ids of this
    installation as references)."""
    with _consistent_read():
        return _export(Tournament.objects.get(pk=tournament.pk))


def _export(t: Tournament) -> dict:
    user = dict(get_user_model().objects.values_list("pk", "username"))

    def name(user_id):
        return user.get(user_id)

    games = {g.table_id: g for g in Game.objects.filter(table__round__tournament=t)}
    players, events, game_referees = defaultdict(list), defaultdict(list), defaultdict(list)
    for p in GamePlayer.objects.filter(game__in=games.values()).order_by("game", "seat"):
        players[p.game_id].append(p)
    for e in GameEvent.objects.filter(game__in=games.values()).order_by("game", "seq"):
        events[e.game_id].append(e)
    for game_id, user_id in Game.referees.through.objects.filter(game__in=games.values()).values_list(
        "game_id", "user_id"
    ):
        game_referees[game_id].append(name(user_id))
    tables = Table.objects.filter(round__tournament=t).order_by("round__number", "number")
    seats, table_referees, table_results = defaultdict(list), defaultdict(list), defaultdict(list)
    roles = defaultdict(list)  # Anti-Monopoly: each seat's role, in the seats' order
    for s in Seat.objects.filter(table__in=tables).order_by("table", "order", "pk"):
        seats[s.table_id].append(s.participant_id)
        roles[s.table_id].append(s.role)
    for table_id, user_id in Table.referees.through.objects.filter(table__in=tables).values_list(
        "table_id", "user_id"
    ):
        table_referees[table_id].append(name(user_id))
    results = TableResult.objects.filter(table__in=tables).with_scores()
    for r in results.order_by("table", "confirmed_at", "pk"):
        table_results[r.table_id].append(r)
    table_signatures = defaultdict(list)  # every tap kept, in the order they were made
    for s in Signature.objects.filter(table__in=tables).order_by("table", "at", "pk"):
        table_signatures[s.table_id].append(s)
    by_round = defaultdict(list)
    for table in tables:
        by_round[table.round_id].append(table)

    def game_data(g: Game) -> dict:
        return {
            "name": g.name,
            "variant": g.variant,
            "board": g.board,
            "options": g.options,
            "status": g.status,
            "created_by": name(g.created_by_id),
            "created_at": _iso(g.created_at),
            "started_at": _iso(g.started_at),
            "finished_at": _iso(g.finished_at),
            "version": g.version,
            "next_seq": g.next_seq,
            "referees": sorted(game_referees[g.pk]),
            "players": [
                {
                    "seat": p.seat,
                    "pid": p.pid,
                    "name": p.name,
                    "role": p.role,
                    "participant": p.participant_id,
                }
                for p in players[g.pk]
            ],
            "events": [
                {
                    "seq": e.seq,
                    "data": e.data,
                    "status": e.status,
                    "notes": e.notes,
                    "entered_by": name(e.entered_by_id),
                    "entered_at": _iso(e.entered_at),
                    "client_key": e.client_key,
                    "changed_by": name(e.changed_by_id),
                    "changed_at": _iso(e.changed_at),
                    "reason": e.reason,
                    "change_key": e.change_key,
                }
                for e in events[g.pk]
            ],
        }

    def result_data(r: TableResult) -> dict:
        return {
            "ranking": r.ranking,
            "status": r.status,
            "confirmed_by": name(r.confirmed_by_id),
            "confirmed_at": _iso(r.confirmed_at),
            "second_by": name(r.second_by_id),
            "second_at": _iso(r.second_at),
            "reopened_by": name(r.reopened_by_id),
            "reopened_at": _iso(r.reopened_at),
            "reason": r.reason,
            **({"by_hand": True, "hand_reason": r.hand_reason} if r.by_hand else {}),
        }

    def signature_data(s: Signature) -> dict:
        return {
            "participant": s.participant_id,
            "verdict": "agree" if s.agrees else "dispute",
            "reason": s.reason,
            "game_version": s.game_version,  # the game's version he read (the table's game's, in this file)
            "at": _iso(s.at),
            "link_mark": s.link_key,  # which link he signed from (a mark of its key, not the key)
            **({"disputed_move": s.disputed_move} if s.disputed_move is not None else {}),
        }

    return {
        "format": FORMAT,
        "rules": RULES,
        "exported_at": _iso(timezone.now()),
        "tournament": {
            **{key: _iso(getattr(t, key)) if key == "date" else getattr(t, key) for key in SETTINGS},
            "created_by": name(t.created_by_id),
            "directors": sorted(t.directors.values_list("username", flat=True)),
            "created_at": _iso(t.created_at),
        },
        "participants": [
            {
                "id": p.pk,
                "name": p.name,
                "club": p.club,
                "seed": p.seed,
                "withdrawn_after": p.withdrawn_after,
                "link_key": p.link_key,  # his slip opens his page after a restore too
                # the league's player he is (tournament.ratings): linked again on restore where that player
                # is still there under that name
                "player": {"id": p.player_id, "name": p.player.name, "club": p.player.club}
                if p.player
                else None,
            }
            for p in t.participants.select_related("player").order_by("pk")
        ],
        "rounds": [
            {
                "number": r.number,
                "status": r.status,
                "seed": r.seed,
                "created_at": _iso(r.created_at),
                "started_at": _iso(r.started_at),
                "tables": [
                    {
                        "number": table.number,
                        "referees": sorted(table_referees[table.pk]),
                        "seats": seats[table.pk],
                        **({"roles": roles[table.pk]} if any(roles[table.pk]) else {}),
                        "game": game_data(games[table.pk]) if table.pk in games else None,
                        "results": [result_data(x) for x in table_results[table.pk]],
                        "signatures": [signature_data(s) for s in table_signatures[table.pk]],
                    }
                    for table in by_round[r.pk]
                ],
            }
            for r in t.round_set.order_by("number")
        ],
        "audit": [
            {
                "round": a.round_number,
                "table": a.table_number,
                "participant": a.participant_id,
                "action": a.action,
                "reason": a.reason,
                "details": a.details,
                "user": name(a.user_id),
                "at": _iso(a.at),
            }
            for a in t.audit.order_by("at", "pk")
        ],
        # the director's reviews of flagged trades (tournament.reports.trade_flags): by the flag's key
        "trade_flag_reviews": [
            {"key": r.key, "note": r.note, "seen_by": name(r.seen_by_id), "at": _iso(r.at)}
            for r in TradeFlagReview.objects.filter(tournament=t).order_by("key")
        ],
        "check_ins": [
            {
                "participant": c.participant_id,
                "round": c.round_number,
                "via": c.via,
                "by": name(c.by_id),
                "at": _iso(c.at),
            }
            for c in CheckIn.objects.filter(participant__tournament=t).order_by("round_number", "at", "pk")
        ],
    }


def dumps(data: dict) -> str:
    """The backup as the text of its file."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
