"""The two roles of Anti-Monopoly, as the board files, the game record and the tournament's seats spell them,
and where the rules differ by role. A game without roles (Monopoly) gives every player the role ``None``; a
role counts only in a variant with roles (``Variant.roles``).

Where a monopolist's game differs from a competitor's (each rule lives in its own module; this is the index):

- seating: as many competitors as monopolists, or one more of either (rule 4: ``record.check_roles``);
- rent: each role's rent ladder and utility multipliers on the title deed (``board.Square.rent_ladder``,
  ``multipliers_for``; ``rent.rent_for``: a monopolist's street rent doubles in a city he monopolises,
  rule 10; transport rule 19, utilities rule 20); a monopolist in Prison collects no rent (rule 15:
  ``rent.collects_rent``, and at the end ``rent.counted_at_the_end``);
- building: a monopolist builds only in a city he has monopolised (``buildings``), keeps no houses in a city
  he no longer monopolises (rule 12: ``ownership.monopoly_buildings_refusal``), and his apartment comes after
  his own number of houses (``variants.Variant.hotel_level_for``);
- jail: a competitor goes to Price War, a monopolist to Prison (``tokens.send_to_jail``; the cards:
  ``cards.ROLE_EFFECTS``);
- cards: a card square draws from the deck of the player's role (``board.Square.deck_for``);
- income tax: each role's percentage of cash (``taxes.cash_percent``);
- the Anti-Monopoly Foundation: a monopolist pays, a competitor rolls one die for a grant (``foundation``);
- the end: in the two-hour game a monopolist keeps 20 % of his cash, a competitor 10 %
  (``final_steps.keep_share``); Game B ends when every player of one role is bankrupt
  (``game_end.role_eliminated``).
"""

from __future__ import annotations

COMPETITOR = "competitor"
MONOPOLIST = "monopolist"
#: Every role; in this order the simulator deals them and a board file's messages name them.
ROLES = (COMPETITOR, MONOPOLIST)


def is_monopolist(roles: bool, role: str | None) -> bool:
    """A player of ``role`` plays as a monopolist: in a game with roles only (``Variant.roles``)."""
    return roles and role == MONOPOLIST
