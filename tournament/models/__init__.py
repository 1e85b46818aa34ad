"""Database models: games at a table with their event logs; tournaments, rounds, tables and results; board
editions loaded from an organiser's file; what the director changed by hand on the day; referees' one-time
login links; the count of changes of a tournament's standings; who checked in for a round; the players'
signatures of their table's figures; the director's reviews of flagged trades; when a referee's phone was
last heard of; players across tournaments and their ratings; a file held until the director confirms what it
holds."""

from tournament.models import announcements  # noqa: F401 (its signals: the event streams told of changes)
from tournament.models.audit import AuditEntry
from tournament.models.boards import BoardEdition
from tournament.models.check_ins import CheckIn
from tournament.models.console_contacts import ConsoleContact
from tournament.models.games import Game, GameEvent, GamePlayer
from tournament.models.held_files import HeldFile
from tournament.models.league_log import LeagueChange
from tournament.models.login_links import LoginLink
from tournament.models.players import (
    PastEntrant,
    PastEvent,
    PastPlacement,
    Player,
    PlayerRating,
    RatingsPending,
    RatingsRebuild,
    RatingStep,
)
from tournament.models.results import TableResult, TableScore, counting, result_counts
from tournament.models.rounds import Round, Seat, Table
from tournament.models.signatures import Signature
from tournament.models.standings_changes import StandingsChange
from tournament.models.tournaments import Participant, Tournament
from tournament.models.trade_flags import TradeFlagReview

__all__ = [
    "AuditEntry",
    "BoardEdition",
    "CheckIn",
    "ConsoleContact",
    "Game",
    "GameEvent",
    "GamePlayer",
    "HeldFile",
    "LeagueChange",
    "LoginLink",
    "Participant",
    "PastEntrant",
    "PastEvent",
    "PastPlacement",
    "Player",
    "PlayerRating",
    "RatingStep",
    "RatingsPending",
    "RatingsRebuild",
    "Round",
    "Seat",
    "Signature",
    "StandingsChange",
    "Table",
    "TableResult",
    "TableScore",
    "TradeFlagReview",
    "Tournament",
    "counting",
    "result_counts",
]
