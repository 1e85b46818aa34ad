"""Benchmark of the rules engine (prints figures; not a test).

    python tests/bench_engine.py [--games 20] [--seed 0]

Prints:
- ``simulate``: player-turns per CPU-second over complete random games (4 players, classic; every event
  validated by the engine and its money movements recorded, as the simulator always does);
- ``replay``: events per second (CPU) over the same games, for the books and the score (no notes) and with
  the notes (what the console and the reports show);
- memory of a replay: the peak of what a replay allocates for the first 1,000 events of a long game and for
  all of it (flat: the state is changed in place, nothing is kept per event);
- the cost of applying one event at event 10 and at event 10,000 of the same long game (the console applies
  one event per request: this must not grow with the game).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import apply, replay  # noqa: E402
from rules.simulate import Simulator, simulate  # noqa: E402


def simulate_games(games: int, seed: int) -> tuple[list[dict], int, float]:
    """Complete 4-player classic games: (records, player-turns, CPU seconds)."""
    records, turns, cpu = [], 0, 0.0
    for k in range(games):
        sim = Simulator("classic", "classic-us", 4, seed + k, max_events=50_000)
        t0 = time.process_time()
        sim.run()
        cpu += time.process_time() - t0
        records.append(sim.record)
        turns += count_turns(sim.record)
    return records, turns, cpu


def count_turns(record: dict) -> int:
    """Turns played: each turn is begun by its player's first roll (or a timeout of his move)."""
    state = replay({**record, "events": []}).state
    turns = 0
    last = None
    for ev in record["events"]:
        apply(state, ev, in_place=True, narrate=False)
        key = (state.round, state.turn)
        if key != last and state.turn is not None:
            turns += 1
            last = key
    return turns


def replay_rate(records: list[dict], narrate: bool) -> float:
    events = sum(len(r["events"]) for r in records)
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        for r in records:
            result = replay(r, narrate=narrate)
            assert result.error is None, result.error
        best = min(best, time.process_time() - t0)
    return events / best


def replay_peak(record: dict) -> int:
    tracemalloc.start()
    replay(record, narrate=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def per_event_cost(states: dict, events: list, start: int, window: int = 50, repeat: int = 200) -> float:
    """Mean µs to apply one event (to a copy of the state), over ``window`` events from ``start``."""
    costs = []
    for k in range(start, start + window):
        state, ev = states[k], events[k]
        t0 = time.perf_counter()
        for _ in range(repeat):
            apply(state, ev)
        costs.append((time.perf_counter() - t0) / repeat * 1e6)
    return statistics.mean(costs)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    records, turns, cpu = simulate_games(args.games, args.seed)
    events = sum(len(r["events"]) for r in records)
    print(
        f"simulate: {turns / cpu:,.0f} player-turns per CPU-second "
        f"({args.games} complete games, classic, 4 players: {turns:,} turns, {events:,} events "
        f"in {cpu:.2f} s)"
    )
    print(f"replay, books and score only: {replay_rate(records, False):,.0f} events/s")
    print(f"replay with notes:            {replay_rate(records, True):,.0f} events/s")

    long = next(  # the first long enough game from --seed on (6 players, up to 20,000 events)
        r
        for k in range(args.seed, args.seed + 50)
        if len((r := simulate("classic", "classic-us", 6, k, rounds=5000, max_events=20_000))["events"])
        > 10_100
    )
    n = len(long["events"])
    short = {**long, "events": long["events"][:1000]}
    print(
        f"replay memory peak: {replay_peak(short) / 1024:,.0f} KiB for 1,000 events, "
        f"{replay_peak(long) / 1024:,.0f} KiB for {n:,} events"
    )
    wanted = set(range(10, 60)) | set(range(10_000, 10_050))
    states = {}
    replay(long, on_outcome=lambda i, out: (i + 1) in wanted and states.__setitem__(i + 1, out.state.clone()))
    early = per_event_cost(states, long["events"], 10)
    late = per_event_cost(states, long["events"], 10_000)
    print(
        f"apply one event at event 10:     {early:6.1f} µs "
        "(mean over events 10–59, copy of the state included)"
    )
    print(f"apply one event at event 10,000: {late:6.1f} µs (mean over events 10,000–10,049)")
    print(f"ratio late/early: {late / early:.2f}")


if __name__ == "__main__":
    main()
