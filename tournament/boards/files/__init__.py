"""A board edition as a file an organiser fills in: an Excel workbook (the template the app gives him, filled
in from the physical title cards) or JSON in the format of ``rules/boards/*.json``.

The workbook has a sheet per part of the board, a header row naming the columns by the fields of the JSON
format (``rules.board.parse_board`` reads them), so that a workbook and a JSON file are the same board:

- ``board``: rows of field and value (id, name, language, source);
- ``squares``: a row per square 0–39; a list field is one column per value (``rents_0`` … ``rents_5``:
  ``rents`` in JSON), the decks of the two roles' card squares are ``competitor_deck`` and ``monopolist_deck``
  (``role_decks``);
- ``decks``: id and name of each card deck;
- ``cards``: a row per card (deck, id, text, copies, the effect's kind and fields); a deck without cards is
  known by name only and its cards are recorded by their effect;
- ``help``: what each column means (not read back).

Reading costs little whatever is uploaded: the size is checked before anything is read, a workbook is refused
before it is opened when its parts unpack to more than ``MAX_UNPACKED_BYTES``, rows are read one at a time
(at most ``MAX_ROWS`` filled ones per sheet, ``MAX_COLUMNS`` cells each), a JSON file too deep or with
numbers JSON does not have is refused. A control character (NUL …) or a lone surrogate in any text refuses the
file, naming where. Problems are :class:`BoardFileError`, each a line of text for the director.

The modules: the sheets and columns and what is read of them, and the error (``columns``); the template
(``template``); a workbook read (``workbook``); an uploaded file read, JSON or a workbook (``reading``).
"""
