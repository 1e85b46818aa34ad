"""Benchmark of the rules engine (prints figures; not a test).

    python tests/bench_engine.py [--seed 0] [--players 8]

Prints: events replayed per second on a long simulated game, and the cost of applying one event at event
10 versus event 5,000 of the same game (the console applies one event per request: this must not grow).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import apply, replay  # noqa: E402
from rules.simulate import simulate  # noqa: E402


def per_event_cost(outcomes, events, start: int, window: int = 50, repeat: int = 200) -> float:
    """Mean µs to apply one event, over ``window`` events from ``start``, each applied ``repeat`` times."""
    costs = []
    for k in range(start, start + window):
        state = outcomes[k - 1].state
        ev = events[k]
        t0 = time.perf_counter()
        for _ in range(repeat):
            apply(state, ev)
        costs.append((time.perf_counter() - t0) / repeat * 1e6)
    return statistics.mean(costs)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=8)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    record = simulate("classic", "classic-us", args.players, args.seed, rounds=5000, max_events=20_000)
    n = len(record["events"])
    print(
        f"simulated game: classic, {args.players} players, seed {args.seed}: {n} events "
        f"({time.perf_counter() - t0:.2f} s to simulate)"
    )
    if n < 5_100:
        sys.exit("the simulated game is too short for the event-5,000 figure; try another --seed")

    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        result = replay(record)
        runs.append(time.perf_counter() - t0)
    assert result.error is None, result.error
    best = min(runs)
    print(f"replay: {n / best:,.0f} events/s (best of 5: {best * 1000:.0f} ms for {n} events)")

    outcomes, events = result.outcomes, record["events"]
    early = per_event_cost(outcomes, events, 10)
    late = per_event_cost(outcomes, events, 5_000)
    print(f"apply one event at event 10:    {early:6.1f} µs (mean over events 10–59)")
    print(f"apply one event at event 5,000: {late:6.1f} µs (mean over events 5,000–5,049)")
    print(f"ratio late/early: {late / early:.2f} (the state grows with what is owned, bounded by the board)")
    if n > 10_100:
        later = per_event_cost(outcomes, events, 10_000)
        print(f"apply one event at event 10,000: {later:5.1f} µs (mean over events 10,000–10,049)")


if __name__ == "__main__":
    main()
