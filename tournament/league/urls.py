"""The league, for everyone without logging in: the players by rating, a player's page, the workbook."""

from django.urls import path

from tournament import converters  # noqa: F401 (the <id:…> paths)
from tournament.league import views as league

urlpatterns = [
    path("league/", league.league, name="league"),
    path("league/players/<id:pk>/", league.player, name="league_player"),
    path("league/ratings.xlsx", league.workbook, name="league_workbook"),
]
