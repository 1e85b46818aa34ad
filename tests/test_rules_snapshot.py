"""Snapshots: a state written as JSON and read back is the same state, at every event of simulated games."""

import json

import pytest

from rules import replay
from rules.simulate import simulate
from rules.snapshot import dump_state, load_state


@pytest.mark.parametrize(
    ("variant", "board"),
    [
        ("classic", "classic-us"),
        ("short", "classic-us"),
        ("tournament-pl", "classic-pl"),
        ("polish-table", "classic-pl"),
    ],
)
def test_snapshot_round_trip_at_every_event(variant, board):
    for seed in range(4):
        result = replay(simulate(variant, board, 4, seed, rounds=20), keep=True)
        for out in result.outcomes:
            data = json.loads(json.dumps(dump_state(out.state)))
            assert load_state(data) == out.state


def test_unknown_snapshot_version():
    with pytest.raises(ValueError):
        load_state({"version": 99})
