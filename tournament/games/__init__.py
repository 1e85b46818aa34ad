"""Games at the tables: recording a table's moves (``recording``), a game record imported for a table
(``record_import``), the engine's messages in the user's language (``messages``)."""
