"""The rules and the console's view model as the referee's phone runs them: this very code, in the browser
(Pyodide, ``static/console/engine-worker.js``), so that a move entered on the phone is checked by the same
rules as on the server, refused with the same words, and shown on the same screen.

JSON in, JSON out, and nothing kept between calls: the phone holds the game — ``{"state", "ledger", "counts",
"next_seq"}``, the server's own snapshot (``rules.snapshot``), each player's income and cost so far
(``[income, cost]`` by player id, the game's ledger totals), the cash counts (``rules.cash_counts``, as the
game keeps them) and the number its next move gets — then the game after each move it made — and asks

- ``view(game)``: the screen in that position (``tournament.console.view_model.screen``);
- ``apply(game, events)``: the events of one tap applied one after the other, all or none, as the server's
  ``submit_all`` does: the game after them, its screen and what happened in words; or the refusal (its code
  and its words);
- ``use_words(words)``: the referee's words, once, before the others (the server's catalogue, the board's
  words, the ids' names: ``words.use_words``), in which every message is said here (``words.said``).
"""

from __future__ import annotations

import json

from ledger.card import add_totals
from rules.board.parse import parse_board
from rules.board.registry import register_board, shipped_boards
from rules.cash_counts import CashCounts
from rules.engine import Outcome, apply_in_place
from rules.errors import RulesError
from rules.messages import Message
from rules.snapshot import dump_state, load_state
from tournament.console.view_model import words
from tournament.console.view_model.screen import screen
from tournament.console.view_model.words import said


def use_words(words_json: str) -> None:
    words.use_words(json.loads(words_json))


def use_board(board_json: str) -> None:
    """A board that is not shipped (an edition the organiser filled in), as the server gives it."""
    board = parse_board(json.loads(board_json))
    if board.id not in shipped_boards():
        register_board(board)


def view(game_json: str) -> str:
    game = json.loads(game_json)
    return json.dumps(screen(load_state(game["state"]), game.get("ledger"), game.get("counts")))


def _follow(counts: CashCounts, seq: int | None, tx, state) -> None:
    """The cash counts told of one more event (numbered as the server will number it)."""
    if seq is not None:
        counts(seq, Outcome(tx.event, state, (), ()))


def apply(game_json: str, events_json: str) -> str:
    """``events`` applied to ``game``, all or none: ``{"ok": true, "game", "view", "notes", "events"}`` (the
    events as the engine normalised them, the notes in words) or ``{"ok": false, "index", "error": {"code",
    "text"}}``."""
    game = json.loads(game_json)
    state = load_state(game["state"])
    ledger = {pid: list(figures) for pid, figures in (game.get("ledger") or {}).items()}
    counts, seq = CashCounts.from_data(game.get("counts")), game.get("next_seq")
    done, notes = [], []
    for index, event in enumerate(json.loads(events_json)):
        try:
            tx = apply_in_place(state, event)
        except RulesError as e:  # the engine checks before it changes anything
            error = {"code": e.code, "text": said(Message(e.template, e.params))}
            return json.dumps({"ok": False, "index": index, "error": error})
        done.append(tx.event)
        notes.extend(said(n) for n in tx.notes)
        add_totals(ledger, tx.movements)
        _follow(counts, seq, tx, state)
        seq = None if seq is None else seq + 1
    after = {"state": dump_state(state), "ledger": ledger, "counts": counts.to_data(), "next_seq": seq}
    return json.dumps(
        {
            "ok": True,
            "game": after,
            "view": screen(state, ledger, after["counts"]),
            "notes": notes,
            "events": done,
        },
        default=list,  # the normalised events' tuples (dice)
    )
