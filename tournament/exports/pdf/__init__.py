"""The page set-up every PDF output shares: A4, the DejaVu fonts, the header and footer, styles and tables.

- Every page carries the tournament's name (or the game's, outside a tournament) and the document's title in
  its header, and "page X of Y" in its footer (a canvas that keeps its pages until it knows their number).
- Text is set in DejaVu Sans (shipped in ``fonts/``: reportlab's built-in fonts have no Polish letters) and
  normalised to NFC, so a name typed as "e" + combining ogonek prints, and extracts, as "ę".
- Table cells are paragraphs: a long name wraps inside its column instead of running over the next one;
  numbers are right-aligned.
- The words come from Django's gettext: a PDF is written in the active language.

The modules: the fonts, colours and paragraph styles, and text made safe for them (``styles``); tables of
figures (``tables``); what is filled in by hand — signatures, fields — and a QR code (``handwriting``); the
document with its header and footer (``document``).
"""
