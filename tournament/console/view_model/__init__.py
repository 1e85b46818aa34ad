"""The console's view model: what the referee sees and may do now, in one plain-Python function.

``screen(state, ledger, counts)`` says where the game stands, each player's card (cash, what he owes or is
owed, the banknotes he should hold, his deeds, his figures, his last cash count), and every offer of the
moment with its amounts — the roll, a purchase or an auction, a card, a tax, a rent and its payer's way out,
a debt and what may raise it, the deals, a trade, the builds, sales and mortgages, the clocks, the final
steps — and why nobody may roll where the screen says so. Each offer is the events it enters, as the game
record writes them, so the console enters exactly what the engine was asked about.

It speaks the record's vocabulary: codes, ids and numbers (the browser says them, in the referee's language:
``static/console/``), but for the engine's own sentences ("why nobody may roll"), which it says with the
renderer it is given (``words.said`` on the phone, the server's catalogue on the server: one renderer,
``rules.messages.say``). It imports no Django: the same function runs on the server and in
the referee's phone (Pyodide, ``phone.py``), so that the two screens cannot differ. It reads the engine
(``rules``) and the ledger's figures, which is why it is not in ``rules/`` (the engine does not read the
ledger): docs/architecture.md.
"""

from tournament.console.view_model.screen import screen

__all__ = ["screen"]
