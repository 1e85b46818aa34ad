"""The league's pages: the players by rating and each player's page (public), the ratings' workbook, and the
director's: who is who (participants and past entrants linked to players, players merged and split), the past
results imported."""
