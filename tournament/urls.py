from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament import views
from tournament.console import views as console
from tournament.director import views as director
from tournament.public import views as public

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.home, name="home"),
    path("games/", console.game_list, name="games"),
    path("games/new/", console.game_new, name="game_new"),
    path("games/<int:pk>/", console.console, name="console"),
    path("games/<int:pk>/panel/", console.panel, name="console_panel"),
    path("games/<int:pk>/act/", console.act, name="console_act"),
    path("games/<int:pk>/undo/", console.undo, name="console_undo"),
    path("games/<int:pk>/void/<int:seq>/", console.void, name="console_void"),
    path("games/<int:pk>/record.json", console.export, name="game_record"),
    path("games/<int:pk>/cards/", console.cards, name="game_cards"),
    path("tournaments/", director.tournament_list, name="tournaments"),
    path("tournaments/new/", director.tournament_new, name="tournament_new"),
    path("tournaments/<int:pk>/", director.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/edit/", director.tournament_edit, name="tournament_edit"),
    path("tournaments/<int:pk>/participants/add/", director.participant_add, name="participant_add"),
    path("tournaments/<int:pk>/participants/import/", director.participant_import, name="participant_import"),
    path(
        "tournaments/<int:pk>/participants/<int:participant>/withdraw/",
        director.participant_withdraw,
        name="participant_withdraw",
    ),
    path("tournaments/<int:pk>/rounds/seat/", director.round_seat, name="round_seat"),
    path("tournaments/<int:pk>/rounds/<int:number>/", director.round_detail, name="round"),
    path("tournaments/<int:pk>/rounds/<int:number>/swap/", director.round_swap, name="round_swap"),
    path("tournaments/<int:pk>/rounds/<int:number>/start/", director.round_start, name="round_start"),
    path("tournaments/<int:pk>/rounds/<int:number>/tables/<int:table>/", director.table_detail, name="table"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/tables/<int:table>/referees/",
        director.table_referees,
        name="table_referees",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/tables/<int:table>/confirm/",
        director.table_confirm,
        name="table_confirm",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/tables/<int:table>/reopen/",
        director.table_reopen,
        name="table_reopen",
    ),
    path("tournaments/<int:pk>/standings/", public.standings, name="standings"),
    path("tournaments/<int:pk>/projector/", public.projector, name="projector"),
]
