"""For everyone, without logging in: the standings, their projector view and the seating of a round; a
table's board live (when the tournament shows it); the read-only JSON API (docs/api.md)."""

from django.urls import path, re_path

from tournament import converters  # noqa: F401 (the <id:…> paths)
from tournament.public import api, boards
from tournament.public import views as public

urlpatterns = [
    path("tournaments/<id:pk>/standings/", public.standings, name="standings"),
    path("tournaments/<id:pk>/projector/", public.projector, name="projector"),
    path("tournaments/<id:pk>/seating/", public.seating, name="seating"),
    path("tournaments/<id:pk>/rounds/<id:number>/seating/", public.seating, name="round_seating"),
    path("tables/<id:pk>/board/", boards.board, name="live_board"),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/tables/<id:table>/board/",
        boards.round_table_board,
        name="round_table_board",
    ),
    path("api/v1/tournaments/<id:pk>/tables/", api.tables, name="api_tables"),
    path("api/v1/tables/<id:pk>/", api.table, name="api_table"),
    path("api/v1/tournaments/<id:pk>/standings/", api.standings, name="api_standings"),
    re_path(r"^api/(?P<rest>.*)$", api.unknown),  # (after the API's addresses: what names none of them)
]
