"""What a game, a table, a round and a tournament report: the figures every page, score sheet and workbook
shows, gathered once per request.

The engine and the ledger are the only source of figures: each game is replayed once (movements posted to
the ledger as they come, nothing kept per event), and everything else — net-worth parts, income/cost cards,
the net worth turn by turn — is read off that replay. The outputs (``tournament.exports``) and the pages only
lay these out. What needs no game's moves replays none: the standings (``standings.standings_report``,
``standings.standings_rows``) are read from the counted results' stored scores, whatever the number of moves
played — the public pages and the standings PDF read them; a participant's cards replay his games only
(``rounds.participant_rounds``).

- ``games``: a game replayed once — its players' net worth, income/cost cards and series, its events;
- ``tables``: a table's final figures, from one source (``tables.final_rows``), and how its game ended;
- ``rounds``: the tables of a round, of a participant, of the whole tournament, read in a few queries;
- ``standings``: the standings from the stored results, no game replayed.
"""
