"""Errors of the tournament side, shared by rounds, results and backups."""


class RoundError(Exception):
    """Something the director or referee asked for that cannot be done now (the message says why)."""
