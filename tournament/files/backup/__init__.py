"""A tournament's backup: the whole tournament in one JSON file, and its restoration in another installation.

The file (``"format": "monopoly-tournament-backup/1"``) holds the settings, the participants, the rounds with
their tables, seats and referees, each table's game with its players and *every* event of its log (undone and
voided ones too, with who, when and why), every result of each table (reopened ones too) and its players'
signatures of its figures (a pending dispute still blocks the confirmation once restored), and the
participants' check-ins (for the next round too). People are named by username; participants by their id in
the exporting installation, which the import maps to the new ids.

The import checks the whole file before storing anything, stores it in one transaction, and replays every
game from its log (the stored state and ledger come from the replay, as after an undo): a file that is not a
backup, a tournament already present, a game whose record the rules refuse or a confirmed result the game does
not give is refused with a :class:`BackupError` naming what is wrong, and nothing is stored.

One module per job: ``export`` (the tournament as the file's data and text), ``reading`` (the file's text made
data, each value checked where it is), ``check`` (the file as a whole, every game replayed), ``restore``
(storing it); ``format`` holds what they share (the format's name, the rules' generation, ``BackupError``).
"""

from tournament.files.backup.export import dumps, export_tournament
from tournament.files.backup.format import FORMAT, RULES, BackupError
from tournament.files.backup.reading import read_backup, read_backup_file
from tournament.files.backup.restore import import_tournament

__all__ = [
    "FORMAT",
    "RULES",
    "BackupError",
    "dumps",
    "export_tournament",
    "import_tournament",
    "read_backup",
    "read_backup_file",
]
