"""Benchmark of the rules engine (prints figures; not a test).

    python tests/bench_engine.py [--games 20] [--seed 0] [--peer DIR [--peer-games 150] [--compare-games 60]
                                 [--runs 5]]

Prints:
- ``simulate``: player-turns per CPU-second over complete random games (4 players, classic; every event
  validated by the engine and its money movements recorded, as the simulator always does);
- ``replay``: events per second (CPU) over the same games, for the books and the score (no notes) and with
  the notes (what the console and the reports show);
- memory of a replay: the peak of what a replay allocates for the first 1,000 events of a long game and for
  all of it (flat: the state is changed in place, nothing is kept per event);
- the cost of applying one event at event 10 and at event 10,000 of the same long game (the console applies
  one event per request: this must not grow with the game).

``--peer DIR`` also times the fastest public Monopoly simulator (gamescomputersplay/monopoly, extracted in
DIR; it validates nothing) beside the project: project and peer alternately, 5 runs each of about a
CPU-second after one of each not counted, and prints the medians, their ratio and the median of the ratios
pair by pair. The peer runs in a subprocess (its top-level ``settings`` module would clash with
nothing here, but its module state would outlive a run), with its own fastest settings: no game log, its
bankruptcy log to /dev/null, 4 players. Its player-turns are counted as the project counts them: one per
player's move, a double's extra roll being the same turn (the recursive call of ``Player.make_a_move`` is not
counted). The counting wrapper costs the peer well under 1 % of its time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
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


#: Run in the peer's directory: ``games`` games from ``seed`` (drawn as its scripts/simulate.py draws them);
#: prints {"turns", "cpu"} as JSON. Written here, not copied from the peer: it drives its public function.
PEER_DRIVER = """
import json, os, random, sys, time
sys.path.insert(0, os.getcwd())
from monopoly.log_settings import LogSettings
LogSettings.KEEP_GAME_LOG = False
LogSettings.BANKRUPTCIES_PATH = os.devnull
from monopoly.core import game
from monopoly.core.player import Player

games, seed = int(sys.argv[1]), int(sys.argv[2])
turns = depth = 0
move = Player.make_a_move

def counted(self, *args):
    global turns, depth
    if not depth:
        turns += 1
    depth += 1
    try:
        return move(self, *args)
    finally:
        depth -= 1

Player.make_a_move = counted
master = random.Random(seed)
pairs = [(i + 1, master.getrandbits(32)) for i in range(games)]
t0 = time.process_time()
for pair in pairs:
    game.monopoly_game(pair)
print(json.dumps({"turns": turns, "cpu": time.process_time() - t0}))
"""


def peer_games(peer: Path, games: int, seed: int) -> tuple[int, float]:
    """The peer's (player-turns, CPU seconds) over ``games`` games, in a subprocess run in its directory."""
    done = subprocess.run(
        [sys.executable, "-c", PEER_DRIVER, str(games), str(seed)],
        cwd=peer,
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(done.stdout.splitlines()[-1])
    return figures["turns"], figures["cpu"]


def compare_with_peer(peer: Path, games: int, peer_games_n: int, seed: int, runs: int = 5) -> None:
    """Project and peer alternately, ``runs`` times each after one run of each not counted (the first run of
    a process pays for its imports and first caches); medians of player-turns per CPU-second, and the median
    of the ratios pair by pair (a pair runs within seconds: a change of the machine's load sways both)."""
    simulate_games(games, seed), peer_games(peer, peer_games_n, seed)  # warm-up, not counted
    ours, theirs = [], []
    for run in range(runs):
        _, turns, cpu = simulate_games(games, seed)
        ours.append(turns / cpu)
        p_turns, p_cpu = peer_games(peer, peer_games_n, seed)
        theirs.append(p_turns / p_cpu)
        print(
            f"  run {run + 1}: project {ours[-1]:,.0f} turns/s ({turns:,} turns), "
            f"peer {theirs[-1]:,.0f} turns/s ({p_turns:,} turns), ratio {ours[-1] / theirs[-1]:.2f}"
        )
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"simulate vs peer, medians of {runs}: project {a:,.0f}, peer {b:,.0f} player-turns per CPU-second")
    pairs = statistics.median(x / y for x, y in zip(ours, theirs, strict=True))
    print(f"ratio project/peer: {a / b:.2f} (of the medians); {pairs:.2f} (median of the {runs} pairs)")


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
    ap.add_argument("--peer", type=Path, help="gamescomputersplay/monopoly extracted in this directory")
    ap.add_argument("--peer-games", type=int, default=150, help="the peer's games a run (about 1 CPU-second)")
    ap.add_argument(
        "--compare-games", type=int, default=60, help="the project's games a run beside the peer (~1 CPU-s)"
    )
    ap.add_argument("--runs", type=int, default=5, help="runs of each beside the other (+1 not counted)")
    args = ap.parse_args(argv)

    if args.peer:
        compare_with_peer(args.peer, args.compare_games, args.peer_games, args.seed, args.runs)

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
