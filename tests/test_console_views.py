"""The referee's console through Django's test client: every action, every refusal, permissions, bad input."""

import json
import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from rules import replay
from rules.board import EFFECT_FIELDS
from rules.cards import NEAREST_MULTIPLIERS, effect_kinds
from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
from tournament.games import recording
from tournament.models import Game, GameEvent

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def start(referee, variant="tournament-pl", board="classic-pl", names=("Anna", "Bartek"), options=None):
    return recording.create_game(
        variant=variant,
        board=board,
        players=[{"name": n} for n in names],
        options=options or {},
        referees=[referee],
    )


def act(client, game, **fields):
    game.refresh_from_db()
    data = {"version": game.version, **fields}
    response = client.post(reverse("console_act", args=[game.pk]), data, **HX)
    game.refresh_from_db()
    return response


def html(response):
    return response.content.decode()


def state(game):
    game.refresh_from_db()
    return recording.current_state(game)


def test_login_required(client):
    game = recording.create_game(
        variant="classic", board="classic-us", players=[{"name": "A"}, {"name": "B"}]
    )
    response = client.get(reverse("console", args=[game.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_only_referees_and_director_enter_moves(client, referee):
    game = start(referee)
    other = User.objects.create_user("other", password="pw")
    client.force_login(other)
    for url in ("console", "console_panel", "game_record"):
        assert client.get(reverse(url, args=[game.pk])).status_code == 403
    assert client.post(reverse("console_act", args=[game.pk]), {"action": "roll"}).status_code == 403
    assert client.post(reverse("console_undo", args=[game.pk]), {"reason": "x"}).status_code == 403
    director = User.objects.create_user("director", password="pw", is_staff=True)
    client.force_login(director)
    assert client.get(reverse("console", args=[game.pk])).status_code == 200


def test_start_a_game_with_the_form(client, referee):
    response = client.post(
        reverse("game_new"),
        {
            "name": "Practice",
            "variant": "tournament-pl",
            "board": "classic-pl",
            "players": "Anna\nBartek\nCelina",
            "max_rounds": "8",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("console", args=[game.pk])
    assert [p.name for p in game.players.all()] == ["Anna", "Bartek", "Celina"]
    assert game.options == {"max_rounds": 8} and referee in game.referees.all()


@pytest.mark.parametrize("players", ["Anna", "Anna\nAnna", "\n".join(f"P{i}" for i in range(9))])
def test_start_form_refuses_bad_players(client, referee, players):
    response = client.post(
        reverse("game_new"), {"variant": "classic", "board": "classic-us", "players": players}
    )
    assert response.status_code == 200 and 'class="error"' in html(response) and not Game.objects.exists()


def test_console_page_shows_turn_dice_and_players(client, referee):
    game = start(referee)
    page = html(client.get(reverse("console", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Anna rolls" in page and 'name="dice" value="35"' in page  # the dice pad: 3 and 5
    assert "Bartek" in page and "32 houses" in page


def test_roll_buy_decline_auction_rent(client, referee):
    game = start(referee)
    response = act(client, game, action="roll", player="A", d1=3, d2=3)
    assert response.status_code == 200 and "Buy for 100" in html(response)
    act(client, game, action="buy", player="A")
    act(client, game, action="roll", player="A", d1=1, d2=2)
    act(client, game, action="decline", player="A")
    page = html(act(client, game, action="auction", square=9, winner="B", price=59))
    assert "below the opening bid 60" in page and state(game).owner_of(9) is None
    act(client, game, action="auction", square=9, winner="B", price=150)
    page = html(act(client, game, action="roll", player="B", d1=2, d2=4))
    assert "Rent 6" in page
    act(client, game, action="rent", player="B", square=6)
    s = state(game)
    assert (s.player("A").cash, s.player("B").cash) == (1406, 1344)
    assert game.ledger == {"A": [6, 0], "B": [0, 36]}


def rent_forms(page):
    """The "rent claimed" cards of a console page: [(square posted, heading)] (not the roll card's "claim
    it first")."""
    forms = [f for f in page.split("<form")[1:] if 'name="action" value="rent"' in f and "card rent" in f]
    return [
        (int(f.split('name="square" value="')[1].split('"')[0]), f.split("<h2>")[1].split("</h2>")[0])
        for f in forms
    ]


def test_two_pending_rents_each_claimed_by_its_square(client, referee):
    game = start(referee, options={"rent_lapses_at": "next_player_roll"})
    act(client, game, action="roll", player="A", d1=1, d2=3)  # 4: income tax
    act(client, game, action="roll", player="B", d1=3, d2=3)  # 6, a double
    act(client, game, action="buy", player="B")
    act(client, game, action="roll", player="B", d1=1, d2=2)  # 9
    act(client, game, action="buy", player="B")
    act(client, game, action="roll", player="A", d1=1, d2=1)  # 6, a double: rent to Bartek
    page = html(act(client, game, action="roll", player="A", d1=1, d2=2))  # 9: a second rent
    s = state(game)
    first, second = s.rents
    assert (first.square, second.square) == (6, 9) and first.amount != second.amount
    name = {sq: s.board.square(sq).name for sq in (6, 9)}
    assert rent_forms(page) == [
        (r.square, f"Rent {r.amount}: Anna → Bartek ({name[r.square]})") for r in (first, second)
    ]
    assert "Not claimed before the next player rolls, it lapses." in page
    page = html(act(client, game, action="rent", player="A", square=6))
    assert [(r.square, r.amount) for r in state(game).rents] == [(9, second.amount)]
    assert rent_forms(page) == [(9, f"Rent {second.amount}: Anna → Bartek ({name[9]})")]
    assert state(game).player("B").cash == 1500 - 100 - 120 + first.amount  # bought 6 and 9; rent for 6


def test_one_key_of_the_dice_pad_rolls_and_a_garbled_key_changes_nothing(client, referee):
    game = start(referee)
    for bad in ("37", "3", "35x", "", "a5"):
        page = html(act(client, game, action="roll", player="A", dice=bad))
        assert "A die shows 1 to 6." in unescape(page) and game.version == 0, bad
    act(client, game, action="roll", player="A", dice="52")
    assert game.events.get().data["dice"] == [5, 2] and state(game).player("A").position == 7


def test_the_buy_panel_sells_a_declined_square_in_one_tap(client, referee):
    """Tournament rules: a decline is always followed by its auction, so the buy panel holds the auction
    (from half the printed price): one tap on the winner enters both, as one change of the game."""
    game = start(referee, names=("Anna", "Bartek", "Celina"))
    page = html(act(client, game, action="roll", player="A", dice="12"))  # 3: printed price 60
    buy = page.split('class="card buy"')[1].split("</div>\n\n")[0]
    assert "Or declined, and auctioned from 30" in buy and 'value="decline"' in buy
    assert all(f'name="winner" value="{p}"' in buy for p in "ABC")
    assert ">Decline<" not in buy  # no decline on its own: the auction's result comes with it
    version = game.version
    act(client, game, action="decline", player="A", square=3, price=45, winner="C")
    assert [e.data["type"] for e in game.events.order_by("seq")] == ["roll", "decline", "auction"]
    assert state(game).owner_of(3) == "C" and state(game).player("C").cash == 1500 - 45
    assert game.version == version + 1 and game.next_seq == 4  # seq 1, 2, 3 taken
    recording.undo_last(game.pk, version=game.version, reason="wrong winner")  # the auction comes back
    assert state(game).auctions == (3,) and state(game).owner_of(3) is None


def test_a_refused_one_tap_auction_enters_neither_the_decline_nor_the_sale(client, referee):
    game = start(referee)
    act(client, game, action="roll", player="A", dice="12")
    page = html(act(client, game, action="decline", player="A", square=3, price=29, winner="B"))
    assert "below the opening bid 30" in page
    assert game.events.count() == 1 and state(game).decision is not None  # still Anna's to buy
    page = html(act(client, game, action="decline", player="A", square=3, nobody="1"))
    assert [e.data["type"] for e in game.events.order_by("seq")] == ["roll", "decline", "auction"]
    assert state(game).owner_of(3) is None and state(game).auctions == ()


def test_where_a_declined_square_stays_with_the_bank_the_buy_panel_just_declines(client, referee):
    game = recording.create_game(
        variant="anti-monopoly",
        board="anti-monopoly-us",
        players=[{"name": "Anna", "role": "competitor"}, {"name": "Bartek", "role": "monopolist"}],
        referees=[referee],
    )
    page = html(act(client, game, action="roll", player="A", dice="12"))
    assert ">Decline<" in page and "Or declined, and auctioned" not in page and 'name="winner"' not in page


def test_auction_nobody_bought(client, referee):
    game = start(referee)
    act(client, game, action="roll", player="A", d1=1, d2=2)
    act(client, game, action="decline", player="A")
    act(client, game, action="auction", square=3, nobody="1")
    assert state(game).auctions == () and state(game).owner_of(3) is None


def test_card_by_listed_text_and_by_effect(client, referee):
    us = start(referee, "classic", "classic-us")
    page = html(act(client, us, action="roll", player="A", d1=3, d2=4))
    assert "Advance to Boardwalk" in page
    act(client, us, action="card", player="A", card="chance:bank-dividend")
    assert state(us).player("A").cash == 1550
    pl = start(referee)
    act(client, pl, action="roll", player="A", d1=3, d2=4)
    page = html(act(client, pl, action="card", player="A", effect_kind="collect"))
    assert "Enter the amount" in page
    act(client, pl, action="card", player="A", effect_kind="collect", effect_amount="40")
    assert state(pl).player("A").cash == 1540


def test_card_effect_form_follows_the_engines_vocabulary(client, referee):
    game = start(referee)
    page = html(act(client, game, action="roll", player="A", d1=3, d2=4))  # 7: a card, texts not listed
    typed = re.findall(r'name="effect_kind" value="([a-z_]+)"', page)
    one_tap = [json.loads(unescape(v))["kind"] for v in re.findall(r'name="effect" value="([^"]+)"', page)]
    assert set(typed) | set(one_tap) == set(effect_kinds(roles=False))  # each kind offered, by tap or typed
    assert set(EFFECT_FIELDS) - set(effect_kinds(roles=False)) == {"go_to_price_war", "go_to_prison"}
    page = html(act(client, game, action="card", player="A", effect_kind="repairs", effect_per_house="25"))
    assert "Enter the amount per hotel" in page
    page = html(act(client, game, action="card", player="A", effect_kind="nearest", effect_square_kind="x"))
    assert "Choose what the card does" in page and game.version == 1
    act(client, game, action="card", player="A", effect_kind="nearest", effect_square_kind="utility")
    effect = GameEvent.objects.get(seq=2).data["effect"]
    assert effect == {"kind": "nearest", "square_kind": "utility", **NEAREST_MULTIPLIERS["utility"]}


def test_build_sell_mortgage_unmortgage(client, referee):
    game = start(referee)
    act(client, game, action="roll", player="A", d1=3, d2=3)
    act(client, game, action="buy", player="A")
    act(client, game, action="build", player="A", square=6)
    act(client, game, do="build:6", player="A")  # a button of the per-player form
    assert state(game).holdings[6].level == 2
    page = html(act(client, game, action="mortgage", player="A", square=6))
    assert "first sell the buildings" in page
    act(client, game, do="sell_building:6:2", player="A")
    act(client, game, action="mortgage", player="A", square=6)
    assert state(game).holdings[6].mortgaged
    act(client, game, action="unmortgage", player="A", square=6)
    s = state(game)
    assert not s.holdings[6].mortgaged and s.player("A").cash == 1500 - 100 - 100 + 50 + 50 - 55


def test_trade_jail_and_bankruptcy(client, referee):
    game = start(referee, "classic", "classic-us")
    act(client, game, action="roll", player="A", d1=2, d2=4)
    act(client, game, action="buy", player="A")
    act(client, game, action="trade", player="A", **{"with": "B"}, give_squares="6", get_cash="150")
    assert state(game).owner_of(6) == "B" and state(game).player("A").cash == 1550
    act(client, game, action="roll", player="B", d1=5, d2=5)  # 10: just visiting... a double
    act(client, game, action="roll", player="B", d1=6, d2=6)  # 22: Chance, a second double
    act(client, game, action="card", player="B", card="chance:go-to-jail")
    assert state(game).player("B").in_jail
    act(client, game, action="roll", player="A", d1=1, d2=3)  # 6 -> 10: just visiting
    page = html(client.get(reverse("console", args=[game.pk])))
    assert "Pay the fine 50" in page
    act(client, game, action="jail_fine", player="B")
    assert not state(game).player("B").in_jail
    page = html(act(client, game, action="bankrupt", player="A"))
    assert "owes nothing" in page


def test_timeout_and_time_up(client, referee):
    game = start(referee, "polish-table", "classic-pl")
    act(client, game, action="roll", player="A", d1=3, d2=3)
    act(client, game, action="timeout", player="A")
    assert state(game).decision is None
    act(client, game, action="time_up")
    assert state(game).time_up


def test_deal_in_short_game(client, referee):
    game = start(referee, "short", "classic-us")
    page = html(client.get(reverse("console", args=[game.pk])))
    assert "Deal 2 title deeds to Anna" in page
    act(client, game, action="deal", player="A", squares=["1", "3"])
    assert state(game).player("A").dealt == 2


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"action": "roll", "player": "A", "d1": "x", "d2": "3"}, "whole number"),
        ({"action": "roll", "player": "A", "d1": "7", "d2": "3"}, "1 to 6"),
        ({"action": "roll", "player": "A"}, "Enter the first die"),
        ({"action": "fly", "player": "A"}, "Unknown action"),
        ({"player": "A"}, "Unknown action"),
        ({"action": "roll", "player": "Z", "d1": "1", "d2": "2"}, "must be one of the players"),
        ({"action": "build", "player": "A", "square": "99"}, "square index"),
        ({"action": "roll", "player": "B", "d1": "1", "d2": "2"}, "turn to roll"),
    ],
)
def test_bad_input_gets_a_clear_message_and_changes_nothing(client, referee, fields, message):
    game = start(referee)
    response = act(client, game, **fields)
    assert response.status_code == 200 and message in html(response)
    assert game.version == 0 and not GameEvent.objects.exists()


def test_error_in_polish(client, referee):
    game = start(referee)
    client.post(reverse("set_language"), {"language": "pl"})
    page = html(act(client, game, action="roll", player="B", d1=1, d2=2))
    assert "Teraz rzuca Anna, a nie Bartek." in page


def test_stale_submission_is_refused_with_fresh_state(client, referee):
    game = start(referee)
    act(client, game, action="roll", player="A", d1=4, d2=6)
    response = client.post(
        reverse("console_act", args=[game.pk]),
        {"version": 0, "action": "roll", "player": "B", "d1": 4, "d2": 6},
        **HX,
    )
    page = html(response)
    assert "Another device entered a move" in page and "Bartek rolls" in page
    assert GameEvent.objects.count() == 1


def test_double_tap_creates_one_event(client, referee):
    game = start(referee)
    data = {"version": 0, "client_key": "tap-1", "action": "roll", "player": "A", "d1": 4, "d2": 6}
    for _ in range(2):
        assert client.post(reverse("console_act", args=[game.pk]), data, **HX).status_code == 200
    assert GameEvent.objects.count() == 1


def test_without_htmx_a_move_redirects_back_and_a_refused_one_is_answered_with_the_console(client, referee):
    game = start(referee)
    url = reverse("console_act", args=[game.pk])
    response = client.post(url, {"version": 0, "action": "roll", "player": "B", "dice": "12"})
    assert response.status_code == 200 and "turn to roll" in html(response)  # the page itself: typing kept
    assert "<title>" in html(response) and game.events.count() == 0
    response = client.post(url, {"version": 0, "action": "roll", "player": "A", "dice": "12"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("console", args=[game.pk])
    assert game.events.count() == 1


def test_undo_and_void_through_the_console(client, referee):
    game = start(referee)
    act(client, game, action="roll", player="A", d1=4, d2=6)
    act(client, game, action="roll", player="B", d1=1, d2=3)
    url = reverse("console_undo", args=[game.pk])
    page = html(client.post(url, {"version": game.version, "reason": ""}, **HX))
    assert "Say why" in page
    page = html(client.post(url, {"version": game.version, "reason": "wrong dice"}, **HX))
    assert "undone" in page and "wrong dice" in page
    game.refresh_from_db()
    page = html(
        client.post(
            reverse("console_void", args=[game.pk, 1]), {"version": game.version, "reason": "x"}, **HX
        )
    )
    assert "would be illegal" not in page and state(game).round == 1 and state(game).turn is None


def test_panel_polling_answers_204_when_unchanged(client, referee):
    game = start(referee)
    url = reverse("console_panel", args=[game.pk])
    assert client.get(url, {"version": 0}).status_code == 204
    act(client, game, action="roll", player="A", d1=4, d2=6)
    assert client.get(url, {"version": 0}).status_code == 200


def test_the_panel_reads_itself_anew_at_its_streams_changes_or_as_often_as_the_setting_says(
    client, referee, settings
):
    """live.js: the table's event stream when the game is a table's; else (and without EventSource) a poll
    every CONSOLE_POLL_SECONDS."""
    game = start(referee)
    page = html(client.get(reverse("console", args=[game.pk])))
    assert 'hx-trigger="live from:body"' in page and 'data-live-every="10"' in page
    assert 'data-live=""' in page and 'data-live-version="0"' in page  # a game at no table: polled
    settings.CONSOLE_POLL_SECONDS = 3
    act(client, game, action="roll", player="A", d1=4, d2=6)
    panel = html(client.get(reverse("console_panel", args=[game.pk])))
    assert 'data-live-every="3"' in panel and 'data-live-version="1"' in panel


def test_exported_record_replays_to_what_the_console_shows(client, referee):
    game = start(referee)
    act(client, game, action="roll", player="A", d1=3, d2=3)
    act(client, game, action="buy", player="A")
    response = client.get(reverse("game_record", args=[game.pk]))
    record = json.loads(response.content)
    assert response["Content-Disposition"].startswith("attachment")
    assert replay(record).state == state(game)


def test_header_names_the_player_who_has_the_move(client, referee):
    game = start(referee)
    act(client, game, action="roll", player="A", d1=4, d2=6)  # Anna's turn is over
    page = html(client.get(reverse("console", args=[game.pk])))
    assert "Turn: Bartek" in page and "Bartek rolls" in page


def test_console_says_what_the_last_move_did(client, referee):
    game = start(referee)
    page = html(act(client, game, action="roll", player="A", d1=1, d2=3))
    assert 'class="just-now"' in page and "Anna pays tax 200." in page


def test_admin_lists_games_and_events(client, referee):
    game = start(referee)
    act(client, game, action="roll", player="A", d1=4, d2=6)
    admin = User.objects.create_superuser("boss", password="pw")
    client.force_login(admin)
    for url in (
        "/admin/tournament/game/",
        f"/admin/tournament/game/{game.pk}/change/",
        "/admin/tournament/gameevent/",
    ):
        assert client.get(url).status_code == 200


def test_a_submission_without_its_version_is_refused_as_stale(client, referee):
    game = start(referee)
    for version in ("", "abc"):
        response = client.post(
            reverse("console_act", args=[game.pk]),
            {"version": version, "action": "roll", "player": "A", "d1": 4, "d2": 6},
            **HX,
        )
        assert "Another device entered a move" in html(response)
    assert not GameEvent.objects.exists()


FIELDS = [
    "action",
    "player",
    "d1",
    "d2",
    "square",
    "count",
    "winner",
    "price",
    "card",
    "nobody",
    "do",
    "with",
    "give_squares",
    "get_cash",
    "effect",
    "effect_kind",
    "effect_amount",
    "effect_square",
    "squares",
    "reason",
]


def test_random_form_data_never_breaks_the_console(client, referee):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.fuzzing import examples

    game = start(referee)
    values = st.one_of(
        st.sampled_from(
            [
                "roll",
                "buy",
                "auction",
                "card",
                "trade",
                "build",
                "deal",
                "A",
                "B",
                "Z",
                "build:6",
                "sell_building:x:y",
                "::",
                "chance:go-to-jail",
                '{"kind": "pay", "amount": 15}',
                '{"kind": "pay", "amount": -1}',
                '{"kind": "move_to", "square": [1]}',
                '{"kind": 5}',
                "[1, 2]",
                "{not json",
            ]
        ),
        st.integers(-5, 45).map(str),
        st.text(max_size=8),
    )

    @settings(max_examples=examples(120), suppress_health_check=list(HealthCheck))
    @given(data=st.dictionaries(st.sampled_from(FIELDS), values, max_size=6))
    def check(data):
        game.refresh_from_db()
        before = game.version
        response = client.post(
            reverse("console_act", args=[game.pk]), {"version": game.version, **data}, **HX
        )
        nul = any("\x00" in k + v for k, v in data.items())
        assert response.status_code == (400 if nul else 200)  # a NUL: refused whole, saying so
        if nul:
            assert "not allowed (NUL)" in html(response)
            game.refresh_from_db()
            assert game.version == before
        for url in ("console_undo",):
            response = client.post(reverse(url, args=[game.pk]), {"version": "x", **data}, **HX)
            assert response.status_code == (400 if nul else 200)

    check()
    assert replay_ok(game)


def replay_ok(game):
    game.refresh_from_db()
    return replay(recording.record_of(game)).state == recording.current_state(game)


def test_income_and_cost_cards_end_at_net_worth(client, referee):
    game = start(referee)
    act(client, game, action="roll", player="A", d1=3, d2=3)
    act(client, game, action="buy", player="A")
    act(client, game, action="roll", player="A", d1=1, d2=2)
    act(client, game, action="decline", player="A")
    act(client, game, action="auction", square=9, winner="B", price=150)
    act(client, game, action="roll", player="B", d1=2, d2=4)
    act(client, game, action="rent", player="B")
    response = client.get(reverse("game_cards", args=[game.pk]))
    assert response.status_code == 200
    from tournament.reports import game_report

    cards = {p.id: p for p in game_report(game).players}
    assert (cards["A"].income, cards["A"].cost, cards["A"].balance) == (6, 0, 1506)
    assert (cards["B"].cost, cards["B"].balance) == (36, 1464)
    assert [(line.operation, line.cost, line.balance) for line in cards["B"].lines] == [
        ("auction", 30, 1470),
        ("rent", 6, 1464),
    ]
    assert cards["A"].balance == cards["A"].worth.total
    assert "Ulica Targowa" in html(response)
