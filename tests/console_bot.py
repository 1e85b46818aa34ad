"""The referee as a bot on a phone's console (Playwright, 360 px), for the tests that play whole games on one
page (tests/test_console_outage_browser.py, the Wi-Fi cut at moments the test draws;
tests/test_console_taps_browser.py, the taps a turn costs): it reads the phone's screen (its view model, the
console's own) and taps what a person would tap there: the dice pad, the buttons, a price, a deed and a
banknote for a trade, the debt card's ticks. Its games (a_table_game, a_game, GAMES), and the screen as the
server and as the phone make it (served, console_view, console_play)."""

import json
import random

from django.contrib.auth.models import User

from tests.browser import PHONE, RULES_START_MS, wi_fi, with_the_sites_policy
from tests.tournaments import make_tournament, start_game
from tournament.console.view_model import phone as phone_engine
from tournament.console.view_model import screen
from tournament.event import rounds
from tournament.games import recording
from tournament.models import Game, GameEvent

CONSOLE = "#console"
DONE = "document.getElementById('console').dataset.done"


def a_table_game(variant, board, options=None) -> Game:
    """A tournament's table (four players), its referee "sedzia"."""
    user = User.objects.create_user("sedzia", password="pw")
    t = make_tournament(4, name="Puchar Łodzi", rounds=2, table_size=4, variant=variant, board=board)
    if options:
        t.options = options
        t.save()
    round_1 = rounds.seat_next_round(t)
    rounds.start_round(round_1)
    table = round_1.tables.get()
    table.referees.add(user)
    return start_game(table, None)


def a_game(variant, board, options=None) -> Game:
    """A game outside a tournament, four players (an Anti-Monopoly one with both roles)."""
    user = User.objects.create_user("sedzia", password="pw")
    roles = variant == "anti-monopoly"
    players = [
        {"name": name, **({"role": "competitor" if i % 2 else "monopolist"} if roles else {})}
        for i, name in enumerate(["Anna", "Bartek", "Celina", "Darek"])
    ]
    return recording.create_game(
        variant=variant, board=board, players=players, options=options or {}, referees=[user]
    )


def served(game) -> dict:
    """The screen the server makes of ``game`` as stored now (as JSON carries it)."""
    game.refresh_from_db()
    return json.loads(json.dumps(screen(recording.current_state(game), game.ledger, game.counts)))


def console_view(page) -> dict:
    """The screen's view model the phone drew (the one the phone's rules made), as JSON carries it: one
    string through the driver (Playwright's own serialisation of so big an object, checked on arrival field
    by field, took a third of a whole game's time in this process)."""
    return json.loads(page.evaluate("() => JSON.stringify(document.getElementById('console').consoleView)"))


def console_play(page) -> dict:
    """The phone's game (its state and ledger), as :func:`console_view` reads the view."""
    return json.loads(page.evaluate("() => JSON.stringify(document.getElementById('console').consolePlay)"))


class Referee:
    """The referee's phone at the table: the console open, the moves tapped, the network cut and back."""

    def __init__(self, browser, live_server, game, seed):  # noqa: F811
        self.browser, self.live_server, self.game = browser, live_server, game
        self.rng = random.Random(seed)
        self.context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True)
        with_the_sites_policy(self.context)
        self.sent: dict[str, dict] = {}  # each request the outbox sent, by its key (a resend: the same)
        self.order: list[str] = []
        self.context.on("request", self.heard)
        self.page = self.open(first=True)
        self.offline = False
        self.taps = 0  # every tap a person makes on the screen (a click, a box ticked, a field typed into)
        self.turn = None  # whose turn the last build or trade was considered in
        # the Wi-Fi lost in the middle of a trade or a debt being entered (its form half filled in), while
        # online: once each (what was cut so, in ``cut_inside``)
        self.cut_within: set[str] = set()
        self.cut_inside: list[str] = []

    def heard(self, request):
        if request.method == "POST" and request.url.endswith("/sync/"):
            body = json.loads(request.post_data)
            if body["client_key"] not in self.sent:
                self.order.append(body["client_key"])
            self.sent[body["client_key"]] = body

    def open(self, first=False):
        page = self.context.new_page()
        page.on("pageerror", lambda e: (_ for _ in ()).throw(AssertionError(f"script error: {e}")))
        url = f"{self.live_server.url}/games/{self.game.pk}/"
        if first:
            page.goto(f"{self.live_server.url}/login/?next=/games/{self.game.pk}/")
            page.fill("input[name=username]", "sedzia")
            page.fill("input[name=password]", "pw")
            with page.expect_navigation():
                page.click("form:has(input[name=password]) button[type=submit]")
            page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
            page.reload()  # the page under its service worker, which keeps it for a reload offline
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        else:
            page.goto(url)
        page.wait_for_selector(f"{CONSOLE}[data-rules=ready] h1", timeout=RULES_START_MS)
        return page

    # -- what the phone shows -------------------------------------------------------------------------------
    @property
    def view(self) -> dict:
        return console_view(self.page)

    @property
    def play(self) -> dict:
        return console_play(self.page)

    def waiting(self) -> int:
        return int(self.page.locator(CONSOLE).get_attribute("data-waiting") or 0)

    # -- the network ------------------------------------------------------------------------------------
    def cut(self):
        wi_fi(self.page, up=False)
        self.offline = True

    def back(self):
        wi_fi(self.page, up=True)
        self.offline = False
        self.page.wait_for_function(
            "() => document.getElementById('console').dataset.waiting === '0'", timeout=60_000
        )

    def cut_within_a(self, what: str):
        """The Wi-Fi lost now, within ``what`` (its form half filled in), if the test asks for it."""
        if what in self.cut_within and not self.offline:
            self.cut_within.discard(what)
            self.cut_inside.append(what)
            self.cut()

    def cut_mid_request(self):
        """The next move reaches the server, its answer never reaches the phone: then the Wi-Fi is gone."""
        lost = []

        def lose(route):
            if lost:
                route.continue_()
                return
            lost.append(route.fetch().status)
            route.abort()
            self.context.set_offline(True)

        self.page.route("**/sync/", lose)
        self.offline = True
        return lost

    # -- taps ---------------------------------------------------------------------------------------------
    def tap(self, locator, fill: str | None = None):
        """One tap of a person's: a click, or a field tapped and typed into (the keys are not taps)."""
        self.taps += 1
        if fill is None:
            locator.click()
        else:
            locator.fill(fill)

    def tapped(self, locator):
        """One tap; waits until the phone has dealt with it (applied on the phone and drawn)."""
        before = int(self.page.evaluate(DONE) or 0)
        self.tap(locator)
        self.dealt(before)

    def dealt(self, before: int):
        """The phone has dealt with the tap after ``before`` taps; the bot taps only what is offered, so
        nothing may be refused or fail."""
        self.page.wait_for_function(f"n => Number({DONE} || 0) > n", arg=before, timeout=60_000)
        error = self.page.locator("#console-error")
        assert not error.count(), error.inner_text()

    def step(self) -> str:
        """Tap what the screen asks for now (a person's choice among what it offers); what was tapped."""
        page, view, rng = self.page, self.view, self.rng
        now, names = view["now"], {p["id"]: p for p in view["players"]}
        c = page.locator(CONSOLE)
        for d in now["debts"]:  # a player who cannot pay goes bankrupt; else he raises what he owes
            card = c.locator(".card.debt").first
            if d["can_go_bankrupt"]:
                return self.bankrupt(card)
            self.raise_and_pay(card, d["choices"], d["amount"])
            return "debt"
        for r in now["rents"]:
            card = c.locator(".card.rent").first
            if r["times"]:
                self.tapped(card.locator(f".pad button[value='{rng.randint(1, 6)}{rng.randint(1, 6)}']"))
            elif r["short"] and r["short"]["can_go_bankrupt"]:  # the rent claimed with the bankruptcy
                return self.bankrupt(card)
            elif r["short"] and r["short"]["choices"]:  # claimed, what it needs raised, paid: one card
                self.raise_and_pay(card, r["short"]["choices"], r["short"]["owed"])
            else:
                self.tapped(card.locator("button[data-what=rent]").last)  # (short: the claim alone)
            return "rent"
        if now["buy"]:
            b = now["buy"]
            if b["can_pay"] and rng.random() < 0.75:
                self.tapped(c.locator(".card.buy button[data-what=buy]"))
                return "buy"
            if b["auction"] is None:
                self.tapped(c.locator(".card.buy button[data-what=decline]"))
                return "decline"
            return self.sell(c.locator(".card.buy"), names, b["auction"])
        for a in now["auctions"]:
            return self.sell(c.locator(".card.auction").first, names, a["opening_bid"])
        if now["card"]:
            draw = c.locator(".card.card-draw")
            offers = draw.locator(".cardlist button, .one-tap button")
            before = int(page.evaluate(DONE) or 0)
            self.tap(offers.nth(rng.randrange(offers.count())))
            if draw.locator(".card-dice .pad").count():  # the dice for a utility's rent, asked in place
                self.tapped(draw.locator(".card-dice .pad button[value='34']"))
            else:
                self.dealt(before)
            return "card"
        if now["tax"]:
            self.tapped(c.locator(".card.tax button").nth(rng.randrange(2)))
            return "tax"
        if now["foundation"]:
            self.tapped(c.locator(".card.foundation button").nth(rng.randrange(6)))
            return "foundation"
        if now["final"]:
            f = now["final"]
            if f["rolls"]:
                self.tapped(c.locator(".card.final .pad button[value='25']").first)
            elif f["step"] == "dealings":
                self.tap(c.locator("button[data-what=final_keep]"))
                self.tapped(page.get_by_role("button", name="Yes", exact=True))
            else:
                self.tapped(c.locator("button[data-what=final_tour]"))
            return "final"
        if now["roll"]:
            mover = now["roll"]["player"]
            fresh = self.turn != (mover, view["game"]["round"])  # once a turn, at most, a build or a trade
            self.turn = (mover, view["game"]["round"])
            if fresh and rng.random() < 0.12 and self.build(names[mover]):
                return "build"
            trades = 0.5 if "trade" in self.cut_within else 0.04  # (a trade to cut within, soon)
            if fresh and view["trade"] and rng.random() < trades and self.trade(view):
                return "trade"
            dice = f"{rng.randint(1, 6)}{rng.randint(1, 6)}"
            self.tapped(c.locator(f".roll-card .pad button[value='{dice}']"))
            return "roll"
        raise AssertionError(f"nothing to tap: {now}")

    def bankrupt(self, card) -> str:
        """The bankruptcy declared on a debt's or a rent's card, and confirmed."""
        self.tap(card.locator("button[data-what=bankrupt]"))
        self.tapped(self.page.get_by_role("button", name="Yes", exact=True))
        return "bankrupt"

    def raise_and_pay(self, card, choices, owed):
        """What the debtor sells and mortgages, ticked in the order offered until it covers what he owes (a
        mortgage ticks the sale it needs), then entered."""
        raised = 0
        for box, choice in zip(card.locator("input[name=raise]").all(), choices, strict=True):
            if raised >= owed:
                break
            if not box.is_checked():
                self.tap(box)
            raised += choice["raises"]
        self.cut_within_a("debt")
        self.tapped(card.locator("button.raise"))

    def sell(self, card, names, bid) -> str:
        """An auction: sold at the opening bid to a player who has it, or to nobody."""
        buyers = [p for p in names.values() if not p["bankrupt"] and p["cash"] >= bid]
        if buyers and self.rng.random() < 0.8:
            who = self.rng.choice(buyers)
            self.tapped(card.locator(".sold-to button", has_text=who["name"]).first)
        else:
            self.tapped(card.locator(".sold-to button.nobody"))
        return "auction"

    def build(self, player) -> bool:
        may = player["may"]
        if not may or not may["build"]:
            return False
        box = self.page.locator(f"{CONSOLE} article.player[data-player='{player['id']}'] details.actions")
        if not box.evaluate("d => d.open"):
            self.tap(box.locator("summary"))
        self.tapped(box.locator(".levels .counts button").first)
        return True

    def trade(self, view) -> bool:
        """A deed tapped (its owner and the player whose turn it is), a banknote the other way, recorded."""
        deeds = [(p, d) for p in view["players"] for d in p["deeds"] if d["trade"]]
        if not deeds:
            return False
        owner, deed = self.rng.choice(deeds)
        page = self.page
        self.tap(page.locator(f"{CONSOLE} a[data-trade-square='{deed['square']}']"))
        form = page.locator(f"{CONSOLE} form[data-trade]")
        cash = form.locator("input[name$=_cash]:focus")
        self.tap(cash if cash.count() else form.locator("input[name=get_cash]"), fill="1")
        self.cut_within_a("trade")
        self.tapped(form.get_by_role("button", name="Record the trade"))
        return True

    # -- what must hold -----------------------------------------------------------------------------------
    def same_as_the_server(self):
        """Nothing waits on the phone: its game is the server's, and so is its screen."""
        self.game.refresh_from_db()
        play = self.play
        assert play["state"] == self.game.state
        assert play["ledger"] == self.game.ledger
        assert self.view == served(self.game)

    def same_as_its_rules(self):
        """Offline: the screen is what the phone's rules say of its game (the server's own code, here)."""
        assert self.view == json.loads(phone_engine.view(json.dumps(self.play)))

    def stored_once_and_in_order(self, foreign: list[dict] = ()):
        """The moves the server has are the phone's (each once, in the order entered) and ``foreign``."""
        stored = [e.data for e in GameEvent.objects.filter(game=self.game, status="active").order_by("seq")]
        sent = [
            e
            for key in self.order
            if self.sent[key].get("kind", "move") == "move"
            for e in self.sent[key]["events"]
        ]
        assert len(stored) == len(sent) + len(foreign), (len(stored), len(sent), len(foreign))
        keys = list(
            GameEvent.objects.filter(game=self.game)
            .exclude(client_key=None)
            .values_list("client_key", flat=True)
        )
        assert len(keys) == len(set(keys))  # no request entered twice


GAMES = [
    ("tournament-pl", "classic-pl", None, 11),
    ("classic", "classic-us", None, 5),
    ("anti-monopoly", "anti-monopoly-us", {"ending": "two_hour"}, 3),
]
