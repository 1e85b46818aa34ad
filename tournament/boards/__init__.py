"""Board editions: stored editions registered with the rules engine (``editions``), the organiser's workbook
and JSON files (``files``), which boards fit a variant (``fitting``), the words a board prints (``words``)."""
