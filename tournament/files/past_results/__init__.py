"""Past results imported to start the ratings: a workbook (or CSV) of past tournaments' table rankings.

One row is one player's place at one table of one round of one tournament. The first row (the first that is
not blank) names the columns, in any order, in English or Polish: Tournament/Turniej, Date/Data, Round/Runda,
Table/Stół, Place/Miejsce, Player/Gracz (or Name/Nazwisko) and optionally Club/Klub. A date is an Excel date
or text, YYYY-MM-DD or DD.MM.YYYY.

Everything is checked before anything is stored, and every problem is reported with its line: a value
missing or not allowed, a tournament with two dates, a player twice in one round or with two clubs in one
tournament, a table of one player or a place beyond its players, a tournament already imported. A clean file
is stored in one short transaction: the past tournaments (``PastEvent``), a ``PastEntrant`` per name and
tournament and a ``PastPlacement`` per row. No entrant is linked to a player: the director confirms who is
who next (tournament.ratings.identities), which rebuilds the ratings; the import asks for a rebuild too,
from its earliest tournament.

The rows are read by the participants' readers (tournament/files/participants_import.py): a file over
``settings.UPLOAD_MAX_BYTES`` or a workbook unpacking to more than ``MAX_UNPACKED_BYTES`` is refused before it
is read, and reading stops after ``MAX_ROWS`` rows.

The modules: a row of the file read and checked (``rows``), the whole file read into its tournaments and
what the director checks before it is stored (``reading``), the tournaments stored (``storing``), the
workbook to fill in (``template``).
"""
