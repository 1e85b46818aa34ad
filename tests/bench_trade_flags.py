"""Measure the trade flags (issue 42) on simulated tournaments (tests/trade_flag_sims.py): with planted gift
trades (a large gift in each game, a colluding pair's small one-way gifts), how many are found; on honest
ones, the false flags of each rule per honest trade and per game. Prints figures; asserts nothing timed.

    python tests/bench_trade_flags.py [tournaments] [variant board]

Honest here means the simulator's own trades: a player short of cash sells a street to another for between
half its price and its price (rules/simulate.py) — so the honest value moved is at most half a price; and,
apart, those with the sales a real table adds: the street that completes another's set, bought at a premium
of up to 50 % or 100 % over its price (tests/trade_flag_sims.py's SetSaleSimulator)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.trade_flag_sims import CASH, MOVES, PERCENT, Measured, measure, sim_tournament  # noqa: E402


def run(tournaments: int, variant: str, board: str, game_rounds: int) -> None:
    started = time.perf_counter()
    honest, gifted = Measured(), Measured()
    for seed in range(tournaments):
        measure(sim_tournament(seed, variant=variant, board=board, game_rounds=game_rounds), honest)
        measure(
            sim_tournament(1000 + seed, variant=variant, board=board, game_rounds=game_rounds, gifts=True),
            gifted,
        )
    took = time.perf_counter() - started
    print(
        f"{variant} on {board}, games of {game_rounds} rounds; settings {CASH} / {PERCENT} % / {MOVES} moves"
    )
    print(
        f"  {tournaments} honest and {tournaments} planted tournaments of 12 players, 4 rounds ({took:.1f} s)"
    )
    pairs_missed = sum(1 for m in gifted.missed if m[0] == "pair")
    pairs = tournaments - gifted.unplanted
    large = gifted.planted - pairs
    print(f"  planted gifts found: {gifted.found} / {gifted.planted}")
    print(f"    large gifts (rule a): {large - (len(gifted.missed) - pairs_missed)} / {large}")
    print(f"    colluding pairs (rule c): {pairs - pairs_missed} / {pairs}", end="")
    print(f" ({gifted.unplanted} more whose gifts the game never allowed)" if gifted.unplanted else "")
    print(f"  honest: {honest.games} games, {honest.trades} trades")
    for kind, n in honest.flags.items():
        per_trade = n / honest.trades if honest.trades else 0
        per_game = n / honest.games if honest.games else 0
        print(f"  false flags {kind:9}: {n:4}  per honest trade {per_trade:.3f}  per game {per_game:.3f}")
    extra = gifted.flags
    print(f"  in the planted tournaments, flags on trades not planted: {extra}")


def run_set_sales(tournaments: int, variant: str, board: str, game_rounds: int, premium: float) -> None:
    """Honest tournaments with set-completing sales at a premium up to ``premium`` of the price: the false
    flags a real table's bargains would bring (the simulator's own trades are sales at a discount)."""
    honest = Measured()
    for seed in range(tournaments):
        measure(
            sim_tournament(seed, variant=variant, board=board, game_rounds=game_rounds, premium=premium),
            honest,
        )
    print(
        f"  honest with set-completing sales at up to {premium:.0%} over the price: {honest.games} games, "
        f"{honest.trades} trades"
    )
    for kind, n in honest.flags.items():
        per_trade, per_game = (n / honest.trades if honest.trades else 0), n / honest.games
        print(f"    false flags {kind:9}: {n:4}  per honest trade {per_trade:.3f}  per game {per_game:.3f}")


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    variant, board = (sys.argv[2], sys.argv[3]) if len(sys.argv) > 3 else ("classic", "classic-us")
    for rounds in (40, 100, 300):
        run(n, variant, board, rounds)
        for premium in (0.5, 1.0):
            run_set_sales(n, variant, board, rounds, premium)
