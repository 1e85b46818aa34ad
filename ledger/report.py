"""What `replay` prints: the result object of GAME_RECORD.md and a readable account for people."""

from __future__ import annotations

from collections.abc import Callable

from ledger.card import Ledger
from rules.banknotes import signed
from rules.cash_counts import Count
from rules.engine import Outcome
from rules.messages import Message, gettext_noop, msg
from rules.record import Record
from rules.replay import Replay, replay
from rules.scoring import ranking, score
from rules.state import GameState
from rules.valuation import net_worth


def replay_ledger(
    data: dict | Record,
    on_outcome: Callable[[int, Outcome], None] | None = None,
    *,
    narrate: bool = False,
    check_fit: bool = True,
) -> tuple[Replay, Ledger | None]:
    """Replay a record, posting each event's movements to the players' cards as it goes (memory flat).

    The ledger is None only when the record's header itself is refused (``check_fit``: as ``replay``'s)."""
    ledger: Ledger | None = None

    def post(i: int, out: Outcome) -> None:
        nonlocal ledger
        if ledger is None:
            ledger = Ledger([p.id for p in out.state.players], out.state.variant.starting_cash)
        ledger.post(i, out.movements)
        if on_outcome is not None:
            on_outcome(i, out)

    result = replay(data, post, narrate=narrate, check_fit=check_fit)
    if ledger is None and result.state is not None:
        ledger = Ledger([p.id for p in result.state.players], result.state.variant.starting_cash)
    return result, ledger


class EventLog:
    """What each event said and in which round, collected during a replay (for :func:`text_account`)."""

    def __init__(self):
        self.events: list[tuple[int, int, tuple[Message, ...]]] = []  # (index, round, notes)

    def __call__(self, i: int, out: Outcome) -> None:
        self.events.append((i, out.state.round, out.notes))


def summary(state: GameState, ledger: Ledger, counts: dict[str, Count] | None = None) -> dict:
    """The JSON object of GAME_RECORD.md "Replaying from the command line"; ``counts``: each player's last
    cash count (``rules.cash_counts.CashCounts.last``)."""
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
        if counts and p.id in counts:
            row["cash_count"] = counts[p.id].as_dict()
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


#: The account's frame, translated like the engine's notes (``say``); names and codes stay as they are.
HEADLINE = gettext_noop("{board} — {variant}; players: {names}")
ROUND = gettext_noop("Round {round}")
ERROR_IN_RECORD = gettext_noop("ERROR in the record: {message} ({code})")
ERROR_AT_EVENT = gettext_noop("ERROR at event {index}: {message} ({code})")
FINISHED = gettext_noop("Round {round}, finished ({reason}). Bank: {houses} houses, {hotels} hotels.")
IN_PROGRESS = gettext_noop("Round {round}, in progress. Bank: {houses} houses, {hotels} hotels.")
COLUMNS = (
    (gettext_noop("rank"), ">"),
    (gettext_noop("player"), "<"),
    (gettext_noop("cash"), ">"),
    (gettext_noop("net worth"), ">"),
    (gettext_noop("income"), ">"),
    (gettext_noop("cost"), ">"),
    (gettext_noop("position"), "<"),
)
LAST_COUNTS = gettext_noop("Last cash counts:")
LAST_COUNT = gettext_noop(
    "{player}: counted {counted}, expected {expected}, difference {difference} (event {index})"
)
BANKRUPT = gettext_noop("{square} (bankrupt)")
IN_JAIL = gettext_noop("{square} (in jail)")
NAME_WIDTH = 20  # a longer name is cut


def error_line(error: dict, say: Callable[[Message], str] = str) -> str:
    """``ERROR …`` for a refused record (no index) or event, in ``say``'s language."""
    if error["index"] is None:
        return say(msg(ERROR_IN_RECORD, message=error["message"], code=error["code"]))
    return say(msg(ERROR_AT_EVENT, index=error["index"], message=error["message"], code=error["code"]))


def text_account(
    result: Replay,
    ledger: Ledger | None,
    log: EventLog,
    say: Callable[[Message], str] = str,
    counts: dict[str, Count] | None = None,
) -> str:
    """A turn-by-turn account and a final table, for people. ``say`` renders a message (e.g. translated): the
    engine's notes and the frame around them. ``counts``: each player's last cash count, listed last."""
    lines: list[str] = []
    state = result.state
    if result.record is not None:
        rec = result.record
        names = ", ".join(p.get("name") or p["id"] for p in rec.players)
        lines.append(say(msg(HEADLINE, board=rec.board.name, variant=rec.variant_id, names=names)))
        lines.append("")
    last_round = None
    for i, round_, notes in log.events:
        if round_ != last_round and round_:
            last_round = round_
            lines.append(say(msg(ROUND, round=last_round)))
        for n in notes:
            lines.append(f"  [{i}] {say(n)}")
    if result.error:
        lines.append("")
        lines.append(error_line(result.error, say))
    if state is None:
        return "\n".join(lines) + "\n"
    s = summary(state, ledger)
    lines.append("")
    bank = {"round": s["round"], "houses": s["bank"]["houses"], "hotels": s["bank"]["hotels"]}
    lines.append(
        say(msg(FINISHED, reason=s["end_reason"], **bank) if s["finished"] else msg(IN_PROGRESS, **bank))
    )
    titles = [say(msg(title)) for title, _align in COLUMNS]
    widths = [max(len(titles[0]), 4), max(len(titles[1]), NAME_WIDTH)] + [max(len(t), 7) for t in titles[2:6]]
    rows = []
    for r in sorted(s["players"], key=lambda r: r.get("rank", 0)):
        position = state.board.square(r["position"]).name
        if r["bankrupt"] or r["in_jail"]:
            position = say(msg(BANKRUPT if r["bankrupt"] else IN_JAIL, square=position))
        figures = [r["cash"], r["net_worth"], r["income"], r["cost"]]
        rows.append([r.get("rank", ""), r["name"][:NAME_WIDTH], *figures, position])
    header = _row(titles, widths)
    lines.append(header)
    lines.append("-" * len(header))
    lines += [_row(row, widths) for row in rows]
    if counts:
        lines.append("")
        lines.append(say(msg(LAST_COUNTS)))
        for p in state.players:
            if (c := counts.get(p.id)) is not None:
                figures = {"counted": c.counted, "expected": c.expected, "difference": signed(c.difference)}
                lines.append("  " + say(msg(LAST_COUNT, player=p.name, index=c.event, **figures)))
    return "\n".join(lines) + "\n"


def _row(cells: list, widths: list[int]) -> str:
    """One line of the final table: the columns aligned as COLUMNS says, the position last and unpadded."""
    out = [f"{c:{align}{w}}" for c, (_t, align), w in zip(cells[:6], COLUMNS[:6], widths, strict=True)]
    return f"{out[0]}  {out[1]} {' '.join(out[2:6])}  {cells[6]}"
