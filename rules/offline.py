"""The engine as the referee's phone runs it while the venue's Wi-Fi is down: this very package, in the
browser (Pyodide, ``static/console/engine-worker.js``), so that a move entered offline is checked by the same
rules as on the server and refused with the same words.

JSON in, JSON out, and nothing kept between calls: the phone holds the state (the server's own snapshot of
the game, ``rules.snapshot``, then the one after each move it queued) and asks

- ``view(state)``: what the console shows and offers now (``view_of``);
- ``apply(state, events)``: the events of one tap applied one after the other, all or none, as the server's
  ``submit_all`` does: the new state, its view and what happened in words; or the refusal (its code, English
  template and values: the page translates it with the server's catalogue).

Messages travel as ``rules.messages.to_data`` gives them (``{"t": template, "p": values}``).
"""

from __future__ import annotations

import json
from dataclasses import asdict

from rules.board.parse import parse_board
from rules.board.registry import register_board, shipped_boards
from rules.engine import apply_in_place
from rules.errors import RulesError
from rules.legal import legal_actions
from rules.messages import Message, to_data
from rules.snapshot import dump_state, load_state
from rules.state import GameState
from rules.turns import next_roller


def use_board(board_json: str) -> None:
    """A board that is not shipped (an edition the organiser filled in), as the server gives it."""
    board = parse_board(json.loads(board_json))
    if board.id not in shipped_boards():
        register_board(board)


def view(state_json: str) -> str:
    return json.dumps(view_of(load_state(json.loads(state_json))))


def apply(state_json: str, events_json: str) -> str:
    """``events`` applied to ``state``, all or none: ``{"ok": true, "state", "view", "notes", "events"}`` (the
    events as the engine normalised them) or ``{"ok": false, "index", "error": {"code", "t", "p"}}``."""
    state = load_state(json.loads(state_json))
    done, notes = [], []
    for index, event in enumerate(json.loads(events_json)):
        try:
            tx = apply_in_place(state, event)
        except RulesError as e:  # the engine checks before it changes anything
            error = {"code": e.code, **to_data(Message(e.template, e.params))}
            return json.dumps({"ok": False, "index": index, "error": error})
        done.append(tx.event)
        notes.extend(to_data(n) for n in tx.notes)
    return json.dumps(
        {"ok": True, "state": dump_state(state), "view": view_of(state), "notes": notes, "events": done},
        default=list,  # the normalised events' tuples (dice)
    )


def view_of(s: GameState) -> dict:
    """The state as the console shows it (the players, their deeds and buildings, whose turn, the bank) and
    everything legal now (``rules.legal``, as data)."""
    legal = legal_actions(s)
    players = []
    for p in s.players:
        held = sorted(sq for sq, h in s.holdings.items() if h.owner == p.id)
        players.append(
            {
                "id": p.id,
                "name": p.name,
                "role": p.role,
                "cash": p.cash,
                "position": p.position,
                "in_jail": p.in_jail,
                "jail_cards": len(p.jail_cards),
                "bankrupt": p.bankrupt,
                "deeds": [
                    {"square": sq, "level": s.holdings[sq].level, "mortgaged": s.holdings[sq].mortgaged}
                    for sq in held
                ],
            }
        )
    return {
        "board": s.board.id,
        "round": s.round,
        "max_rounds": s.variant.max_rounds,
        "turn": None if s.turn is None else s.players[s.turn].id,
        "next_roller": None if (seat := next_roller(s)) is None else s.players[seat].id,
        "last_dice": list(s.last_dice) if s.last_dice else None,
        "finished": s.finished,
        "end_reason": s.end_reason,
        "houses": s.houses,
        "hotels": s.hotels,
        "hotel_level": s.variant.houses_per_hotel + 1,
        "players": players,
        "legal": asdict(legal),
    }
