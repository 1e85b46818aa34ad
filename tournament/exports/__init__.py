"""The tournament's printed outputs, laid out from the reports of ``tournament.reports`` (no figure is
computed here: every one comes from the engine and the ledger through those reports).

PDF (A4, DejaVu Sans for the Polish letters, the tournament's name and "page X of Y" on every page; the
words in the active language):

- ``result_sheets.result_sheets_pdf(tournament, tables)``: the table's result sheet, one page per table
  (a table, a round, the whole tournament): final cash, the net worth's parts, rank, placement points, the
  end reason, the net worth chart, signature lines.
- ``ledger_cards.ledger_cards_pdf(tournament_or_none, entries, title)``: the participant's income/cost card
  (004's individual card), per game or for all of a participant's games (``participant_entries``), with the
  identity starting cash + income − cost = net worth checked on the page.
- ``blank_sheets.blank_table_sheet_pdf(tournament, table)`` and ``blank_sheets.blank_card_pdf(tournament)``:
  paper backup sheets for a table, and a blank participant's card.
- ``standings_pdf.standings_pdf(report)``: the standings (the projector's content), paginated; from
  ``reports.standings.standings_report`` (no game replayed: it is a public download).

Pictures: ``chart.net_worth_chart(game, width, height)`` (a reportlab Drawing, placed on the result sheet)
and ``chart.net_worth_svg(game)`` (the same drawing as SVG markup, for the game's page).

Shared set-up: ``pdf`` (fonts, page header and footer, styles, tables whose cells wrap). The fonts are in
``fonts/`` with their licence.
"""
