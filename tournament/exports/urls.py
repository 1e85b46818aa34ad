"""What leaves the screen: score sheets, income/cost cards, blank sheets and standings as PDF, the
tournament's workbook."""

from django.urls import path

from tournament import converters  # noqa: F401 (the <id:…> paths)
from tournament.exports import views as exports

urlpatterns = [
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
]
