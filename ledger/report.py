"""What `replay` prints: the result object of GAME_RECORD.md and a readable account for people."""

from __future__ import annotations

from collections.abc import Callable

from ledger.card import Ledger
from rules.engine import Outcome
from rules.messages import Message
from rules.record import Record
from rules.replay import Replay, replay
from rules.scoring import ranking, score
from rules.state import GameState
from rules.valuation import net_worth


def replay_ledger(
    data: dict | Record, on_outcome: Callable[[int, Outcome], None] | None = None, *, narrate: bool = False
) -> tuple[Replay, Ledger | None]:
    """Replay a record, posting each event's movements to the players' cards as it goes (memory flat).

    The ledger is None only when the record's header itself is refused."""
    ledger: Ledger | None = None

    def post(i: int, out: Outcome) -> None:
        nonlocal ledger
        if ledger is None:
            ledger = Ledger([p.id for p in out.state.players], out.state.variant.starting_cash)
        ledger.post(i, out.movements)
        if on_outcome is not None:
            on_outcome(i, out)

    result = replay(data, post, narrate=narrate)
    if ledger is None and result.state is not None:
        ledger = Ledger([p.id for p in result.state.players], result.state.variant.starting_cash)
    return result, ledger


class EventLog:
    """What each event said and in which round, collected during a replay (for :func:`text_account`)."""

    def __init__(self):
        self.events: list[tuple[int, int, tuple[Message, ...]]] = []  # (index, round, notes)

    def __call__(self, i: int, out: Outcome) -> None:
        self.events.append((i, out.state.round, out.notes))


def summary(state: GameState, ledger: Ledger) -> dict:
    """The JSON object of GAME_RECORD.md "Replaying from the command line"."""
    ranks = ranking(state) if state.finished else {}
    players = []
    for p in state.players:
        hotel = state.hotel_level(p.id)
        row = {
            "id": p.id,
            "name": p.name,
            "cash": p.cash,
            "net_worth": net_worth(state, p.id),
            "income": ledger.income(p.id),
            "cost": ledger.cost(p.id),
            "position": p.position,
            "in_jail": p.in_jail,
            "bankrupt": p.bankrupt,
            "jail_cards": len(p.jail_cards),
            "properties": [
                {
                    "square": sq,
                    "houses": 0 if h.level >= hotel else h.level,
                    "hotel": h.level >= hotel,
                    "mortgaged": h.mortgaged,
                }
                for sq, h in sorted(state.holdings.items())
                if h.owner == p.id
            ],
        }
        if p.role:
            row["role"] = p.role
            row["score"] = score(state, p.id)  # what ranks him: RULES.md §4 for the game's ending
        if p.cash < 0:
            row["debt"] = {"amount": -p.cash, "to": p.debt_to}
        if ranks:
            row["rank"] = ranks[p.id]
        players.append(row)
    out = {"finished": state.finished}
    if state.finished:
        out["end_reason"] = state.end_reason
    out.update(
        {
            "round": state.round,
            "players": players,
            "bank": {"houses": state.houses, "hotels": state.hotels},
        }
    )
    return out


def text_account(
    result: Replay, ledger: Ledger | None, log: EventLog, say: Callable[[Message], str] = str
) -> str:
    """A turn-by-turn account and a final table, for people. ``say`` renders a message (e.g. translated)."""
    lines: list[str] = []
    state = result.state
    if result.record is not None:
        rec = result.record
        names = ", ".join(p.get("name") or p["id"] for p in rec.players)
        lines.append(f"{rec.board.name} — {rec.variant_id}; players: {names}")
        lines.append("")
    last_round = None
    for i, round_, notes in log.events:
        if round_ != last_round and round_:
            last_round = round_
            lines.append(f"Round {last_round}")
        for n in notes:
            lines.append(f"  [{i}] {say(n)}")
    if result.error:
        lines.append("")
        where = "record" if result.error["index"] is None else f"event {result.error['index']}"
        lines.append(f"ERROR at {where}: {result.error['message']} ({result.error['code']})")
    if state is None:
        return "\n".join(lines) + "\n"
    s = summary(state, ledger)
    lines.append("")
    status = f"finished ({s['end_reason']})" if s["finished"] else "in progress"
    lines.append(
        f"Round {s['round']}, {status}. Bank: {s['bank']['houses']} houses, {s['bank']['hotels']} hotels."
    )
    header = f"{'rank':>4}  {'player':<20} {'cash':>7} {'net worth':>9} {'income':>7} {'cost':>7}  position"
    lines.append(header)
    lines.append("-" * len(header))
    rows = sorted(s["players"], key=lambda r: r.get("rank", 0))
    for r in rows:
        pos = state.board.square(r["position"]).name
        flags = " (bankrupt)" if r["bankrupt"] else (" (in jail)" if r["in_jail"] else "")
        lines.append(
            f"{r.get('rank', ''):>4}  {r['name'][:20]:<20} {r['cash']:>7} {r['net_worth']:>9} "
            f"{r['income']:>7} {r['cost']:>7}  {pos}{flags}"
        )
    return "\n".join(lines) + "\n"
