"""The console's view model (tournament/console/view_model/): on every screen of simulated games of the
three families (the Polish board in the tournament's house rules, the English board in classic,
Anti-Monopoly in its two-hour game and in Game B), every tap it offers is a move the engine accepts, and the
figures it shows are the engine's and the ledger's. It speaks codes, ids and numbers only, and is JSON as it
is."""

import json

import pytest

from ledger.report import replay_ledger
from rules.cards import deck_effects
from rules.engine import apply
from rules.errors import RulesError
from rules.record import parse_record
from rules.replay import start_state
from rules.simulate import simulate
from rules.valuation import net_worth
from tests.console_offers import offered
from tests.support import Table
from tournament.console.view_model import screen

GAMES = [
    ("tournament-pl", "classic-pl", 4, {}, 11),
    ("classic", "classic-us", 3, {}, 5),
    ("anti-monopoly", "anti-monopoly-us", 4, {"ending": "two_hour"}, 3),
    ("anti-monopoly", "anti-monopoly-us", 3, {"ending": "game_b", "max_rounds": 12}, 8),
]


def screens(variant, board, players, options, seed, events=700):
    """Each state of a simulated game with its screen (the ledger's totals as the server keeps them)."""
    record = simulate(variant, board, players, seed=seed, max_events=events, options=options)
    state = start_state(parse_record(record))
    for event in record["events"]:
        yield state, screen(state)
        state = apply(state, event, narrate=False).state
    yield state, screen(state)


@pytest.mark.parametrize(("variant", "board", "players", "options", "seed"), GAMES)
def test_every_tap_offered_is_a_move_the_engine_accepts(variant, board, players, options, seed):
    kinds = set()
    for state, view in screens(variant, board, players, options, seed):
        for what, events in offered(view):
            after = state
            for i, event in enumerate(events):
                try:
                    after = apply(after, event, narrate=False).state
                except RulesError as e:
                    raise AssertionError(f"{what}: event {i} of {events} refused: {e.code} {e}") from e
            kinds.add(what)
    assert {"roll", "buy", "rent", "build", "mortgage", "trade"} <= kinds, kinds


@pytest.mark.parametrize(("variant", "board", "players", "options", "seed"), GAMES[:1] + GAMES[2:3])
def test_nothing_offered_that_the_screen_does_not_say_and_no_move_left_out(
    variant, board, players, options, seed
):
    """What the simulator plays next is among the taps offered, for the moves a tap enters alone (the
    simulator's free choices: a trade of its own, a deal of its drawing, a card of its effects, an auction's
    bid are its own and checked above by kind)."""
    record = simulate(variant, board, players, seed=seed, max_events=500, options=options)
    state = start_state(parse_record(record))
    plain = {
        "roll",
        "buy",
        "decline",
        "income_tax",
        "foundation",
        "jail_fine",
        "jail_card",
        "timeout",
        "time_up",
        "final_keep",
        "final_tour",
        "mortgage",
        "unmortgage",
        "bankrupt",
    }
    for event in record["events"]:
        if event["type"] in plain:
            taps = [e for _what, events in offered(screen(state)) for e in events[:1]]
            same = [t for t in taps if t["type"] == event["type"] and t.get("player") == event.get("player")]
            assert same, (event, taps)
        state = apply(state, event, narrate=False).state


def test_the_figures_are_the_engines_and_the_ledgers():
    record = simulate("tournament-pl", "classic-pl", 4, seed=21, max_events=400)
    whole, ledger = replay_ledger(record)
    totals = {pid: [ledger.income(pid), ledger.cost(pid)] for pid in ledger.players}
    view = screen(whole.state, totals)
    for p, shown in zip(whole.state.players, view["players"], strict=True):
        assert shown["id"] == p.id and shown["cash"] == p.cash and shown["position"] == p.position
        assert shown["net_worth"] == net_worth(whole.state, p.id)
        assert [shown["income"], shown["cost"]] == totals[p.id]
        assert [d["square"] for d in shown["deeds"]] == whole.state.owned_by(p.id)


def test_it_is_json_of_codes_ids_and_numbers():
    """No words of any language: names are the players' own, the rest codes (an end reason, a role, a
    refusal's code with its English template for the browser's catalogue)."""
    for _state, view in screens(
        "anti-monopoly", "anti-monopoly-us", 4, {"ending": "two_hour"}, 3, events=300
    ):
        assert json.loads(json.dumps(view)) == view


def cash(state, pid):
    return state.player(pid).cash


@pytest.mark.parametrize(("variant", "board", "players", "options", "seed"), GAMES)
def test_every_amount_the_screen_says_is_what_the_engine_takes_or_pays(
    variant, board, players, options, seed
):
    """A build's cost, a group's batch's cost, what a sale or a mortgage raises, a lift's amount, a rent's
    way out (the claim, then what each choice raises): each the very change of the player's cash when the
    engine applies it; a group's batch's hotels, the levels it reaches."""
    seen = set()
    for state, view in screens(variant, board, players, options, seed):
        for p in view["players"]:
            may, pid = p["may"], p["id"]
            if not may:
                continue
            for row in may["build"]:
                for c in row["counts"]:
                    ev = {"type": "build", "player": pid, "square": row["square"], "count": c["count"]}
                    after = apply(state, ev, narrate=False).state
                    assert cash(state, pid) - cash(after, pid) == c["cost"], (ev, c)
                    assert c["top"] == (after.holdings[row["square"]].level >= after.hotel_level(pid))
                    seen.add("build")
            for batch in may["build_each"]:
                after = state
                for sq in batch["squares"]:
                    after = apply(after, {"type": "build", "player": pid, "square": sq}, narrate=False).state
                assert cash(state, pid) - cash(after, pid) == batch["cost"], batch
                tops = sum(after.holdings[sq].level >= after.hotel_level(pid) for sq in batch["squares"])
                assert tops == batch["hotels"], batch
                seen.add("build_each")
            for u in may["unmortgage"]:
                ev = {"type": "unmortgage", "player": pid, "square": u["square"]}
                assert cash(state, pid) - cash(apply(state, ev, narrate=False).state, pid) == u["amount"]
                seen.add("unmortgage")
            for m in may["mortgage"]:
                ev = {"type": "mortgage", "player": pid, "square": m["square"]}
                assert cash(apply(state, ev, narrate=False).state, pid) - cash(state, pid) == m["loan"]
        for d in view["now"]["debts"]:
            check_choices(state, d["choices"])
            seen.add("raise")
        for r in view["now"]["rents"]:
            if r["short"]:
                claim = {"type": "rent", "player": r["payer"], "square": r["square"]}
                after = apply(state, claim, narrate=False).state
                assert (cash(state, r["payer"]), -cash(after, r["payer"])) == (
                    r["short"]["cash"],
                    r["short"]["owed"],
                )
                check_choices(after, r["short"]["choices"])
                seen.add("rent_short")
    assert "build" in seen, seen


def test_a_debtors_way_out_raises_what_it_says_over_long_games():
    """Debts come late in a game: long classic games, each debt's and each short rent's way out checked."""
    checked = 0
    for seed in (1, 2, 3):
        record = simulate("classic", "classic-us", 4, seed=seed, max_events=3000)
        state = start_state(parse_record(record))
        for event in record["events"]:
            if state.debtors() or state.rents:
                view = screen(state)
                for d in view["now"]["debts"]:
                    check_choices(state, d["choices"])
                    checked += len(d["choices"])
                for r in view["now"]["rents"]:
                    if r["short"]:
                        after = apply(
                            state,
                            {"type": "rent", "player": r["payer"], "square": r["square"]},
                            narrate=False,
                        )
                        check_choices(after.state, r["short"]["choices"])
                        checked += len(r["short"]["choices"])
            state = apply(state, event, narrate=False).state
    assert checked > 20, checked


def check_choices(state, choices):
    """Each choice of a debtor's way out raises what it says, after the sale it needs."""
    for c in choices:
        before = state
        if c["needs"] is not None:
            before = apply(state, choices[c["needs"]]["event"], narrate=False).state
        after = apply(before, c["event"], narrate=False).state
        pid = c["event"]["player"]
        assert cash(after, pid) - cash(before, pid) == c["raises"], c


def test_a_polish_deck_offers_what_a_deck_of_its_kind_prints():
    """Szansa is offered the classic Chance's effects one tap each, Kasa Społeczna the Community Chest's; the
    cards without an amount not among them (the nearest railroad and utility for Kasa Społeczna) behind one
    more tap; a "Get out of jail free" card a player holds is offered nowhere."""
    t = Table("tournament-pl", "classic-pl")
    jail_card = {"kind": "jail_card"}

    def offers():
        card = screen(t.state)["now"]["card"]
        return [e["effect"] for e in card["effects"]], [e["effect"] for e in card["other"]]

    t.roll("A", 3, 4)  # Szansa
    assert offers() == (deck_effects(t.state.board, "chance"), [])
    assert len(deck_effects(t.state.board, "chance")) == 15 and jail_card in deck_effects(
        t.state.board, "chance"
    )
    t("card", player="A", effect=jail_card)
    t.roll("B", 1, 1)  # Kasa Społeczna
    effects, other = offers()
    assert effects == deck_effects(t.state.board, "community_chest") and jail_card in effects
    assert [e["square_kind"] for e in other] == ["railroad", "utility"]
    t("card", player="B", effect={"kind": "collect", "amount": 200})
    t.roll("B", 2, 3)  # his double's second throw: 2 -> 7, Szansa, whose jail card Anna holds
    effects, other = offers()
    assert effects == [e for e in deck_effects(t.state.board, "chance") if e != jail_card] and other == []


def test_a_board_of_another_layout_is_offered_no_classic_cards_squares():
    """An edition whose squares are not the classic ones in the classic places (a director's own board) has
    no one-tap "advance to square 24": what the classic cards print is not its cards'."""
    from dataclasses import replace

    from rules.board import get_board

    board = get_board("classic-pl")
    assert deck_effects(board, "chance") is not None
    squares = list(board.squares)
    squares[24], squares[25] = squares[25], squares[24]  # a railway where a street was
    assert deck_effects(replace(board, squares=tuple(squares)), "chance") is None
    assert deck_effects(board, "competitor") is None
