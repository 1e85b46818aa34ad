"""The director's pages of the league: who is who, a player renamed, merged or split."""

from django.urls import path

from tournament import converters  # noqa: F401 (the <id:…> paths)
from tournament.league import manage_views as manage

urlpatterns = [
    path("tournaments/<id:pk>/players/", manage.tournament_players, name="tournament_players"),
    path("league/past/<id:pk>/players/", manage.past_event_players, name="past_event_players"),
    path("league/players/<id:player>/manage/", manage.player_manage, name="league_player_manage"),
    path("league/players/<id:player>/rename/", manage.player_rename, name="league_player_rename"),
    path("league/players/<id:player>/merge/", manage.player_merge, name="league_player_merge"),
    path("league/players/<id:player>/split/", manage.player_split, name="league_player_split"),
]
