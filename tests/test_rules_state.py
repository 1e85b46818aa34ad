"""GameState.clone and PlayerState.clone are written out slot by slot: every field is copied, and nothing
that changes in place is shared."""

from dataclasses import fields

from rules import replay
from rules.simulate import simulate


def _played_state():
    return replay(simulate("classic", "classic-us", 4, seed=3, max_events=600), narrate=False).state


def test_clone_copies_every_field():
    state = _played_state()
    copy = state.clone()
    for f in fields(state):
        assert getattr(copy, f.name) == getattr(state, f.name), f.name
    for p, q in zip(state.players, copy.players, strict=True):
        assert p is not q
        for f in fields(p):
            assert getattr(q, f.name) == getattr(p, f.name), f.name
    assert copy == state


def test_clone_shares_nothing_that_changes_in_place():
    state = _played_state()
    copy = state.clone()
    assert copy.holdings is not state.holdings
    assert copy.final_rolls is not state.final_rolls
    assert all(copy.by_id[p.id] is p for p in copy.players)
    for p, q in zip(state.players, copy.players, strict=True):
        assert q.jail_cards is not p.jail_cards
        assert q.unpaid is not p.unpaid
