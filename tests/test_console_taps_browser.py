"""The taps a turn costs on the console, counted as a person makes them (a click, a box ticked, a field typed
into; the keyboard's keys are not taps), over whole games played at 360 px by a referee who plays like people
play — auctions, trades, debts, builds, cards with the dice asked in place, jail — on the Polish board in the
tournament's house rules, the English board in classic, and Anti-Monopoly's two-hour game.

A turn is a throw of the dice and what is settled before the next one (a double's extra throw is a turn of
its own, as the rules call it: "throws again"); what is done before a throw (a build, a trade, a jail exit)
belongs to the turn that throw starts. Goals (the issue's): a mean of at most 2.5 taps a turn on each game,
and no turn above 6 taps but one with a bankruptcy (at most 8). The figures are printed (``-s``)."""

import statistics

import pytest

from tests.browser import BROWSER_TESTS
from tests.console_bot import GAMES, Referee, a_game, a_table_game

pytestmark = BROWSER_TESTS

MEAN = 2.5
MOST = 6
BANKRUPTCY_MOST = 8
#: The throws counted in a game at most (the tournament's game ends after 10 rounds, some 50 throws; a classic
#: or an Anti-Monopoly game may go on for many hundreds, each throw much like those before).
THROWS = 250


@pytest.mark.parametrize(("variant", "board", "options", "seed"), GAMES)
def test_a_turn_takes_few_taps(live_server, browser, variant, board, options, seed):
    game = a_table_game(variant, board) if variant == "tournament-pl" else a_game(variant, board, options)
    ref = Referee(browser, live_server, game, seed)
    turns: list[list] = []  # each turn: [its player, its taps, what was tapped in it]
    while not ref.view["game"]["finished"] and len(turns) < THROWS:
        roll = ref.view["now"]["roll"]
        if roll and (not turns or "roll" in turns[-1][2]):
            turns.append([roll["player"], 0, []])  # the next throw's turn
        taps = ref.taps
        what = ref.step()
        if turns:
            turns[-1][1] += ref.taps - taps
            turns[-1][2].append(what)
    ref.context.close()
    counts = [t[1] for t in turns]
    mean, worst = statistics.mean(counts), max(counts)
    over = [(t[1], t[2]) for t in turns if t[1] > (BANKRUPTCY_MOST if "bankrupt" in t[2] else MOST)]
    print(f"\n{variant} on {board}: {len(turns)} turns, {sum(counts)} taps: mean {mean:.2f} a turn, median "
          f"{statistics.median(counts):g}, most {worst}")  # fmt: skip
    assert mean <= MEAN, (mean, counts)
    assert not over, over
