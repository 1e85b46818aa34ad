"""A game state as plain JSON data and back, so the console can keep the current state between requests
instead of replaying the game (``load_state(dump_state(s)) == s``)."""

from __future__ import annotations

from dataclasses import fields

from rules.board import get_board
from rules.state import (
    BuyDecision,
    CardDraw,
    FoundationRoll,
    GameState,
    Holding,
    JailExit,
    PlayerState,
    RentDue,
    TaxChoice,
)
from rules.variants import Variant

VERSION = 1
DECISIONS = {"buy": BuyDecision, "card": CardDraw, "tax": TaxChoice, "foundation": FoundationRoll}
DECISION_KIND = {cls: kind for kind, cls in DECISIONS.items()}


def _plain(obj) -> dict:
    """A record of the state (a player, a rent, a decision) as a dict, its lists and dicts copied: what
    ``dataclasses.asdict`` gives for these flat records, without its deep copy of every value (a third of the
    cost of a move's save)."""
    out = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        out[f.name] = list(value) if type(value) is list else dict(value) if type(value) is dict else value
    return out


def dump_state(s: GameState) -> dict:
    d = s.decision
    return {
        "version": VERSION,
        "board": s.board.id,
        "variant": s.variant.as_dict(),
        "players": [_plain(p) for p in s.players],
        "holdings": {str(sq): list(h) for sq, h in sorted(s.holdings.items())},
        "houses": s.houses,
        "hotels": s.hotels,
        "round": s.round,
        "turn": s.turn,
        "rolls": s.rolls,
        "doubles": s.doubles,
        "roll_again": s.roll_again,
        "last_dice": list(s.last_dice) if s.last_dice else None,
        "decision": None if d is None else {"kind": DECISION_KIND[type(d)], **_plain(d)},
        "auctions": list(s.auctions),
        "bank_sale": list(s.bank_sale),
        "rents": [_plain(r) for r in s.rents],
        "fee_paid": list(s.fee_paid),
        "acquired": list(s.acquired),
        "jail_exit": None if s.jail_exit is None else _plain(s.jail_exit),
        "final_step": s.final_step,
        "final_rolls": {str(sq): total for sq, total in sorted(s.final_rolls.items())},
        "time_up": s.time_up,
        "stopped": s.stopped,
        "finished": s.finished,
        "end_reason": s.end_reason,
        "bankruptcies": s.bankruptcies,
        "events": s.events,
    }


def load_state(data: dict) -> GameState:
    if data.get("version") != VERSION:
        raise ValueError(f"unknown snapshot version {data.get('version')!r}")
    names = {f.name for f in fields(Variant)}
    variant = Variant(**{k: v for k, v in data["variant"].items() if k in names})
    decision = None
    if data["decision"] is not None:
        d = dict(data["decision"])
        kind = d.pop("kind")
        decision = DECISIONS[kind](**d)
    return GameState(
        board=get_board(data["board"]),
        variant=variant,
        players=[PlayerState(**p) for p in data["players"]],
        holdings={int(sq): Holding(*h) for sq, h in data["holdings"].items()},
        houses=data["houses"],
        hotels=data["hotels"],
        round=data["round"],
        turn=data["turn"],
        rolls=data["rolls"],
        doubles=data["doubles"],
        roll_again=data["roll_again"],
        last_dice=tuple(data["last_dice"]) if data["last_dice"] else None,
        decision=decision,
        auctions=tuple(data["auctions"]),
        bank_sale=tuple(data.get("bank_sale", ())),
        rents=tuple(RentDue(**r) for r in data["rents"]),
        fee_paid=tuple(data["fee_paid"]),
        acquired=tuple(data.get("acquired", ())),  # (a game stored before it was kept: none known)
        jail_exit=_jail_exit(data.get("jail_exit")),
        final_step=data.get("final_step"),
        final_rolls={int(sq): total for sq, total in (data.get("final_rolls") or {}).items()},
        time_up=data["time_up"],
        stopped=data.get("stopped", False),  # (a game stored before it was kept: not known, not said)
        finished=data["finished"],
        end_reason=data["end_reason"],
        bankruptcies=data["bankruptcies"],
        events=data["events"],
    )


def _jail_exit(d: dict | None) -> JailExit | None:
    return None if d is None else JailExit(d["player"], tuple(d["dice"]), d["doubles_count"])
