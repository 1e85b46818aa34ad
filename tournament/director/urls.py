"""The director's pages: boards, referees' accounts (and the page a referee's one-time login link opens),
tournaments, their participants, rounds and tables, and the interventions on them."""

from django.urls import path

from tournament import converters  # noqa: F401 (the <id:…> paths)
from tournament.director import backup as director_backup
from tournament.director import boards as director_boards
from tournament.director import check_ins, interventions, participant_links
from tournament.director import referees as director_referees
from tournament.director import trade_flags as director_trade_flags
from tournament.director import views as director

urlpatterns = [
    path("login/link/<slug:secret>/", director_referees.login_link, name="login_link"),
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
    path("my-name/", director_referees.own_name, name="own_name"),
    path("tournaments/", director.tournament_list, name="tournaments"),
    path("tournaments/new/", director.tournament_new, name="tournament_new"),
    path("tournaments/<id:pk>/", director.tournament_detail, name="tournament"),
    path("tournaments/<id:pk>/edit/", director.tournament_edit, name="tournament_edit"),
    path("tournaments/<id:pk>/backup.json", director_backup.tournament_backup, name="tournament_backup"),
    path("tournaments/<id:pk>/directors/add/", interventions.director_add, name="directors_add"),
    path("tournaments/<id:pk>/directors/remove/", interventions.director_remove, name="directors_remove"),
    path(
        "tournaments/<id:pk>/trade-flags/seen/", director_trade_flags.trade_flag_seen, name="trade_flag_seen"
    ),
    path("tournaments/<id:pk>/participants/add/", director.participant_add, name="participant_add"),
    path("tournaments/<id:pk>/participants/import/", director.participant_import, name="participant_import"),
    path(
        "tournaments/<id:pk>/participants/<id:participant>/withdraw/",
        interventions.participant_withdraw,
        name="participant_withdraw",
    ),
    path("tournaments/<id:pk>/participants/check-in/", check_ins.check_in_everyone, name="check_in_everyone"),
    path("tournaments/<id:pk>/participants/scan/", check_ins.scan, name="check_in_scan"),
    path(
        "tournaments/<id:pk>/participants/<id:participant>/check-in/",
        check_ins.participant_check_in,
        name="participant_check_in",
    ),
    path("tournaments/<id:pk>/participants/links/", participant_links.link_list, name="participant_links"),
    path("tournaments/<id:pk>/participants/slips.pdf", participant_links.slips, name="participant_slips"),
    path(
        "tournaments/<id:pk>/participants/<id:participant>/link/",
        participant_links.link_change,
        name="participant_link_change",
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
]
