"""A whole simulated game entered through the console on a 360 px phone, tap by tap as a referee would.

Each event of a game made by ``rules.simulate`` is entered by tapping what a referee taps (the dice, the
buttons, a field to type in, a list to choose from: two taps, to open it and to choose), and the taps are
counted: per roll (a roll and what it sets off, until the next roll: "a turn" of the console's figures) and
per player turn (a double's extra rolls and a jail exit belong to the turn). The means and medians are printed
for each board; at the end the console's game must equal the simulated one, event for event.
"""

import json
import statistics

import pytest
from django.contrib.auth.models import User

from rules.board import EFFECT_FIELDS
from rules.cards import classic_effects
from rules.engine import apply
from rules.record import parse_event
from rules.replay import replay
from rules.simulate import GENERIC_EFFECTS, simulate
from rules.turns import next_roller
from tests.test_console_browser import (  # noqa: F401 (browser, game_and_referee: fixtures)
    PHONE,
    Referee,
    browser,
    game_and_referee,
    state,
)
from tournament.games import recording

pytestmark = pytest.mark.django_db(transaction=True)

#: The board, the variant (tournament-pl: ten rounds), the seed: a game of about 100 events with cards.
GAMES = {"classic-pl": ("tournament-pl", 0), "classic-us": ("tournament-pl", 2)}
PLAYERS = 4
#: The simulator's cards by effect that are one tap on the console (every one it draws, today).
ONE_TAP = [e for e in GENERIC_EFFECTS if e in classic_effects() or not EFFECT_FIELDS[e["kind"]]]


class TappingReferee(Referee):
    """Enters a record's events on the console by tapping, as a referee at the table would."""

    def __init__(self, page, base_url, game):
        super().__init__(page, base_url)
        self.game = game

    # -- taps that do not send anything ---------------------------------------------------------------
    def type_into(self, field, value):
        """A tap into a field, then the keyboard (its keys are not taps on the screen)."""
        self.tap(field)
        field.fill(str(value))

    def choose(self, select, value):
        """A list: one tap opens it, one chooses (nothing if it already shows the value)."""
        if select.input_value() != str(value):
            self.taps += 2
            select.select_option(str(value))

    def open(self, details):
        if not details.evaluate("d => d.open"):
            self.tap(details.locator("summary").first)

    # -- a tap that sends the form ---------------------------------------------------------------------
    def send(self, button):
        with self.posted():
            self.tap(button)

    def form(self, *fields):
        """The console's form holding the given hidden fields, e.g. ("action", "auction")."""
        css = "".join(f":has(input[name={n}][value='{v}'])" for n, v in fields)
        return self.page.locator(f"form{css}").first

    def dice(self, where, dice):
        d = where.locator("fieldset.die")
        for i, n in enumerate(dice):
            self.tap(d.nth(i).locator("label", has_text=str(n)))

    # -- one tap's events --------------------------------------------------------------------------------
    def enter(self, event, following=None) -> int:
        """Enter ``event`` (and the auction ``following`` a decline, where the buy panel sells it at once);
        the number of events entered."""
        page, kind = self.page, event["type"]
        sold_at_once = page.locator("form.auction:has(input[name=action][value=decline])")
        if kind == "decline" and following and following["type"] == "auction" and sold_at_once.count():
            self.auction(sold_at_once, following)
            return 2
        if kind == "roll":
            self.roll(*event["dice"])
        elif kind in ("buy", "decline", "jail_fine", "jail_card"):
            self.send(page.locator(f"button[name=action][value={kind}]"))
        elif kind == "rent":
            form = self.form(("player", event["player"]), ("square", event["square"]))
            if "dice" in event:
                self.throw(form, *event["dice"])
            else:
                self.send(form.locator("button[value=rent]"))
        elif kind == "auction":
            self.auction(self.form(("action", "auction"), ("square", event["square"])), event)
        elif kind == "card":
            self.card(event)
        elif kind in ("build", "sell_building", "mortgage", "unmortgage"):
            player = page.locator(
                "article.player", has=page.locator("header strong", has_text=self.name(event))
            )
            self.open(player.locator("details.actions"))
            self.send(player.locator(f"button[name=do][value^='{kind}:{event['square']}']").first)
        elif kind == "trade":
            self.trade(event)
        elif kind == "bankrupt":
            page.once("dialog", lambda d: d.accept())
            self.send(self.form(("player", event["player"])).locator("button[value=bankrupt]"))
        else:
            raise AssertionError(f"the test does not enter {kind} events")
        return 1

    def auction(self, form, event):
        """The price typed if it is not the opening bid shown, then the winner's button (or nobody's)."""
        if event["winner"] is None:
            self.send(form.locator("button[name=nobody]"))
            return
        price = form.locator("input[name=price]")
        if price.input_value() != str(event["price"]):
            self.type_into(price, event["price"])
        self.send(form.locator(f"button[name=winner][value={event['winner']}]"))

    def name(self, event):
        return state(self.game).player(event["player"]).name

    def card(self, event):
        form = self.page.locator("form#card-draw")
        if "card" in event:  # a listed card: its button
            button = form.locator(f"button[name=card][value='{event['card']}']")
        else:
            button = self.one_tap(event["effect"]) or self.typed(event["effect"])
        if "dice" in event:  # the card sends the token to an owned utility: the dice for the rent
            where = button.locator("xpath=ancestor::form | //form[@id='card-draw']").last
            self.open(where.locator("details"))
            self.dice(where, event["dice"])
        self.send(button)

    def one_tap(self, effect):
        """The button of the card, if it has one."""
        buttons = self.page.locator("button[name=effect]")
        values = [json.loads(v) for v in buttons.evaluate_all("bs => bs.map(b => b.value)")]
        return buttons.nth(values.index(effect)) if effect in values else None

    def typed(self, effect):
        """The card's kind and its fields, typed (a square chosen from the list)."""
        form = self.form(("effect_kind", effect["kind"]))
        for name, value in effect.items():
            if name == "square":
                self.choose(form.locator("select[name=effect_square]"), value)
            elif name != "kind":
                self.type_into(form.locator(f"input[name=effect_{name}]"), value)
        return form.locator("button[name=go]")

    def trade(self, event):
        details = self.page.locator("details.trade")
        self.open(details)
        self.choose(details.locator("select[name=player]"), event["player"])
        self.choose(details.locator("select[name=with]"), event["with"])
        for side in ("give", "get"):
            for sq in event[side].get("squares", []):
                self.tap(details.locator(f"input[name={side}_squares][value='{sq}']"))
            for name in ("cash", "jail_cards"):
                if event[side].get(name):
                    self.type_into(details.locator(f"input[name={side}_{name}]"), event[side][name])
        self.send(details.locator("button[name=go]"))


def begins_a_turn(s, event, after_jail_exit: bool) -> bool:
    """The event begins a player's turn: his jail exit, or a roll that is not a double's extra roll."""
    if event["type"] in ("jail_fine", "jail_card"):
        return True
    if event["type"] != "roll" or after_jail_exit:
        return False
    seat = next_roller(s)
    return not (seat == s.turn and s.roll_again)


def same_form(event: dict) -> dict:
    """An event as the engine reads it (optional fields written out: the console writes some, the simulator
    not)."""
    return parse_event(event, "ABCDEFGH")


def summary(counts: list[int]) -> str:
    return f"mean {statistics.mean(counts):.2f}, median {statistics.median(counts):g} over {len(counts)}"


@pytest.mark.parametrize("board", list(GAMES))
def test_a_whole_simulated_game_tapped_in_on_a_phone(board, live_server, browser):  # noqa: F811
    variant, seed = GAMES[board]
    record = simulate(variant, board, PLAYERS, seed=seed)
    user = User.objects.create_user("tapper", password="pw")
    game = recording.create_game(
        name="Sim",
        variant=variant,
        board=board,
        options=record["options"],
        referees=[user],
        players=[{"name": p["name"]} for p in record["players"]],
    )
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-US", has_touch=True)
    ref = TappingReferee(context.new_page(), live_server.url, game)
    ref.login("tapper", "pw", f"/games/{game.pk}/")

    s = state(game)  # to tell the turns apart, as the events go in
    per_roll, per_turn, by_kind = [], [], {}
    after_jail_exit, shots, k, version = False, 0, 0, 0
    events = record["events"]
    while k < len(events):
        event = events[k]
        new_turn = begins_a_turn(s, event, after_jail_exit)
        after_jail_exit = event["type"] in ("jail_fine", "jail_card")
        shoot = event["type"] == "card" and "effect" in event and (shots := shots + 1) <= 2
        if shoot:  # the card to tap, then its log line
            ref.shot(f"cards-sim-{board}-{k:03d}-card")
        before = ref.taps
        entered = ref.enter(event, events[k + 1] if k + 1 < len(events) else None)
        version += 1
        ref.page.wait_for_selector(f"#console[data-version='{version}']", timeout=5000)
        assert ref.page.locator("#console-error").count() == 0, (
            event,
            ref.page.locator("#console-error").text_content(),
        )
        taps = ref.taps - before
        if event["type"] == "card" and (event.get("effect") in ONE_TAP or "card" in event):
            assert taps == 1 + 2 * ("dice" in event), (
                event
            )  # a usual card: one tap (the dice of a rent aside)
        kind = "+".join(e["type"] for e in events[k : k + entered])
        by_kind.setdefault(kind, []).append(taps)
        if event["type"] == "roll" or not per_roll:
            per_roll.append(0)
        per_roll[-1] += taps
        if new_turn or not per_turn:
            per_turn.append(0)
        per_turn[-1] += taps
        for e in events[k : k + entered]:
            apply(s, e, in_place=True, narrate=False)
        if shoot:
            ref.shot(f"cards-sim-{board}-{k:03d}-logged")
        k += entered
    ref.shot(f"cards-sim-{board}-end")
    context.close()

    entered = [same_form(e) for e in recording.record_of(game)["events"]]
    assert entered == [same_form(e) for e in record["events"]]  # the same events, card effects included
    assert state(game) == replay(record).state
    print(f"\n{board}, {variant}, {PLAYERS} players, seed {seed}: {len(record['events'])} events")
    print(f"taps per roll: {summary(per_roll)}")
    print(f"taps per player turn: {summary(per_turn)}")
    for kind, counts in sorted(by_kind.items()):
        print(f"  {kind}: {len(counts)} × {statistics.mean(counts):.2f} taps")
    # the target: at most three taps a turn on average, counted either way
    assert statistics.mean(per_roll) <= 3.0 and statistics.mean(per_turn) <= 3.0


def test_a_polish_card_in_one_tap_and_its_log_line_in_words(game_and_referee):  # noqa: F811
    """Tournament-pl on the Polish board: a usual card is one tap, another one its amount typed; the log says
    both in words."""
    game, ref = game_and_referee
    ref.roll(1, 2)  # Anna: 3, ul. Targowa; declined, not sold
    ref.button("Nobody bought")
    ref.roll(1, 1)  # Bartek: a double to 2, Kasa Społeczna
    ref.sees("Bartek draws from Kasa Społeczna")
    ref.shot("cards-01-kasa")
    before = ref.taps
    with ref.posted():
        ref.tap(
            ref.page.locator("fieldset", has_text="the bank pays the player").get_by_role(
                "button", name="200"
            )
        )
    assert ref.taps - before == 1
    ref.sees("Bartek collects 200 from the bank (Kasa Społeczna).")
    ref.shot("cards-02-logged")
    assert state(game).player("B").cash == 1700
    ref.roll(2, 3)  # Bartek's extra roll: 7, Szansa; an amount no classic card prints, typed
    field = ref.page.locator("form", has=ref.page.locator("input[name=effect_kind][value=pay]"))
    ref.tap(field.locator("input[name=effect_amount]"))
    field.locator("input[name=effect_amount]").fill("1500")
    with ref.posted():
        ref.tap(field.get_by_role("button", name="OK"))
    ref.sees("Bartek pays 1500 to the bank (Szansa).")
    assert recording.record_of(game)["events"][-1] == {
        "type": "card",
        "player": "B",
        "effect": {"kind": "pay", "amount": 1500},
    }


def test_a_card_by_effect_without_javascript(live_server, browser):  # noqa: F811
    user = User.objects.create_user("nojs", password="pw")
    game = recording.create_game(
        variant="tournament-pl",
        board="classic-pl",
        referees=[user],
        players=[{"name": "Anna"}, {"name": "Bartek"}],
    )
    context = browser.new_context(viewport=PHONE, locale="en-US", java_script_enabled=False)
    ref = TappingReferee(context.new_page(), live_server.url, game)
    ref.page.goto(f"{live_server.url}/login/?next=/games/{game.pk}/")
    ref.page.fill("input[name=username]", "nojs")
    ref.page.fill("input[name=password]", "pw")
    with ref.page.expect_navigation():
        ref.page.get_by_role("button", name="Log in").click()  # the language's OK shows without JavaScript
    recording.submit(game.pk, {"type": "roll", "player": "A", "dice": [3, 4]}, version=0)  # Anna: 7, Szansa
    page = ref.page
    page.reload()
    with page.expect_navigation():  # a button of the "go back" row sends the one-tap form it names
        page.locator("fieldset", has_text="go back").get_by_role("button", name="3", exact=True).click()
    assert recording.record_of(game)["events"][-1]["effect"] == {"kind": "move_back", "steps": 3}
    assert state(game).player("A").position == 4
    ref.sees("Anna goes back 3 squares (Szansa).")
    ref.shot("cards-03-no-javascript")
    context.close()
