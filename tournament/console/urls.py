"""The referee's console: the list of games, a new game on its own, and a game's pages (the console, its
panel, its moves, its record, its income/cost cards), and the rules as a phone runs them offline."""

from django.urls import path

from tournament import converters  # noqa: F401 (the <id:…> paths)
from tournament.console import engine_files, replay, service_worker, sync
from tournament.console import views as console

urlpatterns = [
    path("games/", console.game_list, name="games"),
    path("games/new/", console.game_new, name="game_new"),
    path("games/<id:pk>/", console.console, name="console"),
    path("games/<id:pk>/state/", console.state, name="console_state"),
    path("games/<id:pk>/void/<id:seq>/", console.void, name="console_void"),
    path("games/<id:pk>/moves/", console.all_moves, name="console_moves"),
    path("games/<id:pk>/sync/", sync.sync, name="console_sync"),
    path("games/<id:pk>/contact/", sync.contact, name="console_contact"),
    path("games/<id:pk>/record.json", console.export, name="game_record"),
    path("games/<id:pk>/cards/", console.cards, name="game_cards"),
    path("games/<id:pk>/replay/", replay.replay, name="game_replay"),
    path("games/<id:pk>/replay.json", replay.replay_data, name="game_replay_data"),
    path("console/engine/rules.zip", engine_files.engine_zip, name="console_engine"),
    path(
        "console/engine/words-<slug:language>.json", engine_files.engine_catalog, name="console_engine_words"
    ),
    path("console/words-<slug:language>.js", engine_files.screen_catalog, name="console_screen_words"),
    path("console-sw.js", service_worker.service_worker, name="console_service_worker"),
]
