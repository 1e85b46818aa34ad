"""Tables in play for the live board and the public API's tests (tests/test_api*.py,
tests/test_live_board_browser.py): a tournament whose setting ``live_boards`` is on, its first round seated
and started, one table's game started and played some moves of a simulated record (its roles and ending for
Anti-Monopoly), and more of them on demand (``LiveTable.play``). The callers need the database."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.simulate import simulate
from tests.tournaments import make_tournament, start_game
from tournament.event import rounds
from tournament.games import recording
from tournament.models import Game, Table, Tournament


@dataclass
class LiveTable:
    tournament: Tournament
    table: Table
    game: Game
    events: list[dict]  # the simulated record's events, the played ones first
    played: int = 0
    roles: list[str] = field(default_factory=list)

    def play(self, moves: int = 1) -> Game:
        """The next ``moves`` events of the record entered, as the referee's console enters them."""
        for ev in self.events[self.played : self.played + moves]:
            self.game = recording.submit(self.game.pk, ev, version=self.game.version).game
            self.played += 1
        return self.game

    def play_until(self, done, most: int = 400) -> Game:
        """Moves entered one by one until ``done(state)`` (at most ``most`` of them)."""
        for _ in range(most):
            if done(recording.current_state(self.game)):
                return self.game
            self.play()
        raise AssertionError("the simulated game never came to it")


def live_table(
    variant="tournament-pl", board="classic-pl", moves=0, live=True, seed=5, players=4
) -> LiveTable:
    """A tournament of ``players`` (one table) showing its boards (``live``), its game ``moves`` moves in."""
    options = {"name": "Puchar Łodzi", "rounds": 2, "table_size": players, "seed": seed}
    options |= {"variant": variant, "board": board, "live_boards": live}
    if variant == "anti-monopoly":
        options["game_rounds"] = 3
    t = make_tournament([f"Gracz {c}" for c in "ABCDEFGH"[:players]], "Klub", **options)
    round_1 = rounds.seat_next_round(t)
    rounds.start_round(round_1)
    table = round_1.tables.get()
    seats = list(table.seats.all())  # start_game's order
    game = start_game(table)
    extra = {}
    if variant == "anti-monopoly":
        extra = {"roles": [s.role for s in seats], "options": {"ending": t.ending}}
    record = simulate(variant, board, len(seats), seed=seed, rounds=t.game_rounds, **extra)
    live_ = LiveTable(t, table, game, record["events"], roles=[s.role for s in seats])
    live_.play(moves)
    return live_
