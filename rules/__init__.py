"""The rules engine: plain Python, no Django.

Boards are data files (``rules/boards/*.json``), variants are parameter sets (:mod:`rules.variants`), and
:func:`apply` turns a state and one event into a new state and the money movements of that event.
"""

from rules.board import Board, available_boards, get_board, load_board_file
from rules.engine import Outcome, apply, new_game
from rules.errors import BoardError, RecordError, RuleError, RulesError, VariantError
from rules.movements import BANK, Leg, Movement
from rules.record import Record, load_record_file, parse_record
from rules.replay import Replay, replay
from rules.state import GameState
from rules.variants import Variant, available_variants, make_variant

__all__ = [
    "BANK",
    "Board",
    "BoardError",
    "GameState",
    "Leg",
    "Movement",
    "Outcome",
    "Record",
    "RecordError",
    "Replay",
    "RuleError",
    "RulesError",
    "Variant",
    "VariantError",
    "apply",
    "available_boards",
    "available_variants",
    "get_board",
    "load_board_file",
    "load_record_file",
    "make_variant",
    "new_game",
    "parse_record",
    "replay",
]
