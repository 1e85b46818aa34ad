from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament import converters, views  # noqa: F401 (converters: the <id:…> paths)
from tournament.console import views as console
from tournament.director import backup as director_backup
from tournament.director import boards as director_boards
from tournament.director import interventions
from tournament.director import referees as director_referees
from tournament.director import views as director
from tournament.exports import views as exports
from tournament.public import views as public

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("login/link/<slug:secret>/", director_referees.login_link, name="login_link"),
    path("", views.home, name="home"),
    path("my-tables/", views.my_tables, name="my_tables"),
    path("games/", console.game_list, name="games"),
    path("games/new/", console.game_new, name="game_new"),
    path("games/<id:pk>/", console.console, name="console"),
    path("games/<id:pk>/panel/", console.panel, name="console_panel"),
    path("games/<id:pk>/act/", console.act, name="console_act"),
    path("games/<id:pk>/undo/", console.undo, name="console_undo"),
    path("games/<id:pk>/undo/dice/", console.correct_dice, name="console_correct_dice"),
    path("games/<id:pk>/void/<id:seq>/", console.void, name="console_void"),
    path("games/<id:pk>/moves/", console.all_moves, name="console_moves"),
    path("games/<id:pk>/record.json", console.export, name="game_record"),
    path("games/<id:pk>/cards/", console.cards, name="game_cards"),
    path("boards/", director_boards.board_list, name="boards"),
    path("boards/template.xlsx", director_boards.board_template, name="board_template"),
    path("boards/board.json", director_boards.board_json, name="board_json"),
    path("boards/upload/", director_boards.board_upload, name="board_upload"),
    path("boards/delete/", director_boards.board_delete, name="board_delete"),
    path("referees/", director_referees.referee_list, name="referees"),
    path("referees/new/", director_referees.referee_add, name="referee_add"),
    path("referees/<id:account>/", director_referees.referee_detail, name="referee"),
    path("referees/<id:account>/password/", director_referees.referee_password, name="referee_password"),
    path("referees/<id:account>/link/", director_referees.referee_link, name="referee_link"),
    path("referees/<id:account>/active/", director_referees.referee_active, name="referee_active"),
    path("referees/<id:account>/name/", director_referees.referee_rename, name="referee_rename"),
    path("tournaments/", director.tournament_list, name="tournaments"),
    path("tournaments/new/", director.tournament_new, name="tournament_new"),
    path("tournaments/<id:pk>/", director.tournament_detail, name="tournament"),
    path("tournaments/<id:pk>/edit/", director.tournament_edit, name="tournament_edit"),
    path("tournaments/<id:pk>/backup.json", director_backup.tournament_backup, name="tournament_backup"),
    path("tournaments/<id:pk>/directors/add/", interventions.director_add, name="directors_add"),
    path("tournaments/<id:pk>/directors/remove/", interventions.director_remove, name="directors_remove"),
    path("tournaments/<id:pk>/participants/add/", director.participant_add, name="participant_add"),
    path("tournaments/<id:pk>/participants/import/", director.participant_import, name="participant_import"),
    path(
        "tournaments/<id:pk>/participants/<id:participant>/withdraw/",
        interventions.participant_withdraw,
        name="participant_withdraw",
    ),
    path("tournaments/<id:pk>/rounds/seat/", director.round_seat, name="round_seat"),
    path("tournaments/<id:pk>/rounds/<id:number>/", director.round_detail, name="round"),
    path("tournaments/<id:pk>/rounds/<id:number>/swap/", director.round_swap, name="round_swap"),
    path("tournaments/<id:pk>/rounds/<id:number>/start/", director.round_start, name="round_start"),
    path("tournaments/<id:pk>/rounds/<id:number>/move/", interventions.round_move, name="round_move"),
    path("tournaments/<id:pk>/rounds/<id:number>/reseat/", interventions.round_reseat, name="round_reseat"),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/referees/",
        interventions.round_referees,
        name="round_referees",
    ),
    path("tournaments/<id:pk>/rounds/<id:number>/tables/<id:table>/", director.table_detail, name="table"),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/tables/<id:table>/confirm/",
        director.table_confirm,
        name="table_confirm",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/tables/<id:table>/absent/",
        interventions.table_absent,
        name="table_absent",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/tables/<id:table>/stop/",
        interventions.table_stop,
        name="table_stop",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/tables/<id:table>/result-by-hand/",
        interventions.table_hand_result,
        name="table_hand_result",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/tables/<id:table>/reopen/",
        director.table_reopen,
        name="table_reopen",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/tables/<id:table>/record/import/",
        director.table_record_import,
        name="table_record_import",
    ),
    # what leaves the screen (tournament/exports)
    path("games/<id:pk>/cards.pdf", exports.game_cards, name="game_cards_pdf"),
    path("blank-card.pdf", exports.blank_card, name="blank_card_pdf"),
    path("tournaments/<id:pk>/blank-card.pdf", exports.blank_card, name="tournament_blank_card_pdf"),
    path("tournaments/<id:pk>/sheets.pdf", exports.tournament_sheets, name="tournament_sheets_pdf"),
    path("tournaments/<id:pk>/workbook.xlsx", exports.workbook, name="tournament_workbook"),
    path("tournaments/<id:pk>/standings.pdf", exports.standings, name="standings_pdf"),
    path(
        "tournaments/<id:pk>/participants/<id:participant>/cards.pdf",
        exports.participant_cards,
        name="participant_cards_pdf",
    ),
    path("tournaments/<id:pk>/rounds/<id:number>/sheets.pdf", exports.round_sheets, name="round_sheets_pdf"),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/tables/<id:table>/sheet.pdf",
        exports.table_sheet,
        name="table_sheet_pdf",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/tables/<id:table>/blank.pdf",
        exports.table_blank_sheet,
        name="table_blank_pdf",
    ),
    path("tournaments/<id:pk>/standings/", public.standings, name="standings"),
    path("tournaments/<id:pk>/projector/", public.projector, name="projector"),
    path("tournaments/<id:pk>/seating/", public.seating, name="seating"),
    path("tournaments/<id:pk>/rounds/<id:number>/seating/", public.seating, name="round_seating"),
]
