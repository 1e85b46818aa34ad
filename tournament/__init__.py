"""The Django side: tournaments, rounds, tables, the referee console, standings, printing and export."""
