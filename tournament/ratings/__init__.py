"""Players across tournaments and their ratings: who is who (``identities``: a participant linked to a player,
players merged and split), the ratings rebuilt from the confirmed results (``rebuild``), and when
(``triggers``: a result confirmed, reopened or corrected, a tournament's date changed)."""
