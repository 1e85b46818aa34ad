"""Wrong dice corrected in one tap, where the mistake is seen (issue 20), through Django's test client: the
undo of a throw of the dice entered on this device (the turn's roll, a utility's rent, the final steps'
valuation) offers the dice pad; its key undoes the throw ("wrong dice") and enters the same player's throw
with the right dice, both or neither. A stale screen refuses both, a resent request is applied once, another
device's throw is not offered it; the log keeps both throws; the corrected throw is undone in one tap. (Two
identical requests at once: tests/test_event_day_races.py.)"""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from ledger.report import replay_ledger
from rules import RuleError
from rules.simulate import simulate
from tests.test_console_flow import HX, Screen, phone, start, state
from tournament.console.devices import SEPARATOR
from tournament.event import rounds
from tournament.games import recording
from tournament.models import GameEvent, Participant, Round, Tournament

pytestmark = pytest.mark.django_db
UNDONE, ACTIVE = GameEvent.Status.UNDONE, GameEvent.Status.ACTIVE
OFFERED = "Wrong dice? The right ones:"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def correct(screen: Screen, **data) -> Screen:
    """A key of the pad in the opened undo (or whatever a forged form sends)."""
    return screen.post(reverse("console_correct_dice", args=[screen.game.pk]), **data)


def rows(game) -> dict:
    """Each move of the game: its number → (type, dice, status, reason)."""
    return {
        r.seq: (r.data["type"], r.data.get("dice"), r.status, r.reason)
        for r in GameEvent.objects.filter(game=game).order_by("seq")
    }


def error(screen: Screen) -> str:
    found = re.search(r'id="console-error">([^<]*)<', screen.html)
    return found.group(1) if found else ""


def the_stored_state_is_a_replay(game) -> None:
    game.refresh_from_db()
    replayed, ledger = replay_ledger(recording.record_of(game))
    assert replayed.error is None and recording.current_state(game) == replayed.state
    assert game.ledger == {pid: [ledger.income(pid), ledger.cost(pid)] for pid in game.ledger}


def wrong_roll(referee, dice="12"):
    """Anna's roll entered on this phone with the wrong key (1·2: ul. Stalowa); the phone's next screen."""
    game = start(referee)
    return game, Screen(phone(referee), game).act(action="roll", player="A", dice=dice)


def test_the_undo_of_this_devices_roll_offers_the_right_dice(referee):
    game, screen = wrong_roll(referee)
    undo = screen.html[screen.html.index('<details class="undo-last">') :]
    undo = undo[: undo.index("</details>")]
    assert OFFERED in undo and 'aria-label="The right dice"' in undo
    form = re.search(r'<form[^>]*class="correct-dice">(.*?)</form>', undo, re.S).group(1)
    assert len(re.findall(r'<button name="dice" value="[1-6]{2}"', form)) == 36  # the whole pad, 6 × 6
    assert reverse("console_correct_dice", args=[game.pk]) in undo
    # beside the one-tap reasons, which still undo it alone (a die off the table: thrown again)
    assert re.findall(r'name="quick" value="(\w+)"', undo) == ["tap", "dice", "amount"]
    assert undo.index(OFFERED) < undo.index("Why? One tap undoes it:")  # the commonest first


def test_one_tap_undoes_the_roll_and_enters_the_right_one(referee):
    game, screen = wrong_roll(referee)
    key, version = screen.fields["client_key"], screen.fields["version"]
    after = correct(screen, dice="23")
    assert error(after) == ""
    assert "Move #1 was undone and the right dice entered as move #2." in after.html
    s = state(game)
    assert s.player("A").position == 5 and s.decision is not None  # Dworzec Zachodni: hers to buy
    # the log keeps both: the wrong roll undone with the one-tap reason's words, and the right one
    assert rows(game) == {1: ("roll", [1, 2], UNDONE, "wrong dice"), 2: ("roll", [2, 3], ACTIVE, "")}
    wrong, right = GameEvent.objects.get(game=game, seq=1), GameEvent.objects.get(game=game, seq=2)
    assert wrong.change_key == right.client_key == key and wrong.changed_by == referee == right.entered_by
    assert game.version == int(version) + 1  # one change: the other phone sees one new version
    the_stored_state_is_a_replay(game)
    log = after.html[after.html.index('class="log') :]
    assert "Anna rolls 1+2." in log and "wrong dice" in log and "Anna rolls 2+3." in log
    # the move just made is the right roll, this device's own
    just_now = after.html[
        after.html.index('id="just-now"') : after.html.index('aria-label="What happens now"')
    ]
    assert "#2" in just_now and "Anna rolls 2+3." in just_now and "Undo move #2" in just_now


def test_the_corrected_roll_is_undone_in_one_tap(referee):
    game, screen = wrong_roll(referee)
    after = correct(screen, dice="23")
    assert 'name="quick"' in after.html and OFFERED in after.html  # this device's move: one tap again
    undone = after.undo(quick="tap")
    assert "The last move was undone." in undone.html
    assert rows(game) == {1: ("roll", [1, 2], UNDONE, "wrong dice"), 2: ("roll", [2, 3], UNDONE, "wrong tap")}
    assert state(game).player("A").position == 0
    # and a second correction of a corrected roll is one tap too
    again = correct(Screen(after.client, game).act(action="roll", player="A", dice="11"), dice="34")
    assert "Move #3 was undone and the right dice entered as move #4." in again.html
    assert state(game).player("A").position == 7


def test_a_resent_correction_is_applied_once(referee):
    game, screen = wrong_roll(referee)
    first = correct(screen, dice="23")
    game.refresh_from_db()
    version = game.version
    again = correct(screen, dice="23")  # the same request (its key) again: a double tap, a retry
    assert error(again) == "" and "Move #1 was undone" in again.html
    assert rows(game) == {1: ("roll", [1, 2], UNDONE, "wrong dice"), 2: ("roll", [2, 3], ACTIVE, "")}
    game.refresh_from_db()
    assert game.version == version and first.fields["version"] == again.fields["version"]


def test_a_stale_screen_refuses_both_saying_what_the_other_device_did(referee):
    game, mine = wrong_roll(referee)
    Screen(phone(referee), game).act(action="buy", player="A")  # the other phone: Anna buys ul. Stalowa
    game.refresh_from_db()
    before, version = rows(game), game.version
    refused = correct(mine, dice="23")
    told = error(refused)
    assert told.startswith("Another device changed the game meanwhile: nothing undone, no dice entered.")
    assert "The other device entered: #2 Anna buys" in told, told
    game.refresh_from_db()
    assert rows(game) == before and game.version == version
    assert state(game).holdings[3].owner == "A"
    # the last move now is the purchase: the current screen offers no dice to correct
    assert OFFERED not in refused.html and "Undo move #2" in refused.html


def test_another_devices_roll_is_not_offered_the_correction(referee):
    game, _mine = wrong_roll(referee)
    other = Screen(phone(referee), game)  # the same account on a second phone
    assert (
        "Undo move #1" in other.html
        and OFFERED not in other.html
        and 'class="correct-dice"' not in other.html
    )
    assert "It was entered on another device: say why you undo it." in other.html
    # its form forged on the other phone (its own key): refused, nothing changes
    refused = correct(other, dice="23")
    assert error(refused) == "Move #1 was entered on another device: say why you undo it."
    assert rows(game) == {1: ("roll", [1, 2], ACTIVE, "")}


def test_no_correction_after_a_move_that_is_no_throw(referee):
    game, screen = wrong_roll(referee)
    bought = screen.act(action="buy", player="A")
    assert "Undo move #2" in bought.html and OFFERED not in bought.html
    refused = correct(bought, dice="23")
    assert error(refused) == "The last move is not a throw of the dice: there are no dice to correct."
    assert [r[2] for r in rows(game).values()] == [ACTIVE, ACTIVE]
    # nor after a batch (a decline and its auction: one tap)
    sold = Screen(phone(referee), start(referee)).act(action="roll", player="A", dice="12")
    sold = sold.act(action="decline", player="A", square="3", winner="B", price="45")
    assert "Undo moves #2–#3" in sold.html and OFFERED not in sold.html


def test_the_same_dice_again_change_nothing(referee):
    game, screen = wrong_roll(referee)
    for same in ("12", "21"):
        refused = correct(screen, dice=same)
        assert error(refused) == "Move #1 was entered with these dice: nothing to correct."
    assert rows(game) == {1: ("roll", [1, 2], ACTIVE, "")}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"dice": "27"}, "A die shows 1 to 6."),
        ({"dice": "9" * 40}, "A die shows 1 to 6."),
        ({"dice": ""}, "A die shows 1 to 6."),
        ({}, "Enter the first die."),
        ({"dice": ["23", "34"]}, "This form is damaged: reload the page and enter the move again."),
        ({"dice": "23", "client_key": ""}, "This form is damaged: reload the page and enter the move again."),
        (
            {"dice": "23", "client_key": "0123abcd" + SEPARATOR + "forged"},  # another device's key
            "This form is damaged: reload the page and enter the move again.",
        ),
        (
            {"dice": "23", "client_key": "x+1"},
            "This form is damaged: reload the page and enter the move again.",
        ),
        ({"dice": "23", "version": "abc"}, "Another device changed the game meanwhile: nothing undone"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(referee, fields, message):
    game, screen = wrong_roll(referee)
    response = screen.client.post(
        reverse("console_correct_dice", args=[game.pk]), {**screen.fields, **fields}, **HX
    )
    assert response.status_code == 200
    assert message in error(Screen(screen.client, game, response))
    assert rows(game) == {1: ("roll", [1, 2], ACTIVE, "")}


def test_a_key_of_this_device_from_another_form_of_the_screen_is_not_a_resend(referee):
    """The forms of one screen share its key: the correction posted after another of its forms (a stale page,
    no scripts) is refused as stale, not answered as done."""
    game, screen = wrong_roll(referee)
    screen.act(action="buy", player="A")  # the buy panel's form, the screen's key
    refused = correct(screen, dice="23")
    assert "Another device changed the game meanwhile: nothing undone" in error(refused)
    assert [r[2] for r in rows(game).values()] == [ACTIVE, ACTIVE]


def test_dice_the_rules_refuse_change_nothing_not_even_the_undo(referee, monkeypatch):
    """Undo and new throw are one transaction: the throw refused (the rules could refuse it — a roll's dice
    are legal for the same player, but the engine has the last word), the undo is not kept either."""
    game, screen = wrong_roll(referee)
    apply = recording.apply

    def refusing(state, event, **how):
        if event.get("dice") == [2, 3]:
            raise RuleError("test.refused", "These dice are refused here.")
        return apply(state, event, **how)

    monkeypatch.setattr(recording, "apply", refusing)
    refused = correct(screen, dice="23")
    assert error(refused) == "Nothing was changed: the rules refuse these dice. These dice are refused here."
    assert rows(game) == {1: ("roll", [1, 2], ACTIVE, "")}
    assert state(game).player("A").position == 3
    the_stored_state_is_a_replay(game)


def test_in_jail_a_wrong_double_is_corrected_and_he_stays_in_jail(referee):
    game = recording.create_game(
        variant="classic",
        board="classic-us",
        players=[{"name": n} for n in ("Anna", "Bartek")],
        referees=[referee],
    )
    screen = Screen(phone(referee), game)
    screen = screen.act(action="roll", player="A", dice="55")  # 10: just visiting, a double
    screen = screen.act(action="roll", player="A", dice="66")  # 22: Chance, a second double
    screen = screen.act(action="card", player="A", card="chance:go-to-jail")
    screen = screen.act(action="roll", player="B", dice="12")  # 3: Baltic Avenue
    screen = screen.act(action="buy", player="B")
    assert state(game).player("A").in_jail
    screen = screen.act(action="roll", player="A", dice="33")  # the wrong key: a double frees her
    assert not state(game).player("A").in_jail
    assert OFFERED in screen.html
    after = correct(screen, dice="34")
    assert error(after) == ""
    s = state(game)
    assert s.player("A").in_jail and s.player("A").jail_turns == 1 and s.player("A").position == 10
    the_stored_state_is_a_replay(game)


def test_an_anti_monopoly_utility_rent_thrown_wrong_is_corrected(referee):
    game = recording.create_game(
        variant="anti-monopoly",
        board="anti-monopoly-us",
        players=[{"name": "Celina", "role": "competitor"}, {"name": "Marek", "role": "monopolist"}],
        options={"ending": "game_a"},
        referees=[referee],
    )
    screen = Screen(phone(referee), game)
    screen = screen.act(action="roll", player="A", dice="66")  # 12: U.S. Electric Company
    screen = screen.act(action="buy", player="A")
    screen = screen.act(action="roll", player="A", dice="12")  # the extra roll: 15, U.S. Bus Company
    screen = screen.act(action="decline", player="A")
    screen = screen.act(action="roll", player="B", dice="66")  # Marek to 12: rent 4 × the dice
    screen = screen.act(action="rent", player="B", square="12", dice="61")  # the wrong key: 28
    assert OFFERED in screen.html
    after = correct(screen, dice="32")
    assert "right dice entered" in after.html
    assert state(game).player("A").cash == 1500 - 150 + 20  # 4 × (3 + 2)
    last = GameEvent.objects.filter(game=game).order_by("-seq")
    assert [(r.data["type"], r.data.get("square"), r.data["dice"], r.status) for r in last[:2]] == [
        ("rent", 12, [3, 2], ACTIVE),
        ("rent", 12, [6, 1], UNDONE),
    ]
    the_stored_state_is_a_replay(game)


def test_an_anti_monopoly_final_valuation_thrown_wrong_is_corrected(referee):
    """Game B over, a utility's final roll (rule 25) entered with the wrong key: corrected like a roll."""
    for seed in range(1, 60):
        game_b = {"ending": "game_b"}
        record = simulate("anti-monopoly", "anti-monopoly-us", 2, seed, rounds=60, options=game_b)
        events = record["events"]
        if events[-1]["type"] == "final_roll":
            break
    first = next(i for i, e in enumerate(events) if e["type"] == "final_roll")
    game = recording.create_game(
        variant="anti-monopoly",
        board="anti-monopoly-us",
        players=[{"name": p["name"], "role": p["role"]} for p in record["players"]],
        options=record["options"],  # Game B, over after 60 rounds
        referees=[referee],
    )
    for event in events[:first]:
        game.refresh_from_db()
        recording.submit(game.pk, event, version=game.version)
    final = events[first]
    wrong = "11" if sorted(final["dice"]) != [1, 1] else "12"
    screen = Screen(phone(referee), game).act(
        action="final_roll", player=final["player"], square=final["square"], dice=wrong
    )
    assert OFFERED in screen.html
    after = correct(screen, dice="".join(map(str, final["dice"])))
    assert "right dice entered" in after.html
    last = GameEvent.objects.filter(game=game).order_by("-seq")
    assert [(r.data["type"], r.data["square"], r.data["dice"], r.status) for r in last[:2]] == [
        ("final_roll", final["square"], final["dice"], ACTIVE),
        ("final_roll", final["square"], [int(d) for d in wrong], UNDONE),
    ]
    the_stored_state_is_a_replay(game)


def test_without_scripts_the_correction_goes_back_to_the_console(referee):
    game, screen = wrong_roll(referee)
    response = screen.client.post(
        reverse("console_correct_dice", args=[game.pk]), {**screen.fields, "dice": "23"}
    )
    assert response.status_code == 302 and response["Location"] == reverse("console", args=[game.pk])
    page = screen.client.get(response["Location"]).content.decode()
    assert "Move #1 was undone and the right dice entered as move #2." in page
    assert state(game).player("A").position == 5


def test_the_right_dice_in_polish(referee):
    game, screen = wrong_roll(referee)
    with translation.override("pl"):
        screen.client.defaults["HTTP_ACCEPT_LANGUAGE"] = "pl"
        page = Screen(screen.client, game)
        assert "Błędne oczka? Właściwe to:" in page.html
        after = correct(page, dice="23")
    assert "Cofnięto ruch nr 1 i wpisano właściwe oczka jako ruch nr 2." in after.html
    assert GameEvent.objects.get(game=game, seq=1).reason == "błędne oczka"  # the referee's language


def test_a_finished_rounds_game_is_not_corrected(referee):
    """The round over (or the result confirmed), the game is read-only: no undo offered, a correction posted
    anyway refused."""
    t = Tournament.objects.create(name="Cup", rounds=1, seed=5, table_size=2)
    for name in ("Anna", "Bartek"):
        Participant.objects.create(tournament=t, name=name)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    table.referees.add(referee)
    game = rounds.start_table_game(table, [s.participant_id for s in table.seats.all()], user=referee)
    first = game.players.order_by("seat").first().pid
    screen = Screen(phone(referee), game).act(action="roll", player=first, dice="12")
    assert OFFERED in screen.html
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINISHED)
    refused = correct(screen, dice="23")
    assert "the game can no longer be changed" in error(refused) and OFFERED not in refused.html
    assert [(r[1], r[2]) for r in rows(game).values()] == [([1, 2], ACTIVE)]


def test_a_correction_needs_the_request_key_and_the_device():
    for key, device in (("", "abc."), (None, "abc."), ("abc.1", "")):
        with pytest.raises(ValueError):
            recording.correct_dice(1, [2, 3], version=0, reason="x", client_key=key, entered_with=device)
