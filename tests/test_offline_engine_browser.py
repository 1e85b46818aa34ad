"""The rules engine in the referee's phone (static/console/engine.js: Pyodide running the server's own rules
package through rules/offline.py, the files fetched by tests/venv.sh), in a real browser on the console page:
from the game's stored state the phone plays forty moves and ends in the very state the server stores for
the same moves; a move the server refuses, the phone refuses with the same code and words to translate.
The time the engine takes to start is printed (pytest -s)."""

import json
import time

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from rules.errors import RulesError
from rules.record import parse_record
from rules.replay import start_state
from rules.simulate import simulate
from rules.snapshot import dump_state
from tests.browser import BROWSER_TESTS, polish_phone, with_the_sites_policy
from tests.tournaments import make_tournament, start_game
from tournament.console import pyodide
from tournament.console.screen_words import screen_words
from tournament.console.view_model import phone as phone_engine
from tournament.console.view_model import screen, words
from tournament.event import rounds
from tournament.games import recording
from tournament.games.messages import error_text

pytestmark = BROWSER_TESTS

PLAY = """async ([game, events]) => {
  const views = [];
  for (const event of events) {
    const out = await document.getElementById("console").consoleEngine.apply(game, [event]);
    if (!out.ok) { return { refused: out, at: views.length }; }
    game = out.game;
    views.push(out.view);
  }
  return { game, views };
}"""


@pytest.fixture
def polish_words():
    """The phone's words in this process too, as the Polish page gives them to its rules (its game's board
    words and ids, the server's catalogue): the screens compared say the engine's sentences alike."""

    def given(game):
        catalog = Client().get(reverse("console_engine_words", args=["pl"])).json()["catalog"]
        with translation.override("pl"):
            names = screen_words(recording.current_state(game))
        words.use_words({"catalog": catalog, "board_words": names["board_words"], "ids": names["ids"]})

    yield given
    words.use_words({})


def rules_ready(page) -> None:
    """The phone's rules started and told the referee's words (console.js: #console's data-rules)."""
    page.wait_for_selector("#console[data-rules=ready]", state="attached")


def test_the_phones_engine_plays_moves_as_the_server_does(live_server, browser, polish_words):
    referee = User.objects.create_user("sedzia", password="pw")
    t = make_tournament(4, rounds=2, table_size=4)
    round_1 = rounds.seat_next_round(t)
    rounds.start_round(round_1)
    table = round_1.tables.get()
    table.referees.add(referee)
    game = start_game(table, referee)
    events = simulate(t.variant, t.board, 4, seed=11, rounds=t.game_rounds)["events"]
    for event in events[:20]:  # played on the server before the Wi-Fi goes
        game = recording.submit(game.pk, event, version=game.version).game
    ref, context = polish_phone(browser, live_server, "sedzia", f"/games/{game.pk}/")
    with_the_sites_policy(context)
    page = ref.page
    page.reload()
    began = time.perf_counter()
    rules_ready(page)
    print(f"the phone's engine started in {time.perf_counter() - began:.1f} s")
    polish_words(game)
    kept = {"state": game.state, "ledger": game.ledger, "counts": game.counts, "next_seq": game.next_seq}
    played = page.evaluate(PLAY, [kept, events[20:60]])
    assert "refused" not in played, played
    for event in events[20:60]:  # the same moves on the server
        game = recording.submit(game.pk, event, version=game.version).game
    game.refresh_from_db()
    kept = {"state": game.state, "ledger": game.ledger, "counts": game.counts, "next_seq": game.next_seq}
    assert played["game"] == kept
    last = played["views"][-1]
    assert [p["cash"] for p in last["players"]] == [p["cash"] for p in game.state["players"]]
    assert last == json.loads(json.dumps(screen(recording.current_state(game), game.ledger)))

    wrong = (
        {**events[60], "dice": [7, 1]} if events[60]["type"] == "roll" else {"type": "roll", "dice": [7, 1]}
    )
    wrong.setdefault("player", game.state["players"][0]["id"])
    refused = page.evaluate(PLAY, [kept, [wrong]])["refused"]
    try:
        recording.submit(game.pk, wrong, version=game.version)
    except RulesError as e:
        with translation.override("pl"):
            assert refused["error"] == {"code": e.code, "text": error_text(e)}
    else:
        raise AssertionError("the server took a die of 7")
    context.close()


PARITY_GAMES = [
    ("tournament-pl", "classic-pl", 4, {}, 11),
    ("classic", "classic-us", 3, {}, 5),
    ("anti-monopoly", "anti-monopoly-us", 4, {"ending": "two_hour"}, 3),
]


def test_the_phone_and_the_server_draw_the_same_screen_after_every_move(live_server, browser, polish_words):
    """The view model the phone computes (Pyodide in Chromium) equals the server's, move after move, over
    whole simulated games of the three families: one screen, whoever draws it."""
    User.objects.create_user("sedzia", password="pw")
    game = recording.create_game(
        variant="classic", board="classic-us", players=[{"name": "A"}, {"name": "B"}], referees=[]
    )
    game.referees.add(User.objects.get(username="sedzia"))
    ref, context = polish_phone(browser, live_server, "sedzia", f"/games/{game.pk}/")
    with_the_sites_policy(context)
    ref.page.reload()
    rules_ready(ref.page)
    polish_words(game)
    for variant, board, players, options, seed in PARITY_GAMES:
        record = simulate(variant, board, players, seed=seed, max_events=400, options=options)
        state = start_state(parse_record(record))
        ledger = {p.id: [0, 0] for p in state.players}
        played = ref.page.evaluate(PLAY, [{"state": dump_state(state), "ledger": ledger}, record["events"]])
        assert "refused" not in played, (variant, played)
        here = json.dumps({"state": dump_state(state), "ledger": ledger})
        for i, event in enumerate(record["events"]):
            out = json.loads(phone_engine.apply(here, json.dumps([event])))
            assert played["views"][i] == out["view"], (variant, i, event)
            here = json.dumps(out["game"])
        assert played["game"] == json.loads(here)
    context.close()


#: The snapshots the phone keeps (static/console/engine-worker.js): {"<Pyodide folder's URL> <rules' ETag>
#: <worker's URL>": gzipped bytes}.
KEPT = """() => new Promise((resolve, reject) => {
  const opening = indexedDB.open("console-engine", 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore("pyodide-snapshots");
  opening.onerror = () => reject(opening.error);
  opening.onsuccess = () => {
    const db = opening.result;
    const store = db.transaction("pyodide-snapshots").objectStore("pyodide-snapshots");
    const keys = store.getAllKeys();
    const values = store.getAll();
    values.onsuccess = () => {
      db.close();
      resolve(Object.fromEntries(keys.result.map((key, i) => [key, values.result[i].byteLength])));
    };
  };
})"""
#: Wait until one snapshot is kept (not the spoilt one below, 4 kB unzipped), at most a minute: whether it is
ONE_KEPT = f"""async () => {{
  const given = performance.now() + 60000;
  const kept = async () => Object.values(await ({KEPT})()).filter((size) => size > 100000).length === 1;
  while (!(await kept()) && performance.now() < given) {{ await new Promise((r) => setTimeout(r, 50)); }}
  return kept();
}}"""

#: A kept snapshot spoilt (valid gzip of what is no interpreter): as a phone's storage could be left.
SPOILT = """async () => {
  const packing = new Blob([new Uint8Array(4096).fill(7)]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  const spoilt = new Uint8Array(await new Response(packing).arrayBuffer());
  const db = await new Promise((resolve, reject) => {
    const opening = indexedDB.open("console-engine", 1);
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
  const store = db.transaction("pyodide-snapshots", "readwrite").objectStore("pyodide-snapshots");
  const keys = await new Promise((resolve, reject) => {
    const asked = store.getAllKeys();
    asked.onsuccess = () => resolve(asked.result);
    asked.onerror = () => reject(asked.error);
  });
  await new Promise((resolve, reject) => {
    const put = store.put(spoilt, keys[0]);
    put.onsuccess = resolve;
    put.onerror = () => reject(put.error);
  });
  db.close();
}"""


def test_the_phone_keeps_python_started_and_restores_it_at_the_next_console(live_server, browser):
    """Starting Python is most of the engine's wait: the phone keeps the interpreter as it is just after its
    start, and the next console restores it instead (the time of each is printed, pytest -s); the restored
    engine plays a game as the server does; a kept copy spoilt is dropped, Python started afresh and kept
    again."""
    User.objects.create_user("sedzia", password="pw")
    game = recording.create_game(
        variant="classic", board="classic-us", players=[{"name": "A"}, {"name": "B"}], referees=[]
    )
    game.referees.add(User.objects.get(username="sedzia"))
    ref, context = polish_phone(browser, live_server, "sedzia", f"/games/{game.pk}/", cold=True)
    with_the_sites_policy(context)
    page = ref.page

    def start() -> str:
        page.reload()
        began = time.perf_counter()
        how = page.evaluate("() => document.getElementById('console').consoleEngine.start()")
        print(f"the phone's engine {how} in {time.perf_counter() - began:.1f} s")
        return how

    assert page.evaluate(KEPT) == {} and start() == "started"
    assert page.evaluate(ONE_KEPT)  # kept after the start: nobody waits for it
    rules = ref.page.request.get(f"{live_server.url}/console/engine/rules.zip").headers["etag"]
    folder = f"{live_server.url}{settings.STATIC_URL}{pyodide.folder_name()}/"
    worker = f"{live_server.url}{settings.STATIC_URL}console/engine-worker.js"
    assert list(page.evaluate(KEPT)) == [f"{folder} {rules} {worker}"]  # the rules kept imported: by version
    assert start() == "restored"
    record = simulate("classic", "classic-us", 3, seed=5, max_events=300)
    state = start_state(parse_record(record))
    ledger = {p.id: [0, 0] for p in state.players}
    played = page.evaluate(PLAY, [{"state": dump_state(state), "ledger": ledger}, record["events"]])
    here = json.dumps({"state": dump_state(state), "ledger": ledger})
    for event in record["events"]:
        here = json.loads(phone_engine.apply(here, json.dumps([event])))["game"]
        here = json.dumps(here)
    assert played["game"] == json.loads(here)

    page.evaluate(SPOILT)
    assert start() == "started"
    rules_ready(page)  # the console's rules ready all the same
    assert page.evaluate(ONE_KEPT)
    assert start() == "restored"
    context.close()
