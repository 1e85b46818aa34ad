"""What the console page gives a phone for the Wi-Fi's outages, through Django's test client: the page carries
the game as stored, in one key order (the phone goes on from it); the service worker is served from the root
with the files it keeps; the phone's zip is the server's own rules, ledger and view model, under an ETag, and
runs without Django; the catalogue of the engine's words exists for each language of the site and for no
other. (The flows themselves: tests/test_console_outage_browser.py.)"""

import io
import json
import posixpath
import re
import subprocess
import sys
import zipfile

import pytest
from django.urls import reverse

from rules.board.registry import BOARDS_DIR
from tests.pages import script_json
from tournament.console import pyodide, service_worker
from tournament.console.devices import SESSION_KEY
from tournament.games import recording
from tournament.server.site_files import site_folder

pytestmark = pytest.mark.django_db

#: An ES module's relative import (``import … from "./x.js"``, ``export … from "../site/y.js"``).
RELATIVE_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?from\s*["'](\.{1,2}/[^"']+)["']""", re.M)


@pytest.fixture
def game(referee):
    return recording.create_game(
        variant="tournament-pl",
        board="classic-pl",
        players=[{"name": "Anna"}, {"name": "Bartek"}],
        options={},
        referees=[referee],
    )


@pytest.mark.postgres
def test_the_console_gives_the_phone_the_stored_state_in_one_key_order(client, referee, game):
    """The game as stored (PostgreSQL's jsonb orders an object's keys its way): the page gives it in one
    order, whatever the database, as a move's answer does."""
    client.force_login(referee)
    page = client.get(reverse("console", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    data = script_json(page, "console-data")
    game.refresh_from_db()
    device = client.session[SESSION_KEY]
    assert (data["game"], data["version"], data["state"], data["ledger"]) == (
        game.pk,
        game.version,
        game.state,
        game.ledger,
    )
    assert json.dumps(data["state"]) == json.dumps(game.state, sort_keys=True)
    assert data["key_start"] == device + "." and data["seen"]
    assert f'data-pyodide="/static/{pyodide.folder_name()}/"' in page


def test_the_service_worker_is_served_from_the_root_with_the_files_it_keeps(client):
    answer = client.get(reverse("console_service_worker"))
    assert reverse("console_service_worker") == "/console-sw.js"
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/" and answer["Cache-Control"] == "no-cache"
    script = answer.content.decode()
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", script).group(1))
    assert "/static/console/console.js" in files and "/console/engine/rules.zip" in files
    assert "/console/words-pl.js" in files and "/console/words-en.js" in files
    assert f"/static/{pyodide.folder_name()}/pyodide.asm.wasm" in files
    assert {"/console/engine/words-pl.json", "/console/engine/words-en.json"} <= set(files)
    for name in files:  # every file it keeps is there to be kept
        if name.startswith("/static/"):
            continue
        assert client.get(name).status_code == 200, name


def test_the_service_worker_keeps_every_module_the_console_imports():
    """console.js's modules, and the modules they import (screen.js's parts, …): one not kept would stop the
    console's reload while the Wi-Fi is down."""
    static = site_folder() / "static"
    imported, todo = set(), ["console/console.js"]
    while todo:
        name = todo.pop()
        if name in imported:
            continue
        imported.add(name)
        text = (static / name).read_text(encoding="utf-8")
        for path in RELATIVE_IMPORT.findall(text):
            todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(name), path)))
    assert "console/screen/elements.js" in imported  # the walk follows screen.js into its parts
    assert imported <= set(service_worker.STATIC), imported - set(service_worker.STATIC)


def test_the_phones_zip_is_the_servers_rules_ledger_and_view_model_under_an_etag(client, tmp_path):
    """What the phone runs is the server's own code, and runs without Django: unpacked alone, in a Python
    that sees no installed package (``-I -S``), it plays a move and draws its screen."""
    answer = client.get(reverse("console_engine"))
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(answer.content))
    names = archive.namelist()
    assert {"rules/engine.py", "ledger/card.py", "tournament/console/view_model/phone.py"} <= set(names)
    assert {f"rules/boards/{p.name}" for p in BOARDS_DIR.glob("*.json")} <= set(names)
    assert not [n for n in names if "__pycache__" in n]
    assert not [
        n for n in names if n.startswith("tournament/") and "view_model" not in n and "__init__" not in n
    ]
    again = client.get(reverse("console_engine"), HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 304 and again["ETag"] == answer["ETag"]

    archive.extractall(tmp_path)
    game = recording.create_game(
        variant="classic", board="classic-us", players=[{"name": "Anna"}, {"name": "Bartek"}], referees=[]
    )
    played = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            "-c",
            PLAY_ALONE,
            str(tmp_path),
            json.dumps({"state": game.state, "ledger": game.ledger}),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout) == {"ok": True, "cash": 1500, "position": 7, "django": False}


#: Run by a Python that sees only the unpacked zip: a roll of the first player, then whether Django came.
PLAY_ALONE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from tournament.console.view_model import phone
out = json.loads(phone.apply(sys.argv[2], json.dumps([{"type": "roll", "player": "A", "dice": [3, 4]}])))
first = out["view"]["players"][0]
seen = {"ok": out["ok"], "cash": first["cash"], "position": first["position"]}
print(json.dumps({**seen, "django": "django" in sys.modules}))
"""


def test_the_catalogue_of_the_engines_words_exists_for_the_sites_languages_only(client):
    polish = client.get(reverse("console_engine_words", args=["pl"])).json()
    assert polish["catalog"]["{player} is bankrupt and out of the game."].startswith("{player}")
    english = client.get(reverse("console_engine_words", args=["en"]))
    assert english.status_code == 200
    assert client.get("/console/engine/words-xx.json").status_code == 404


def test_the_files_of_pyodide_are_those_the_pin_names(client):
    pin = pyodide.pinned()
    assert pin["tarball"] == f"https://registry.npmjs.org/pyodide/-/pyodide-{pin['version']}.tgz"
    for path in pyodide.fetch_pyodide():  # tests/venv.sh fetched them: nothing fetched again
        assert path.is_file() and path.stat().st_size > 0
