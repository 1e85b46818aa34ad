"""The console's flow (issue 20), through Django's test client: the last move undone beside the panel (a
reason in one tap for this device's own move, a typed one for another device's), a stale screen told what the
other device did, the roll card's warning of a rent it would end, the game over panel's next steps."""

import re
from html import unescape

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournament.console.devices import entered_on
from tournament.event import interventions, rounds
from tournament.games import recording
from tournament.models import GameEvent, Participant, Tournament
from tournament.people.access import REFEREES_GROUP

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
FIXED = ("version", "client_key", "seen")  # the hidden fields of every form of the panel


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def phone(user) -> Client:
    """A device of ``user``: a browser session of its own."""
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(user)
    return c


def start(referee, names=("Anna", "Bartek"), options=None):
    return recording.create_game(
        variant="tournament-pl",
        board="classic-pl",
        players=[{"name": n} for n in names],
        options=options or {},
        referees=[referee],
    )


class Screen:
    """What a device's console shows, and its forms' fixed fields (version, request key, what it has seen)."""

    def __init__(self, client, game, response=None):
        self.client, self.game = client, game
        response = response or client.get(reverse("console", args=[game.pk]))
        assert response.status_code == 200
        self.html = unescape(response.content.decode())
        found = {name: re.search(rf'name="{name}" value="([^"]*)"', self.html) for name in FIXED}
        self.fields = {name: m.group(1) for name, m in found.items() if m}  # none: a page without forms

    def post(self, url, **data):
        response = self.client.post(url, {**self.fields, **data}, **HX)
        return Screen(self.client, self.game, response)

    def act(self, **data):
        return self.post(reverse("console_act", args=[self.game.pk]), **data)

    def undo(self, **data):
        return self.post(reverse("console_undo", args=[self.game.pk]), **data)


def state(game):
    game.refresh_from_db()
    return recording.current_state(game)


def test_this_devices_last_move_is_undone_beside_the_panel_with_a_reason_in_one_tap(referee):
    game = start(referee)
    screen = Screen(phone(referee), game).act(action="roll", player="A", d1=3, d2=3)
    assert "Undo move #1" in screen.html
    assert [m for m in re.findall(r'name="quick" value="(\w+)">([^<]+)<', screen.html)] == [
        ("tap", "wrong tap"),
        ("dice", "wrong dice"),
        ("amount", "wrong amount"),
    ]
    # the undo is beside the move just made, above the next action — not at the foot of the log
    assert screen.html.index("Undo move #1") < screen.html.index('aria-label="What happens now"')
    assert 'placeholder="why undo?"' not in screen.html  # typing is the other way
    after = screen.undo(quick="dice")
    assert "The last move was undone." in after.html
    row = GameEvent.objects.get(game=game, seq=1)
    assert (row.status, row.reason) == (GameEvent.Status.UNDONE, "wrong dice")  # the director's log reads it
    assert state(game).player("A").position == 0


def test_another_devices_move_asks_for_a_typed_reason(referee):
    game = start(referee)
    Screen(phone(referee), game).act(action="roll", player="A", d1=1, d2=2)
    other = Screen(phone(referee), game)  # the same account on a second phone
    assert "Undo move #1" in other.html and 'name="quick"' not in other.html
    assert "It was entered on another device: say why you undo it." in other.html
    # a one-tap reason sent anyway is refused, and nothing changes
    refused = other.undo(quick="tap")
    assert "Move #1 was entered on another device: say why you undo it." in refused.html
    assert GameEvent.objects.get(game=game, seq=1).status == GameEvent.Status.ACTIVE
    assert "Say why" in other.undo(reason="  ").html  # a typed reason it needs
    done = other.undo(reason="the dice fell off the table")
    assert "The last move was undone." in done.html
    assert GameEvent.objects.get(game=game, seq=1).reason == "the dice fell off the table"


def test_a_one_tap_reason_the_form_never_sends_changes_nothing(referee):
    game = start(referee)
    screen = Screen(phone(referee), game).act(action="roll", player="A", d1=1, d2=2)
    for bad in ("", "x" * 300, "lazy"):
        answer = screen.undo(quick=bad)
        assert "This form is damaged" in answer.html, bad
        assert GameEvent.objects.get(game=game, seq=1).status == GameEvent.Status.ACTIVE


def test_a_stale_screen_says_which_moves_the_other_device_entered(referee):
    game = start(referee, names=("Anna", "Bartek", "Celina"))
    mine, theirs = Screen(phone(referee), game), Screen(phone(referee), game)
    theirs = theirs.act(action="roll", player="A", d1=1, d2=2)  # Anna: 3, ul. Stalowa
    refused = mine.act(action="roll", player="A", d1=4, d2=5)
    assert "Another device entered a move meanwhile: your move was not applied." in refused.html
    told = re.search(r'id="console-error">([^<]*)<', refused.html).group(1)
    assert "The other device entered: #1 Anna rolls 1+2." in told, told
    assert state(game).player("A").position == 3  # its move only
    # an undo on the other phone: the stale screen says what was taken back
    theirs.undo(reason="wrong dice")
    again = refused.act(action="roll", player="A", d1=4, d2=5)
    told = re.search(r'id="console-error">([^<]*)<', again.html).group(1)
    assert "The other device took back: #1 Anna rolls 1+2." in told and "(undone)" in told, told


def test_a_stale_undo_says_what_the_other_device_entered(referee):
    game = start(referee)
    mine = Screen(phone(referee), game).act(action="roll", player="A", d1=1, d2=2)
    Screen(phone(referee), game).act(action="buy", player="A")
    refused = mine.undo(quick="tap")
    assert "Another device changed the game meanwhile: nothing undone." in refused.html
    assert "The other device entered: #2 Anna buys" in refused.html
    assert GameEvent.objects.filter(game=game, status=GameEvent.Status.ACTIVE).count() == 2


@pytest.mark.parametrize("seen", ["x.-1", "1.999999999999999", "1.99999999999999", "99999999999.1", ""])
def test_a_garbled_seen_field_gives_the_plain_refusal(referee, seen):
    game = start(referee)
    mine = Screen(phone(referee), game)
    Screen(phone(referee), game).act(action="roll", player="A", d1=1, d2=2)
    mine.fields["seen"] = seen
    refused = mine.act(action="roll", player="A", d1=1, d2=2)  # a time past the year 9999: no 500
    assert "Another device entered a move meanwhile" in refused.html
    assert "The other device entered" not in refused.html
    poll = mine.client.get(reverse("console_panel", args=[game.pk]), {"version": 0, "seen": seen}, **HX)
    assert poll.status_code == 200


def lands_on_bartek(referee, options=None):
    """Bartek owns the street at 6; Anna lands there: a rent of 6 pending."""
    game = start(referee, options=options)
    screen = Screen(phone(referee), game)
    screen = screen.act(action="roll", player="A", d1=1, d2=3)  # 4: income tax
    screen = screen.act(action="tax", player="A", choice="fixed") if "tax" in screen.html else screen
    screen = screen.act(action="roll", player="B", d1=2, d2=4)  # 6
    screen = screen.act(action="buy", player="B")
    return game, screen


def test_the_roll_card_warns_of_a_rent_it_would_end_and_claims_it_first(referee):
    game, screen = lands_on_bartek(referee)
    screen = screen.act(action="roll", player="A", d1=1, d2=1)  # Anna: 4 -> 6, a double
    assert state(game).rents  # Anna owes Bartek
    # Anna rolls again (a double): the rent does not lapse at her own roll
    assert "With this roll the rent lapses" not in screen.html
    screen = screen.act(action="roll", player="A", d1=1, d2=3)  # 6 -> 10, just visiting
    rents = state(game).rents
    assert len(rents) == 1  # still pending: Bartek's roll ends it
    roll_card = screen.html[screen.html.index('class="card roll-card"') :]
    street = state(game).board.square(6).name
    assert f"With this roll the rent lapses: Anna → Bartek ({street}), 6." in roll_card
    assert "Claim the rent 6 first" in roll_card
    form = re.search(r'<form[^>]*class="claim-first">(.*?)</form>', roll_card, re.S).group(1)
    assert 'name="player" value="A"' in form and 'name="square" value="6"' in form
    before = state(game).player("B").cash
    screen = screen.act(action="rent", player="A", square=6)  # the button: one tap
    assert state(game).player("B").cash == before + 6 and not state(game).rents
    assert "With this roll the rent lapses" not in screen.html


def test_with_rents_lapsing_at_any_roll_the_double_warns_too(referee):
    game, screen = lands_on_bartek(referee, options={"rent_lapses_at": "next_roll"})
    screen = screen.act(action="roll", player="A", d1=1, d2=1)  # a double onto Bartek's street
    assert state(game).rents
    street = state(game).board.square(6).name
    assert f"With this roll the rent lapses: Anna → Bartek ({street}), 6." in screen.html


def test_a_finished_game_outside_a_tournament_has_nothing_to_confirm(referee):
    game = start(referee)
    recording.submit(game.pk, {"type": "time_up", "now": True}, version=None)
    screen = Screen(phone(referee), game)
    assert "Game over" in screen.html and "What next" in screen.html
    assert "A game outside a tournament: nothing to confirm." in screen.html
    assert reverse("game_cards", args=[game.pk]) in screen.html


@pytest.fixture
def table_game(referee):
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    t = Tournament.objects.create(name="Cup", rounds=1, seed=5, table_size=4)
    for i in range(4):
        Participant.objects.create(tournament=t, name=f"P{i}")
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    table.referees.add(referee)
    game = rounds.start_table_game(table, [s.participant_id for s in table.seats.all()], user=referee)
    return table, game


def test_the_game_over_panel_leads_a_tables_referee_to_the_confirmation_and_the_sheet(referee, table_game):
    table, game = table_game
    here = (table.round.tournament.pk, table.round.number, table.number)
    me = phone(referee)
    assert "What next" not in Screen(me, game).html  # while it is played
    interventions.stop_game(table, User.objects.create_superuser("boss", password="pw"), "the schedule")
    screen = Screen(me, game)
    assert "Check the ranking above with the players" in screen.html
    confirm = re.search(r'<a class="button big primary" href="([^"]+)">Confirm the result</a>', screen.html)
    assert confirm and confirm.group(1) == reverse("table", args=here) + "#result"
    sheet = re.search(r'<a class="button big" href="([^"]+)">Print the result sheet \(PDF\)</a>', screen.html)
    assert sheet and sheet.group(1) == reverse("table_sheet_pdf", args=here)
    # the tap leads where the result is confirmed, and the sheet is his to print
    page = me.get(confirm.group(1).split("#")[0]).content.decode()
    assert 'id="result"' in page and reverse("table_confirm", args=here) in page
    assert me.get(sheet.group(1)).status_code == 200
    me.post(reverse("table_confirm", args=here))
    screen = Screen(me, game)
    assert "The result is confirmed." in screen.html and "Confirm the result</a>" not in screen.html


def test_a_referee_of_the_game_but_not_of_the_table_is_told_the_director_confirms(referee, table_game):
    table, game = table_game
    helper = User.objects.create_user("helper", password="pw")
    game.referees.add(helper)  # enters moves, not a referee of the table
    interventions.stop_game(table, User.objects.create_superuser("boss", password="pw"), "the schedule")
    screen = Screen(phone(helper), game)
    assert "The tournament director confirms the result." in screen.html
    assert "Confirm the result</a>" not in screen.html and "Print the result sheet" not in screen.html


def test_without_scripts_a_one_tap_undo_goes_back_to_the_console(referee):
    game = start(referee)
    me = phone(referee)
    screen = Screen(me, game).act(action="roll", player="A", d1=1, d2=2)
    response = me.post(reverse("console_undo", args=[game.pk]), {**screen.fields, "quick": "tap"})
    assert response.status_code == 302 and response["Location"] == reverse("console", args=[game.pk])
    assert "The last move was undone." in unescape(me.get(response["Location"]).content.decode())
    assert GameEvent.objects.get(game=game, seq=1).reason == "wrong tap"


def test_a_move_entered_without_a_request_key_is_another_devices():
    assert not entered_on(None, "abc") and not entered_on("", "abc") and not entered_on("abcd.123", "abc")
    assert entered_on("abc.123", "abc")


def test_the_moves_one_tap_entered_together_are_undone_together(referee):
    """A decline and its auction's result, entered by one "Sold to" tap, are one thing to the referee: the
    undo beside the panel names both and takes both back (one tap's reason: this device's), once."""
    game = start(referee)
    screen = Screen(phone(referee), game).act(action="roll", player="A", d1=1, d2=2)  # ul. Stalowa, 60
    sold = screen.act(action="decline", player="A", square="3", winner="B", price="45")
    s = state(game)
    assert s.holdings[3].owner == "B" and s.player("B").cash == 1500 - 45
    assert "Undo moves #2–#3 (one tap entered them)" in sold.html
    assert "#2–#3" in sold.html[: sold.html.index('aria-label="What happens now"')]  # the just-now line
    assert 'name="quick"' in sold.html  # this device's: a reason in one tap
    repeated = dict(sold.fields)
    after = sold.undo(quick="tap")
    assert "The last move was undone." in after.html
    rows = {r.seq: (r.status, r.reason) for r in GameEvent.objects.filter(game=game)}
    undone = (GameEvent.Status.UNDONE, "wrong tap")
    assert rows == {1: (GameEvent.Status.ACTIVE, ""), 2: undone, 3: undone}
    s = state(game)
    assert 3 not in s.holdings and s.player("B").cash == 1500
    # the same undo request resent (a double tap): answered, not applied to the roll before it
    sold.client.post(reverse("console_undo", args=[game.pk]), {**repeated, "quick": "tap"}, **HX)
    assert GameEvent.objects.get(game=game, seq=1).status == GameEvent.Status.ACTIVE
    assert "Undo move #1" in Screen(sold.client, game).html  # then the roll alone


def test_a_batch_entered_on_another_device_needs_a_typed_reason(referee):
    game = start(referee)
    mine = Screen(phone(referee), game).act(action="roll", player="A", d1=1, d2=2)
    mine.act(action="decline", player="A", square="3", winner="B", price="45")
    other = Screen(phone(referee), game)
    assert "Undo moves #2–#3" in other.html and 'name="quick"' not in other.html
    assert "Move #3 was entered on another device" in other.undo(quick="tap").html
    assert GameEvent.objects.filter(game=game, status=GameEvent.Status.ACTIVE).count() == 3


def test_a_request_key_forged_with_a_batch_mark_is_refused(referee):
    """The mark of a batch's later events is the server's: a key sent with it could make an undo take back
    moves of another request."""
    game = start(referee)
    screen = Screen(phone(referee), game)
    screen.fields["client_key"] += recording.BATCH_MARK + "1"
    refused = screen.act(action="roll", player="A", d1=1, d2=2)
    assert 'role="alert"' in refused.html and not GameEvent.objects.filter(game=game).exists()
