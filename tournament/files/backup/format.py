"""What the backup's export and its reading share: the format's name, the generation of the engine's rules
the games were played by, and the error a file that cannot be imported raises."""

from __future__ import annotations

from rules.variants import RULES_GENERATION

#: The format's name, which the reading requires. Keys added since are read when present and default when not
#: (a file made before them still imports): newer settings of the tournament, the co-directors, the private
#: links' keys, results by hand, the director's log (``audit``), each table's ``signatures`` (a player's word
#: on his table's figures: participant, verdict ``agree``/``dispute``, reason, the game's version he read,
#: when, the mark of his link), the ``check_ins`` (participant, round, via, by whom, when) and the
#: ``trade_flag_reviews`` (a flagged trade's key, the director's note, who saw it, when).
FORMAT = "monopoly-tournament-backup/1"
#: The engine's rules the games of a backup were played by (``rules.variants.RULE_CHANGES``): 2 since rent
#: lapses at the next player's roll and the jail fine is settled before the token moves, 3 since
#: Anti-Monopoly's income tax is valued at the landing and a monopolist in Prison earns nothing at the end (a
#: backup of an older generation, or without it, replays with ``previous_rules`` of its generation).
RULES = RULES_GENERATION


class BackupError(Exception):
    """A backup file that cannot be imported; the message says what is wrong and where."""
